"""The GA's building blocks against plain definitions: gene lookup, decision, operators, player files."""
import base64
import json

import numpy as np
import pytest

from pipeline.ga.operators import CROSSOVERS, crossover, mutate, random_genes, tournament
from pipeline.holdem.genes import gene_decision, gene_index
from pipeline.holdem.player import GENE_MAX, GENE_MIN, Layout, Player, PlayerFileError
from pipeline.holdem.policies import (
    CALL,
    FOLD,
    O_CATEGORY,
    O_PLAYERS,
    O_POSITION,
    O_POT_ODDS,
    O_RAISES,
    O_RAISES_PREV,
    O_STREET,
    O_WEIGHT,
    OBS_FIELDS,
    RAISE,
)

LAYOUT = Layout()


def random_obs(rng):
    obs = np.zeros(len(OBS_FIELDS))
    obs[O_CATEGORY] = rng.integers(0, 9)
    obs[O_STREET] = rng.integers(1, 4)
    obs[O_RAISES_PREV] = rng.integers(0, 5)
    obs[O_POSITION] = rng.integers(0, 10)
    obs[O_RAISES] = rng.integers(0, 5)
    obs[O_POT_ODDS] = rng.choice([0.0, 0.1, 0.2, 0.3, rng.uniform(0, 0.5)])
    obs[O_PLAYERS] = rng.integers(2, 11)
    obs[O_WEIGHT] = rng.choice([0.1, 0.5, 0.9, 1.0, 1.1 / obs[O_PLAYERS], 2.2 / obs[O_PLAYERS], rng.uniform(0, 1)])
    return obs


def reference_index(layout, obs):
    """The gene's cell by the documented bucket rules, with numpy's own index arithmetic."""
    weight = obs[O_WEIGHT] * obs[O_PLAYERS] if layout.relative_weight else obs[O_WEIGHT]
    coords = [int(obs[O_CATEGORY]), int(obs[O_STREET]) - 1, min(int(obs[O_RAISES_PREV]), layout.raises_before - 1),
              min(int(obs[O_POSITION]), layout.positions - 1), min(int(obs[O_RAISES]), layout.raises - 1),
              int(np.searchsorted(layout.pot_odds_edges, obs[O_POT_ODDS], side="left")),
              int(np.searchsorted(layout.weight_edges, weight, side="left"))]
    return int(np.ravel_multi_index(coords, layout.shape))


def test_layout_has_the_documented_shape():
    assert LAYOUT.shape == (9, 3, 2, 2, 3, 3, 5) and LAYOUT.genes == 4_860 and LAYOUT.relative_weight
    share = Layout(3, 4, 3, (0.0, 0.1, 0.2, 0.3), tuple(x / 10 for x in range(1, 10)), relative_weight=False)
    assert share.genes == 48_600
    assert Layout(5, 10, 5).genes == 5 * 10 * 5 * 9 * 3 * 3 * 5


def test_a_relative_weight_above_one_is_refused_on_the_share_scale():
    with pytest.raises(ValueError, match="0..1"):
        Layout(relative_weight=False)
    fields = {k: v for k, v in Layout().to_dict().items() if k != "shape"}     # the edges change it
    assert Layout.from_dict({**fields, "relative_weight": False, "weight_edges": [0.5]}).relative_weight is False


def test_old_player_files_without_the_weight_scale_read_as_shares():
    d = Layout(weight_edges=(0.5,), relative_weight=False).to_dict()
    del d["relative_weight"]
    assert Layout.from_dict(d) == Layout(weight_edges=(0.5,), relative_weight=False)


@pytest.mark.parametrize("layout", [LAYOUT, Layout(5, 10, 5, (0.0, 0.25), (0.5,), relative_weight=False),
                                    Layout(3, 4, 3, (0.0, 0.1, 0.2, 0.3), (0.5, 1.0, 1.5, 3.0))])
def test_gene_index_and_decision_follow_the_rule(layout):
    rng = np.random.default_rng(1)
    genes = random_genes(layout, rng)
    arr = layout.array()
    for _ in range(3000):
        obs = random_obs(rng)
        used = np.zeros(layout.genes, np.uint8)
        g = reference_index(layout, obs)
        assert gene_index(arr, obs) == g
        a = gene_decision(genes, used, arr, obs)
        d = round(100 * (obs[O_WEIGHT] - obs[O_POT_ODDS]))
        u0, u1 = int(genes[g, 0]), int(genes[g, 1])
        assert a == (RAISE if d > u0 else CALL if u1 < d <= u0 else FOLD)
        assert np.flatnonzero(used).tolist() == [g]


