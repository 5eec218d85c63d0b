"""The ``pokerpipe`` console entry: registers the command modules and runs the app.

Every module of :mod:`jobs.commands` is one command, named after its file
(``vs_random.py`` is ``pokerpipe vs-random``); no list of them is kept.  Only
the command being run is imported (help imports them all), so a quick command
starts without loading the others' libraries.

Every command reports bad input as one line on stderr and exits with code 2;
Ctrl-C prints ``pokerpipe: interrupted`` (or, for a batch run, what it kept) and exits with 130.  A command that
compiles its kernels (first use after an install or upgrade) says so in one
line first (:mod:`jobs.firstuse`).
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import typer

from jobs import commands
from jobs.app import app, one_line
from jobs.firstuse import compile_notice
from pipeline.core.errors import InputError, Interrupted


def command_modules() -> dict[str, str]:
    """Command name -> module, for every module of :mod:`jobs.commands`."""
    return {m.name.replace("_", "-"): f"{commands.__name__}.{m.name}" for m in pkgutil.iter_modules(commands.__path__)}


def _register(argv: list[str]) -> None:
    """Import the module of the command in ``argv``, or every command module when none is named (help)."""
    known = command_modules()
    named = next((a for a in argv if not a.startswith("-")), None)
    for name in [named] if named in known else sorted(known):
        importlib.import_module(known[name])


def _bare_workers(argv: list[str]) -> list[str]:
    """``--workers`` (``-w``) given no value — last, or before another option — means every core this process
    may use: the value is filled in, so that each command sees a number (a value the option cannot take is
    still the option parser's to refuse)."""
    from pipeline.core.cores import available_cores

    out = list(argv)
    for i in range(len(out) - 1, -1, -1):
        if out[i] in ("--workers", "-w"):
            following = out[i + 1] if i + 1 < len(out) else None
            if following is None or (following.startswith("-") and not following[1:].isdigit()):
                out.insert(i + 1, str(available_cores()))
    return out


COMPLETE = "_POKERPIPE_COMPLETE"     # set by the completion script the shell runs (Click's convention)


def _complete(args: list[str]) -> int:
    """Answer the shell's completion request: Click's own entry handles it, given every command."""
    _register([])
    try:
        typer.main.get_command(app).main(args=args, prog_name="pokerpipe", complete_var=COMPLETE)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 0
    return 0


def _interrupted() -> int:
    print("pokerpipe: interrupted", file=sys.stderr)
    return 130


def main(argv: list[str] | None = None) -> int:
    """Console entry point: runs the app, turning usage and input errors into one line.

    Ctrl-C prints ``pokerpipe: interrupted`` and returns 130.  The command is
    invoked through Click's context API rather than ``app()``, because Typer's
    runner turns a KeyboardInterrupt into a silent ``Exit(130)`` that cannot be
    told apart from a command's own exit code.
    """
    args = _bare_workers(list(sys.argv[1:] if argv is None else argv))
    if COMPLETE in os.environ:          # the shell asks for completions (--install-completion's script)
        return _complete(args)
    try:
        _register(args)
        command = typer.main.get_command(app)
        with command.make_context("pokerpipe", args) as ctx, compile_notice(args):
            code = command.invoke(ctx)
    except (typer.Exit, typer.Abort, KeyboardInterrupt) as e:
        if isinstance(e, typer.Exit):
            return e.exit_code
        return _interrupted()
    except InputError as e:             # bad input the library found: one line, as every command's own checks
        print(f"pokerpipe: error: {one_line(e)}", file=sys.stderr)
        return 2
    except Interrupted as e:            # a run stopped by Ctrl-C or SIGTERM that its command did not catch
        print(f"pokerpipe: {one_line(e)}", file=sys.stderr)
        return 130
    except Exception as e:
        # Usage errors (Click's, vendored or not, per Typer version): one line, exit 2.
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):
            if type(e).__name__ == "NoArgsIsHelpError":   # bare ``pokerpipe``: the help, not an error
                print(e.format_message())
                return 0
            if type(e).__name__ == "Abort":
                return _interrupted()
            # a parser's ValueError reaches us as "Value error, <its message>" (Typer's validation)
            message = e.format_message().replace(": Value error, ", ": ")
            print(f"pokerpipe: error: {one_line(message)}", file=sys.stderr)
            return 2
        raise
    return code if isinstance(code, int) else 0


def entry() -> None:
    """Console-script entry: run, flush, and leave without interpreter teardown when safe.

    Tearing down an interpreter that loaded numba's LLVM takes ~0.3 s, a third of
    a quick command's wall time.  Nothing a command leaves needs it: output is
    flushed here and files are written atomically before a command returns; a
    batch job has closed its Dask client and local cluster (workers joined) by
    then.  Only an interrupted run whose worker processes are still alive exits
    normally, so that Dask's atexit clean-up still runs after a shutdown that a
    signal cut short.
    """
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:          # the reader of our output quit (``| head``): nothing left to say
        code = 1
    sys.stderr.flush()
    forkserver = sys.modules.get("pipeline.batch.forkserver")
    if forkserver is not None:
        forkserver.discard_ahead()   # a fork server started ahead that no run used (jobs.options.ahead)
    if code == 130 and "distributed" in sys.modules and _children_alive():
        sys.exit(code)
    _remove_multiprocessing_folder()
    os._exit(code)


def _remove_multiprocessing_folder() -> None:
    """Remove the folder multiprocessing made for this process (``pymp-*`` in the temporary folder, holding the
    fork server's socket), which its exit handlers would have removed and ``os._exit`` runs none of: a batch
    command left one behind at every run."""
    if "multiprocessing" not in sys.modules:
        return
    import shutil
    from multiprocessing import process

    folder = getattr(process.current_process(), "_config", {}).get("tempdir")   # the one it made, if any
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _children_alive() -> bool:
    """Whether a worker process of a local cluster is still running (its shutdown cut short by the signal):
    then Dask's atexit clean-up must run.  Otherwise an interrupted run leaves as fast as any other (the
    interpreter's teardown took 0.7 s of the 0.9 s from Ctrl-C to exit with two workers)."""
    import multiprocessing

    return bool(multiprocessing.active_children())


if __name__ == "__main__":
    entry()
