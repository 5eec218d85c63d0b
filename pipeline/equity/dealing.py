"""Numba kernels that deal one block of Monte Carlo trials (see :mod:`.montecarlo` for the law).

Each writes, for trials ``0 .. nb-1`` of the block, the board's key and the
dealt players' two-card keys (``bkeys[b]``, ``keys[p, b]``) and, for the rare
flush, the cards themselves: :func:`deal_bits_block` as bits of the
evaluator's suited mask (``bsuited``, ``suited``), the others as card ids
(``bcards[b, first:5]``, ``hole[p, b]``).  Each returns the generator state.
They are functions of their own, called once a block, rather than loops in
the chunk kernel: a loop that sees only the arrays it needs keeps its
generator state and indexes in registers (11% more heads-up trials a second
than the same loop inside the kernel).
"""
from __future__ import annotations

from typing import Any, Callable, Optional, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..core.bits import lowest_bit_index, nth_set_bit, popcount
from ..core.rng import below, below16, below_pair, deal_card, next_u64, uniform
from .plan import DealPlan


@njit(cache=True, nogil=True, inline="always")
def next_live_card(s0: np.uint64, s1: np.uint64, deck: np.ndarray, pos: int, L: int, taken: np.uint64) -> tuple:
    """One step of a partial Fisher-Yates shuffle of ``deck[pos:L]`` that skips cards in ``taken``.

    Returns ``(s0, s1, card, pos)``: the generator state, the next card not in
    ``taken`` and the new position.  Inlined into the dealing loops (numba IR
    inlining), so their generator state stays in registers.
    """
    one = np.uint64(1)
    while True:
        s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
        if not (taken >> np.uint64(c)) & one:
            return s0, s1, c, pos


@njit(cache=True, nogil=True, inline="always")
def alias_step(s0: np.uint64, s1: np.uint64, i: int, keep: float, other: int) -> tuple:
    """``(s0, s1, i)``: the second step of a Walker alias draw (Walker, ACM TOMS 3(3), 1977): keep the
    uniformly drawn row ``i`` with probability ``keep`` (its ``prob``), else take ``other`` (its ``alias``).

    The dealing loops draw ``i`` with :func:`~pipeline.core.rng.below` and read ``prob``/``alias`` at ``i``
    themselves, so this helper takes no arrays: an inlined helper that takes arrays and branches makes numba
    keep a reference-count increment and decrement per call in the loop (measured: 23 ns a draw against 1 ns,
    which halved the trials a second of AA vs KK vs QQ vs three random hands)."""
    s0, s1, u = uniform(s0, s1)
    return s0, s1, (other if u >= keep else i)


@njit(cache=True, nogil=True, inline="always")
def seat(keys: np.ndarray, hole: np.ndarray, p: int, b: int, c1: int, c2: int, card_keys: np.ndarray) -> None:
    """Give player ``p`` the cards ``c1``, ``c2`` in trial ``b``: their key and the cards themselves."""
    keys[p, b] = card_keys[c1] + card_keys[c2]
    hole[p, b, 0] = c1
    hole[p, b, 1] = c2