def test_newborn_thresholds_cover_the_open_interval():
    g = random_genes(LAYOUT, np.random.default_rng(0))
    assert g.dtype == np.int8 and g.min() == GENE_MIN == -99 and g.max() == GENE_MAX == 99


@pytest.mark.parametrize("op", CROSSOVERS)
def test_crossover_children_hold_only_their_parents_genes(op):
    rng = np.random.default_rng(5)
    a, b = random_genes(LAYOUT, rng), random_genes(LAYOUT, rng)
    ua, ub = rng.random(LAYOUT.genes) < 0.02, rng.random(LAYOUT.genes) < 0.02
    ca, cb, uca, ucb = crossover(op, a, b, ua, ub, rng)
    from_b = np.all(ca == b, axis=1) & ~np.all(a == b, axis=1)
    # every gene whole from one parent, and the two children split each pair of parent genes
    assert np.all(np.all(ca == a, axis=1) | np.all(ca == b, axis=1))
    assert np.all(np.where(np.all(ca == a, axis=1)[:, None], cb == b, cb == a))
    assert np.array_equal(uca, np.where(from_b, ub, ua)) or not from_b.any()
    swapped = np.flatnonzero(from_b)
    assert 0 < len(swapped) < LAYOUT.genes
    if op in ("half-individual", "half-used"):           # one cut: the swapped genes are a tail
        assert np.all(from_b[swapped.min():] | np.all(a == b, axis=1)[swapped.min():])
    if op == "half-used":                                 # cut at the middle of the first parent's used genes
        idx = np.flatnonzero(ua)
        assert swapped.min() == idx[len(idx) // 2]
    if op == "used-genes":
        assert ua[swapped].all()


def test_mutation_touches_only_used_genes_within_the_variance():
    rng = np.random.default_rng(3)
    g = random_genes(LAYOUT, rng)
    used = rng.random(LAYOUT.genes) < 0.01
    m = mutate(g, used, share=0.5, variance=0.1, rng=rng)
    changed = np.flatnonzero(np.any(m != g, axis=1))
    assert len(changed) > 0 and used[changed].all()
    assert len(changed) <= round(0.5 * used.sum())
    assert np.abs(m.astype(int) - g.astype(int)).max() <= 20
    assert m.min() >= GENE_MIN and m.max() <= GENE_MAX
    assert np.array_equal(mutate(g, np.zeros(LAYOUT.genes, bool), 0.5, 0.1, rng), g)


def test_tournament_winner_is_the_fittest_entrant():
    fitness = np.array([3.0, -1.0, 7.5, 7.5, 0.0])
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    winners = tournament(fitness, 200, 3, rng)
    rng.bit_generator.state = state
    entrants = rng.integers(0, 5, size=(200, 3))
    for w, e in zip(winners, entrants):
        best = max(fitness[e])
        assert fitness[w] == best and w == min(i for i in e if fitness[i] == best)


def test_player_file_round_trip_and_damage(tmp_path):
    p = Player(LAYOUT, random_genes(LAYOUT, np.random.default_rng(2)), {"name": "x", "seats": 4})
    path = p.save(tmp_path / "p.json")
    q = Player.load(path)
    assert np.array_equal(q.genes, p.genes) and q.layout == p.layout and q.about["seats"] == 4
    d = json.loads(path.read_text())
    raw = bytearray(base64.b64decode(d["genes"]["data"]))
    raw[100] ^= 1
    d["genes"]["data"] = base64.b64encode(bytes(raw)).decode()
    path.write_text(json.dumps(d))
    with pytest.raises(PlayerFileError, match="SHA-256"):
        Player.load(path)
    path.write_text("{not json")
    with pytest.raises(PlayerFileError, match="not a player file"):
        Player.load(path)
    with pytest.raises(PlayerFileError, match="no player file"):
        Player.load(tmp_path / "missing.json")


@pytest.mark.parametrize("key, value", [("shape", [9, 4, 2, 3, 3, 3, 500]), ("axes", ["street", "category"])])
def test_a_player_file_whose_recorded_shape_disagrees_with_its_fields_is_damaged(tmp_path, key, value):
    path = Player(LAYOUT, random_genes(LAYOUT, np.random.default_rng(2)), {}).save(tmp_path / "p.json")
    d = json.loads(path.read_text())
    d["layout"][key] = value
    path.write_text(json.dumps(d))
    with pytest.raises(PlayerFileError, match=f"damaged player file \\(layout: {key} .* disagrees"):
        Player.load(path)
    assert Layout.from_values(d["layout"]) == LAYOUT         # a --layout template: genes still to come
