"""Digests recorded from earlier runs: what the datasets must still be, byte for byte.

All the parts digests below were re-recorded for issue 40, when every column got its description in the
Parquet schema's field metadata (which changes every part's bytes and nothing else): for each case, the parts
this code writes, written again with the schema as it was (no field metadata; video poker's ``hold_ev`` list
child ``item``), gave exactly the digest recorded before — :data:`BEFORE_DESCRIPTIONS` keeps those for the
small builds, and tests/datasets/test_datasets.py checks them again on every run.
"""
import hashlib

# Digest of the SHA-256s of a dataset's parts (in part order), recorded from runs of the
# CLI before the datasets layer existed (commit fd3a31d): the refactor changed no byte.
RECORDED = {
    ("ehs-table/flop", (("limit", 2),)): "a52f81cc405308a903b4ba483cc0c1d6193db50395a0fa9166dbcf1105a707f3",
    ("ehs-table/turn", (("limit", 2),)): "6680b50448b254d63056580678637969670aa15fa37fa4891aecbdff1ceaf1c5",
    ("ehs-table/river", (("limit", 2),)): "a0142cba8db71c0d6ebe50ff8d6089f4311683c5e0686b2cf04315ef1697de7d",
    ("matchups", (("limit", 20),)): "41c06b93d9ff8f49acaf66b2605e85e757b3388991df0aa6614a0b79c1e7c512",
    ("odds-table", ()): "ab11cacb8f2192c880598ba40762bf37576616cd355326ef6bd925fe9cadbcf8",
    ("videopoker/jacks-or-better-9-6", ()): "b58931b4250f31cbb2e1b9a005da0e8fd06ada47065baea1c4344432ea879ec3",
    ("videopoker/joker-poker-kings", ()): "9c7e2fac76d737db4534aa46a4fdbfd15febd64f3b10ee860a81169e378a131b",
    # re-recorded for issue 11's Monte Carlo kernel (its own RNG streams, hands dealt from the deck),
    # and again when a lone range became one combo per suit class (a hand class against random
    # hands is a fixed hand): different draws, same law (tests/test_montecarlo.py checks it
    # against exact values); then k = 3, 4 rather than 2, 3 when k = 2 became exact (issue 22: half a
    # minute of counting, built by tests/test_cli_jobs.py instead) and the parameters record ``exact``;
    # and again for issue 41's deal (BEFORE_DESCRIPTIONS says how it was checked); and again when its parts
    # moved into Hive-style opponents=K/ folders without the column (BEFORE_HIVE: the same parts, column put back),
    # and again when each part's schema metadata came to describe that column (pokerpipe.partition_key; BEFORE_HIVE
    # still holds, the parts rebuilt with the dataset's own schema)
    ("vs-random", (("opponents", "3,4"), ("trials", 1000))):
        "8f23b74b461f982cf8601d7f85d6806aa881ffd70256708856aa083b67f22b10",
}
# vs-random's parts digest before its parts moved into Hive-style ``opponents=K/`` folders, the column in the path
# only (issue 40): each part with the column put back gives exactly this (tests/datasets/test_datasets.py)
BEFORE_HIVE = {
    ("vs-random", (("opponents", "3,4"), ("trials", 1000))):
        "dd35115cd0bbaa604789dcf56ea99b63db2f496144034f5c2297178c2eb4ffe1",
}
# The parts digests of RECORDED's cases as they were before the columns' descriptions (commit d9bcb3f)
BEFORE_DESCRIPTIONS = {
    ("ehs-table/flop", (("limit", 2),)): "02db02dcafe2817708cc2e18cb2550d1ab29ae86a4ad515d320d396f747fa84f",
    ("ehs-table/turn", (("limit", 2),)): "3039abdac232e45ff902334b4caadcde2e8eb95f8dc9a387f23b3e69f41f990b",
    ("ehs-table/river", (("limit", 2),)): "427ff0aa9690edbeab01c41d4438fdb70fc55e5c1e2e3a91e9ef977d807c89b5",
    ("matchups", (("limit", 20),)): "90acbf0b15bf62a29310ab9388a3c3f625ade9e95a22f094b2602b3d63911ef7",
    ("odds-table", ()): "f690f6703e5b8cd8fbe980cb44c6827785384d0c7d8ab81118c38f206ca4778f",
    ("videopoker/jacks-or-better-9-6", ()): "5fba58f60cbd340e5feb14d268e243e04e38680e66a11bea6ced45cbda630b71",
    ("videopoker/joker-poker-kings", ()): "261b90c8b5bca7fcc738016bc07258d5d3661fe45951cedaaf84722c1c19d5d8",
    # re-recorded for issue 11's Monte Carlo kernel (its own RNG streams, hands dealt from the deck),
    # and again when a lone range became one combo per suit class (a hand class against random
    # hands is a fixed hand): different draws, same law (tests/test_montecarlo.py checks it
    # against exact values); then k = 3, 4 rather than 2, 3 when k = 2 became exact (issue 22: half a
    # minute of counting, built by tests/test_cli_jobs.py instead) and the parameters record ``exact``;
    # and again for issue 41's deal (hands and random cards dealt as bits, four cards to a draw): its 338 rows
    # against the previous ones, (new - old) / combined stderr, mean -0.11, sd 0.99, 2 beyond 3 (0.6%)
    ("vs-random", (("opponents", "3,4"), ("trials", 1000))):
        "ada0a8bd2475e265cb39b269aef89579230422a8e20e69b4754dd5ca60de27ab",
}
# The full-size preflop datasets (built by tests/test_cli_jobs.py's fixture) and side outputs.
RECORDED_FULL = {
    "matchups": "cddd9a415bc20ea386b247bb9af1cc0d396545df08b3e2fb73ecac8b8c6dbd77",
    "preflop-grid": "cd14f70d4489a95c0a6810a86725acde8596ec29dde62f84d02952b739d52112",
}
# ``pokerpipe matchups --limit 6000 --workers 2``, uninterrupted (recorded at 20b2766): the run that
# tests/test_cli_jobs.py interrupts and resumes must end with these very parts.
RECORDED_LIMIT_6000 = "8fb424607c5b975a7bcb6496c8740d4b3428d6dd6ffbd78ea0918dc44dfc6db8"
# ``pokerpipe tables matchups odds-table --param matchups.limit=3000 --workers 1``, uninterrupted (recorded at
# 20b2766): the run that tests/test_object_store.py interrupts and resumes in a bucket must end with these parts.
RECORDED_LIMIT_3000 = "67008cdb1ca816a2bf18d11f898a7ed8c652b6f4c85d7ac74d869762fcb9fb76"
RECORDED_SIDE = {
    "preflop-grid/_heatmap.png": "70e69bc7680c3312b3a563ccae1af0108352a5d9d0767a8ec861c82de64664ec",
    "videopoker/jacks-or-better-9-6/_strategy.txt": "418cb1ae96c6e60279e2bade4631a880796e6cb048248f014c24a5e4d7c998d4",
    "videopoker/joker-poker-kings/_strategy.txt": "83d5d7c99578a0dcddba2db3a6fa47d0fdd55f266b53ab6738a5ebee0392758a",
}


def parts_digest(manifest: dict) -> str:
    return hashlib.sha256(" ".join(p["sha256"] for p in manifest["parts"]).encode()).hexdigest()