@njit(cache=True, nogil=True, inline="always")
def deal_the_rest(s0: np.uint64, s1: np.uint64, b: int, deck: np.ndarray, taken: np.uint64, missing: int,
                  dplayers: np.ndarray, bkey0: np.uint64, bkeys: np.ndarray, bcards: np.ndarray, keys: np.ndarray,
                  hole: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Trial ``b``'s missing board cards, then two cards for each deck player, from ``deck`` skipping the
    cards in ``taken`` (the range players'); returns the generator state.  Inlined into the dealing loops."""
    L = deck.size
    pos = 0
    bkey = bkey0
    for _d in range(missing):
        s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
        bkey += card_keys[c]
        bcards[b, 5 - missing + _d] = c
    bkeys[b] = bkey
    for q in range(dplayers.size):
        s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
        s0, s1, c2, pos = next_live_card(s0, s1, deck, pos, L, taken)
        seat(keys, hole, dplayers[q], b, c, c2, card_keys)
    return s0, s1


_LOW16 = np.uint64(0xFFFF)
_BIT = np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def card_index(s0: np.uint64, s1: np.uint64, word: np.uint64, n: int) -> tuple:
    """``(s0, s1, j)``: ``j`` uniform below ``n`` from the low 16 bits of ``word`` (Lemire's multiply-shift),
    redrawn from fresh outputs in the rare case its rejection test refuses them."""
    un = np.uint64(n)
    m = (word & _LOW16) * un
    while (m & _LOW16) < un and (m & _LOW16) < (np.uint64(1 << 16) - un) % un:
        s0, s1, word = next_u64(s0, s1)
        m = (word & _LOW16) * un
    return s0, s1, np.int64(m >> np.uint64(16))


@njit(cache=True, nogil=True, inline="always")
def draw_live_card(s0: np.uint64, s1: np.uint64, cw: np.uint64, c: int, live: np.uint64, n: int) -> tuple:
    """``(s0, s1, cw, c, bit)``: the bit of a card drawn uniformly among the ``n`` cards of ``live``, the
    ``c``-th card of the trial (:func:`card_index` on the next 16 bits of ``cw``, a new generator output
    every fourth card; :func:`~pipeline.core.bits.nth_set_bit`)."""
    if c & 3 == 0:
        s0, s1, cw = next_u64(s0, s1)
    s0, s1, j = card_index(s0, s1, cw, n)
    return s0, s1, cw >> np.uint64(16), c + 1, nth_set_bit(live, j)


LANES = 16     # card indexes computed at once: a trial's board and deck players' cards when they are no more


def _card_indexes(typingctx: Any, w0: Any, w1: Any, w2: Any, w3: Any, lanes: Any, into: Any) -> tuple:
    """``card_indexes(w0, w1, w2, w3, lanes, into)`` in a kernel: the :data:`LANES` 16-bit draws of the four
    generator outputs (low bits first, as :func:`draw_live_card` takes them) each multiplied by its live-card
    count ``lanes[k]`` (uint32); ``into[k]`` (uint32) gets the product's high 16 bits, :func:`card_index`'s
    ``j``; the result has bit ``k`` set where Lemire's test rejects draw ``k``: the low 16 bits below
    ``lanes[LANES + k]``, that count's threshold ``2**16 mod n`` (0 for a lane not dealt: never rejected).
    Generic LLVM vector operations: one multiply and one compare on 16 lanes, whatever the vector width."""
    sig = types.uint64(w0, w1, w2, w3, lanes, into)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i32, i64 = ir.IntType(32), ir.IntType(64)
        q4, h16, d16 = ir.VectorType(i64, 4), ir.VectorType(ir.IntType(16), LANES), ir.VectorType(i32, LANES)
        words = ir.Constant(q4, ir.Undefined)
        for k in range(4):
            words = builder.insert_element(words, args[k], ir.Constant(i32, k))
        draws = builder.zext(builder.bitcast(words, h16), d16)
        lanes_at = context.make_array(signature.args[4])(context, builder, args[4]).data
        into_at = context.make_array(signature.args[5])(context, builder, args[5]).data
        counts = builder.load(builder.bitcast(lanes_at, d16.as_pointer()), align=4)
        limits = builder.load(builder.bitcast(builder.gep(lanes_at, [ir.Constant(i64, LANES)]), d16.as_pointer()),
                              align=4)
        m = builder.mul(draws, counts)
        builder.store(builder.lshr(m, ir.Constant(d16, [16] * LANES)),
                      builder.bitcast(into_at, d16.as_pointer())).align = 4
        low = builder.and_(m, ir.Constant(d16, [0xFFFF] * LANES))
        rejected = builder.icmp_unsigned("<", low, limits)
        return builder.zext(builder.bitcast(rejected, ir.IntType(LANES)), i64)

    return sig, codegen


# typed for mypy as the call a kernel makes (an intrinsic's own signature starts with numba's typing context)
card_indexes = cast(Callable[..., np.uint64], intrinsic(_card_indexes))


def _live_ranks(typingctx: Any, drawn: Any, cards: Any, live0: Any, taken: Any) -> tuple:
    """``live_ranks(drawn, cards, live0, taken)`` in a kernel: turns the first ``cards`` indexes of ``drawn``
    (uint32, :func:`card_indexes`' ``j``: card ``k`` is the ``j[k]``-th live card once ``taken`` and cards
    ``0 .. k-1`` are out) into each card's rank among the cards of ``live0``, in place, with no step waiting
    on the card before it.

    The draws are a Lehmer code (Lehmer 1960; Knuth, TAOCP vol. 2, 3.3.2 P): decoded from the last index
    back, index ``i``'s value ``j[i]`` moves every later card at or above it up one (``v[m] += v[m] >= j[i]``
    for ``m > i``), which gives each card's rank among the cards not taken; then each taken card of
    ``live0``, in rising order of its rank ``t`` there, moves every card at or above ``t`` up one.  Each
    step is one compare and one subtract on all 16 lanes of bytes at once (ranks are below 64), so a trial
    costs ``cards - 1 + len(taken)`` short vector steps, where dealing card by card (:func:`nth_set_bit`
    on the live mask less the cards before) chains the cards one after another: on a CPU without a fast
    ``pdep`` (AMD before Zen 3) each link is a halving search of about 30 cycles (7 cards: 110 ns a trial
    on the AMD EPYC Zen 1).  The same ranks, so the same cards: the law of the draw is unchanged."""
    sig = types.void(drawn, cards, live0, taken)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        b16, d16 = ir.VectorType(i8, LANES), ir.VectorType(i32, LANES)
        at = context.make_array(signature.args[0])(context, builder, args[0]).data
        vec_at = builder.bitcast(at, d16.as_pointer())
        start = builder.trunc(builder.load(vec_at, align=4), b16)
        lane = ir.Constant(b16, list(range(LANES)))

        def splat(x: Any) -> Any:
            one = builder.insert_element(ir.Constant(b16, ir.Undefined), x, ir.Constant(i32, 0))
            return builder.shuffle_vector(one, ir.Constant(b16, ir.Undefined), ir.Constant(d16, [0] * LANES))

        def bump(v: Any, mask: Any) -> Any:        # v + 1 on the lanes of mask
            return builder.sub(v, builder.sext(mask, b16))

        entry = builder.basic_block
        decode = builder.append_basic_block("lehmer")
        adjust = builder.append_basic_block("taken")
        done = builder.append_basic_block("done")
        first = builder.sub(args[1], ir.Constant(i64, 2))
        builder.cbranch(builder.icmp_signed(">=", first, ir.Constant(i64, 0)), decode, adjust)
        with builder.goto_block(decode):           # i from cards - 2 down to 0
            i = builder.phi(i64)
            v = builder.phi(b16)
            i.add_incoming(first, entry)
            v.add_incoming(start, entry)
            ji = builder.trunc(builder.load(builder.gep(at, [i])), i8)
            ti = builder.trunc(i, i8)
            below = builder.sub(ji, ir.Constant(i8, 1))
            moved = builder.and_(builder.icmp_signed(">", v, splat(below)), builder.icmp_signed(">", lane, splat(ti)))
            v2 = bump(v, moved)
            i2 = builder.sub(i, ir.Constant(i64, 1))
            i.add_incoming(i2, decode)
            v.add_incoming(v2, decode)
            builder.cbranch(builder.icmp_signed(">=", i2, ir.Constant(i64, 0)), decode, adjust)
        with builder.goto_block(adjust):           # the taken cards of live0, lowest first
            t = builder.phi(i64)
            w = builder.phi(b16)
            t.add_incoming(args[3], entry)
            t.add_incoming(args[3], decode)
            w.add_incoming(start, entry)
            w.add_incoming(v2, decode)
            more = builder.append_basic_block("taken_step")
            builder.cbranch(builder.icmp_unsigned("!=", t, ir.Constant(i64, 0)), more, done)
        with builder.goto_block(more):
            low = builder.and_(t, builder.neg(t))
            rank = builder.ctpop(builder.and_(args[2], builder.sub(low, ir.Constant(i64, 1))))
            below = builder.sub(builder.trunc(rank, i8), ir.Constant(i8, 1))
            w2 = bump(w, builder.icmp_signed(">", w, splat(below)))
            t2 = builder.and_(t, builder.sub(t, ir.Constant(i64, 1)))
            t.add_incoming(t2, more)
            w.add_incoming(w2, more)
            builder.branch(adjust)
        builder.position_at_end(done)
        builder.store(builder.zext(w, d16), vec_at, align=4)
        return context.get_dummy_value()

    return sig, codegen


live_ranks = cast(Callable[..., None], intrinsic(_live_ranks))


@njit(cache=True, nogil=True)
def rank_bits(live0: np.uint64) -> np.ndarray:
    """The bit (of the suited layout) of each card of ``live0`` by its rank there, lowest first: what a rank of
    :func:`live_ranks` deals."""
    out = np.zeros(64, np.uint8)
    r = 0
    x = live0
    while x:
        out[r] = lowest_bit_index(x)
        x &= x - np.uint64(1)
        r += 1
    return out


@njit(cache=True, nogil=True)
def card_lanes(n0: int, cards: int) -> np.ndarray:
    """The ``lanes`` of :func:`card_indexes` for a trial dealing ``cards`` cards from ``n0`` live ones: each card's
    live count, then Lemire's threshold for it (``2**16 mod n``; zeros past the last card, never rejected)."""
    lanes = np.zeros(2 * LANES, np.uint32)
    for k in range(min(cards, LANES)):
        lanes[k] = n0 - k
        lanes[LANES + k] = ((1 << 16) - (n0 - k)) % (n0 - k)
    return lanes


@njit(cache=True, nogil=True)
def deal_bits_block(nb: int, s0: np.uint64, s1: np.uint64, rplayers: np.ndarray, roffsets: np.ndarray,
                    alias_prob: np.ndarray, alias_idx: np.ndarray, requal: np.ndarray, ckeys: np.ndarray,
                    csuited: np.ndarray, listed: np.ndarray, rows: np.ndarray, row_mask: np.ndarray,
                    row_prob: np.ndarray, row_alias: np.ndarray, row_cut: np.ndarray, row_total: int,
                    alone: np.ndarray, restart: bool, choices: np.ndarray,
                    choice_count: np.ndarray, live0: np.uint64, missing: int,
                    dplayers: np.ndarray, bkey0: np.uint64, bsuit0: np.uint64, bkeys: np.ndarray, bsuited: np.ndarray,
                    keys: np.ndarray, suited: np.ndarray, bit_keys: np.ndarray, picks: np.ndarray,
                    dkeys: np.ndarray, dsuited: np.ndarray, lanes: Optional[np.ndarray],
                    drawn: np.ndarray, by_rank: Optional[np.ndarray] = None) -> tuple:
    """Plans with range players drawn by their law (:func:`.plan._lists`), cards kept as bits of the suited
    layout (bit ``16*suit + rank``).  The listed range players come as one row of ``rows`` (Walker's alias
    method over the rows' weights, in integers when they are counts, or uniform), the others each from his
    own table, redrawn while he clashes with the cards taken (all of them again, with ``restart``:
    whole-draw rejection); but the first of them uniformly among his ``choices`` beside the row when the
    plan lists them (no redraw).  Then the missing board cards and two cards for each deck player, each the
    ``j``-th live card for ``j`` uniform (:func:`card_index` on 16 bits, four cards to a generator output;
    one ``pdep``, :func:`~pipeline.core.bits.nth_set_bit`): no deck to shuffle and no held card to skip, what
    is held is simply not in the mask of live cards.  Writes each trial's board key and suited mask and each
    dealt player's two-card key and suited mask, which is all :func:`.montecarlo.evaluate_bits_block`
    reads.

    Inside the trial loop nothing is written at a player's row of ``keys``: a store whose row is read from
    ``rplayers`` or ``dplayers`` waits on that load, and each load after it on the store (numba cannot tell
    the arrays apart), which cost a quarter of a three-way ranged trial.  The loop records what each trial
    drew instead, at rows of its own: the listed row and each alone player's combo in ``picks`` (int64,
    ``(1 + len(alone), nb)``), the deck players' keys and masks in ``dkeys``/``dsuited`` (``(len(dplayers),
    nb)``); the players' rows are filled from them after it, player by player.  The draws, and so the
    stream, are the same.

    Given ``lanes`` (:func:`card_lanes`, not None: numba compiles the loop apart for None, without this
    path's code), a trial's board and deck cards take their indexes from one :func:`card_indexes` on the
    generator outputs the card-by-card draw would read (the live counts per card are the same every trial),
    then one ``pdep`` each (``drawn``: the indexes' scratch); a trial with a rejected draw (about one in
    250) is dealt card by card from the same state.  Per trial, the deal alone (AVX2 target, AMD EPYC Zen 4):
    six-way ranges 31.8-32.1 -> 29.8-30.0 ns, AA against five random hands 27.0-27.3 -> 22.6-23.0; for a
    board alone (three-way ranges) it was 4% slower, so the caller asks for it from six cards up.

    Given ``by_rank`` (:func:`rank_bits` of ``live0``: the caller's choice where ``pdep`` is slow,
    :data:`~pipeline.core.bits.FAST_PDEP`) the indexes become every card's rank among ``live0`` at once
    (:func:`live_ranks`) and each card's bit comes from that table, instead of one :func:`nth_set_bit` after another
    on the live mask: the same cards. On the AMD EPYC Zen 1 (``pdep`` microcoded; the search chained, about 30
    cycles a card), 2,000,000 trials, the deal of AhKh against a random hand took 112-120 ns a trial card by card or
    chained, 38 by ranks (the rest of the trial: 6 ns); whole runs (``equity(..., threads=1)``, M trials/s) AhKh vs
    random 7.7 -> 20.8, AA vs five random hands 3.5 -> 10.4, six-way ranges 4.1 -> 8.8, and, now at once from two
    cards, the three-way ranges' board alone 8.7 -> 14.4."""
    A = rows.shape[0]
    L = listed.size
    Q = alone.size
    D = dplayers.size
    weighted_rows = row_prob.size > 0
    counted_rows = row_cut.size > 0
    chosen = choice_count.size > 0
    short_list = A <= 1 << 16               # a row drawn from 16 bits
    n0 = int(popcount(live0)) - 2 * (L + Q)    # live cards once the range players hold theirs
    whole_board = missing == 5
    cards = missing + 2 * D
    words = (cards + 3) // 4
    word = np.uint64(0)
    left = 0
    cw = np.uint64(0)
    for b in range(nb):
        taken = np.uint64(0)
        if A > 0:
            if counted_rows:        # the integer alias table: row and cut from the two halves of one output
                s0, s1, a, u = below_pair(s0, s1, A, row_total)
                if u >= row_cut[np.uint64(a)]:
                    a = row_alias[np.uint64(a)]
            elif short_list:
                s0, s1, word, left, a = below16(s0, s1, word, left, A)
            else:
                s0, s1, a = below(s0, s1, A)
            if weighted_rows:
                s0, s1, a = alias_step(s0, s1, a, row_prob[np.uint64(a)], row_alias[np.uint64(a)])
            taken = row_mask[np.uint64(a)]
            picks[0, b] = a
        q = 0
        if chosen:          # the first alone player, uniform among his combos beside the row
            s0, s1, word, left, j = below16(s0, s1, word, left, choice_count[np.uint64(a)])
            i = np.int64(choices[np.uint64(a), np.uint64(j)])
            taken |= csuited[np.uint64(i)]
            picks[1, b] = i
            q = 1
        held = taken
        first = q
        while q < Q:
            slot = np.uint64(alone[q])
            lo = roffsets[slot]
            s0, s1, word, left, i = below16(s0, s1, word, left, roffsets[slot + np.uint64(1)] - lo)
            if not requal[slot]:
                s0, s1, i = alias_step(s0, s1, i, alias_prob[np.uint64(lo + i)], alias_idx[np.uint64(lo + i)])
            i += lo
            if csuited[np.uint64(i)] & taken:      # a clash: this player again, or (whole-draw rejection) all of them
                if restart:
                    taken = held
                    q = first
                continue
            taken |= csuited[np.uint64(i)]
            picks[1 + q, b] = i
            q += 1
        live = live0 & ~taken
        bkey = bkey0
        bs = bsuit0
        if lanes is not None:       # every card's index at once, unless a draw is rejected (one trial in ~100)
            t0, t1 = s0, s1
            s0, s1, x0 = next_u64(s0, s1)
            x1 = x2 = x3 = np.uint64(0)
            if words > 1:
                s0, s1, x1 = next_u64(s0, s1)
            if words > 2:
                s0, s1, x2 = next_u64(s0, s1)
            if words > 3:
                s0, s1, x3 = next_u64(s0, s1)
            if card_indexes(x0, x1, x2, x3, lanes, drawn) == 0:
                k = 0
                if by_rank is not None:    # every card's rank among live0 at once, then its bit by rank
                    live_ranks(drawn, cards, live0, taken)
                    for _d in range(missing):
                        at = by_rank[drawn[k]]
                        k += 1
                        bs |= _BIT << at
                        bkey += bit_keys[at]
                    bkeys[b] = bkey
                    bsuited[b] = bs
                    for q in range(D):
                        at, at2 = by_rank[drawn[k]], by_rank[drawn[k + 1]]
                        k += 2
                        dkeys[q, b] = bit_keys[at] + bit_keys[at2]
                        dsuited[q, b] = (_BIT << at) | (_BIT << at2)
                    continue
                if whole_board:     # a length the compiler knows, as below (one loop for both: 1-2 ns a trial more)
                    for _d in range(5):
                        bit = nth_set_bit(live, drawn[k])
                        k += 1
                        live ^= bit
                        bs |= bit
                        bkey += bit_keys[lowest_bit_index(bit)]
                else:
                    for _d in range(missing):
                        bit = nth_set_bit(live, drawn[k])
                        k += 1
                        live ^= bit
                        bs |= bit
                        bkey += bit_keys[lowest_bit_index(bit)]
                bkeys[b] = bkey
                bsuited[b] = bs
                for q in range(D):
                    bit = nth_set_bit(live, drawn[k])
                    live ^= bit
                    bit2 = nth_set_bit(live, drawn[k + 1])
                    live ^= bit2
                    k += 2
                    dkeys[q, b] = bit_keys[lowest_bit_index(bit)] + bit_keys[lowest_bit_index(bit2)]
                    dsuited[q, b] = bit | bit2
                continue
            s0, s1 = t0, t1     # the card by card draw below, from the same outputs
        n = n0
        c = 0           # cards dealt this trial: a new generator output every fourth
        if whole_board:     # the same loop at a length the compiler knows: unrolled, its refills placed
            for _d in range(5):
                s0, s1, cw, c, bit = draw_live_card(s0, s1, cw, c, live, n)
                live ^= bit
                n -= 1
                bs |= bit
                bkey += bit_keys[lowest_bit_index(bit)]
        else:
            for _d in range(missing):
                s0, s1, cw, c, bit = draw_live_card(s0, s1, cw, c, live, n)
                live ^= bit
                n -= 1
                bs |= bit
                bkey += bit_keys[lowest_bit_index(bit)]
        bkeys[b] = bkey
        bsuited[b] = bs
        for q in range(D):
            s0, s1, cw, c, bit = draw_live_card(s0, s1, cw, c, live, n)
            live ^= bit
            s0, s1, cw, c, bit2 = draw_live_card(s0, s1, cw, c, live, n - 1)
            live ^= bit2
            n -= 2
            dkeys[q, b] = bit_keys[lowest_bit_index(bit)] + bit_keys[lowest_bit_index(bit2)]
            dsuited[q, b] = bit | bit2
    # the players' rows, from what each trial drew; the indexes as uint64 (numba adds a test for a negative
    # index to each signed one: 12 instructions a copy, not 5, a tenth of a six-way trial)
    for k in range(L):
        p = rplayers[listed[k]]
        for b in range(nb):
            combo = np.uint64(rows[np.uint64(picks[0, b]), k])
            keys[p, b] = ckeys[combo]
            suited[p, b] = csuited[combo]
    for q in range(Q):
        p = rplayers[alone[q]]
        for b in range(nb):
            combo = np.uint64(picks[1 + q, b])
            keys[p, b] = ckeys[combo]
            suited[p, b] = csuited[combo]
    for q in range(D):
        p = dplayers[q]
        for b in range(nb):
            keys[p, b] = dkeys[q, b]
            suited[p, b] = dsuited[q, b]
    return s0, s1


@njit(cache=True, nogil=True)
def deal_ranges_block(nb: int, s0: np.uint64, s1: np.uint64, plan: DealPlan, bkey0: np.uint64, bkeys: np.ndarray,
                      bcards: np.ndarray, keys: np.ndarray, hole: np.ndarray, omegas: np.ndarray,
                      scratch: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Plans with range players: each range player's combo (Walker's alias method, redrawn
    while it shares a card with one drawn before it in the trial; in random order with the
    importance weight ``omegas[b]`` when ranges can collide), then the board and the deck
    players from the rest of the deck, skipping the range players' cards."""
    base_used, deck, missing = plan.base_used, plan.deck, 5 - plan.board.size
    rplayers, roffsets, rcombos, rmasks, rweights = plan.rplayers, plan.roffsets, plan.rcombos, plan.rmasks, \
        plan.rweights
    rtotal, alias_prob, alias_idx, requal = plan.rtotal, plan.alias_prob, plan.alias_idx, plan.requal
    weighted, dplayers, card_weight, pair_weight = plan.weighted, plan.dplayers, plan.card_weight, plan.pair_weight
    R = rplayers.size
    order = scratch[:R]             # the order the range players draw in (kept from block to block)
    held = scratch[R:3 * R]         # cards of the range players drawn so far in a trial
    for b in range(nb):
        taken = base_used
        omega = 1.0
        # 2. range players, in random order when their draws can collide
        if weighted:
            for k in range(R - 1, 0, -1):
                s0, s1, j = below(s0, s1, k + 1)
                order[k], order[j] = order[j], order[k]
        for q in range(R):
            k = order[q]
            lo, hi = roffsets[k], roffsets[k + 1]
            avail = rtotal[k]
            if weighted and q > 0:
                # weight still available: inclusion-exclusion over the cards held so far,
                # recounted combo by combo when cancellation leaves too little to trust
                for a in range(2 * q):
                    avail -= card_weight[k, held[a]]
                    for b2 in range(a):
                        avail += pair_weight[k, held[a], held[b2]]
                if avail < 1e-9 * rtotal[k]:
                    avail = 0.0
                    for i in range(lo, hi):
                        if not rmasks[i] & taken:
                            avail += rweights[i]
                if avail <= 0.0:
                    omega = 0.0
                    break
                omega *= avail / rtotal[k]
            n = hi - lo
            got = -1
            for _try in range(64):
                s0, s1, i = below(s0, s1, n)
                if not requal[k]:
                    s0, s1, i = alias_step(s0, s1, i, alias_prob[lo + i], alias_idx[lo + i])
                i += lo
                if not rmasks[i] & taken:
                    got = i
                    break
            if got < 0:       # heavily blocked: draw from the available combos by a scan
                s0, s1, u = uniform(s0, s1)
                u *= avail
                for i in range(lo, hi):
                    if not rmasks[i] & taken:
                        got = i
                        u -= rweights[i]
                        if u < 0.0:
                            break
            taken |= rmasks[got]
            c1, c2 = rcombos[got, 0], rcombos[got, 1]
            held[2 * q] = c1
            held[2 * q + 1] = c2
            p = rplayers[k]
            keys[p, b] = card_keys[c1] + card_keys[c2]
            hole[p, b, 0] = c1
            hole[p, b, 1] = c2
        omegas[b] = omega
        if omega == 0.0:      # no combo left for a range player: a trial of weight zero
            bkeys[b] = bkey0
            continue
        # 3. the board, then the deck players, from what is left of the deck
        s0, s1 = deal_the_rest(s0, s1, b, deck, taken, missing, dplayers, bkey0, bkeys, bcards, keys, hole,
                               card_keys)
    return s0, s1
