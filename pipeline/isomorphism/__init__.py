"""Suit isomorphism: situations and boards up to a permutation of suits.

:mod:`.situations` numbers (hole, board as a set) densely — 169 preflop,
1,286,792 flop, 13,960,050 turn, 123,156,254 river classes — with one numba
kernel and its Python inverse; :mod:`.boards` lists the canonical boards of a
street and the canonical deals of video poker; :mod:`.sort4` is the sorting
network both use.
"""
from .boards import all_card_sets, canonical_boards, suit_canonical_codes
from .situations import situation_cards, situation_index, situation_text, street_size

__all__ = ["all_card_sets", "canonical_boards", "situation_cards", "situation_index", "situation_text",
           "street_size", "suit_canonical_codes"]
