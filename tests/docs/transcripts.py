"""The docs' and README's command transcripts: every ``$ pokerpipe ...`` line of a fenced block, with the
lines printed after it (up to the next ``$`` line or the block's end)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Transcript:
    page: str          # README.md or docs/NAME.md
    line: int          # the command's line in the page
    command: str       # as typed, continuation lines joined, a trailing "# ..." comment removed
    output: str        # what the page says it printed

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _strip_comment(command: str) -> str:
    out, quote = [], ""
    for i, c in enumerate(command):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1].isspace()):
            break
        out.append(c)
    return "".join(out).rstrip()


def transcripts() -> list[Transcript]:
    found = []
    for page in PAGES:
        text = page.read_text()
        for block in FENCE.finditer(text):
            start = text.count("\n", 0, block.start(1)) + 1
            lines = block.group(1).split("\n")
            i = 0
            while i < len(lines):
                if not lines[i].startswith("$ pokerpipe"):
                    i += 1
                    continue
                at, command = i, lines[i][2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1].rstrip() + " " + lines[i].strip()
                i += 1
                output = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    output.append(lines[i])
                    i += 1
                found.append(Transcript(page.relative_to(ROOT).as_posix(), start + at, _strip_comment(command),
                                        "\n".join(output).rstrip("\n")))
    return found


# Transcripts not run by the tests, each with why: they need tables built first, or take minutes (their figures
# are the benchmarks' and docs/measured.md's).  Matched against the command as a substring.
NOT_RUN = {
    "tables ": "builds datasets: tests/datasets and tests/cli build them",
    "--out outputs": "reads tables built by an earlier `tables` run",
    "--out /tmp/rd": "reads tables built by an earlier `tables` run",
    "pokerpipe evolve": "an evolution takes minutes",
    "pokerpipe solve": "a solve takes minutes",
    "pokerpipe preflop-grid": "the whole preflop grid: minutes",
    "pokerpipe matchups": "all 47,008 matchups: minutes",
    "pokerpipe odds-table": "a dataset build",
    "pokerpipe vs-random": "a dataset build",
    "pokerpipe holdem-weights": "a dataset build",
    "cfr:": "needs a solved strategy",
    "runs/quick/": "needs the player file the page's `evolve` run writes",
    "pokerpipe exploit": "100,000 hands of local best response: minutes on 2 cores",
    "--hands 120000": "120,000 six-handed hands: a minute",
    "-n 200000": "200,000 hands: a minute",
    "pokerpipe play --seats 6 --policies tag,maniac,station": "runs the default 100,000 hands",
    "pokerpipe bucket AhKh --board": "reads the built abstraction",
}


def runnable(t: Transcript) -> bool:
    """Whether the tests run ``t``: it shows output and needs nothing built and no minutes."""
    return bool(t.output.strip()) and not any(key in t.command for key in NOT_RUN)


def run(t: Transcript, folder: Path, python: str) -> str:
    """What ``t``'s command prints today on a terminal (stdout and stderr as they come), run by ``bash`` in
    ``folder`` with ``pokerpipe`` as ``python -m jobs``."""
    import os
    import subprocess

    command = re.sub(r"(^|\|\s*)pokerpipe ", lambda m: f"{m.group(1)}{python} -m jobs ", t.command)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    p = subprocess.run(["bash", "-c", command], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=600, env=env)
    return p.stdout.rstrip("\n")


def rewrite(fresh: dict[str, str]) -> list[str]:
    """Write into the pages each transcript's fresh output (``fresh``: by :attr:`Transcript.id`); the ids
    changed."""
    changed = []
    by_page: dict[str, list[Transcript]] = {}
    for t in transcripts():
        if t.id in fresh and fresh[t.id] != t.output:
            by_page.setdefault(t.page, []).append(t)
    for page, ts in by_page.items():
        path = ROOT / page
        lines = path.read_text().split("\n")
        for t in sorted(ts, key=lambda t: -t.line):          # from the bottom: earlier line numbers stay right
            first = t.line - 1
            end = first + 1
            while lines[end - 1].rstrip().endswith("\\"):
                end += 1
            stop = end + len(t.output.split("\n")) if t.output else end
            lines[end:stop] = fresh[t.id].split("\n") if fresh[t.id] else []
            changed.append(t.id)
        path.write_text("\n".join(lines))
    return changed


if __name__ == "__main__":          # python tests/docs/transcripts.py [--write] [ID ...]: check (or rewrite) them
    import sys
    import tempfile

    write = "--write" in sys.argv
    wanted = [a for a in sys.argv[1:] if not a.startswith("--")]
    fresh = {}
    for t in transcripts():
        if runnable(t) and (not wanted or t.id in wanted):
            with tempfile.TemporaryDirectory() as d:
                fresh[t.id] = run(t, Path(d), sys.executable)
            print(("same " if fresh[t.id] == t.output else "STALE") + f" {t.id}  {t.command}", flush=True)
    if write:
        print("rewritten:", ", ".join(rewrite(fresh)) or "none")
