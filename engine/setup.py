"""Setting up a game: types in play, board, hands, draw deck and starting seat (R3–R6)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card, HatType
from engine.chance import SeededChance
from engine.config import HAND_SIZE, GameConfig

__all__ = ["Setup", "deal", "seeded_chance_after"]


@dataclass(frozen=True, slots=True)
class Setup:
    """The dealt position before the first turn.

    ``types``: hat types in play, canonical order (5 with 2 seats, else 7; R3).
    ``board``: slot 1 first (5 or 6 cards; R2, R4). ``hands``: 9 cards per seat (R4).
    ``deck``: the draw deck, next card first (2 seats: 7, 3: 9, 4: 0; R4).
    ``start_seat``: who plays first (R6).
    """

    types: tuple[HatType, ...]
    board: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    start_seat: int


def deal(config: GameConfig, chance: SeededChance) -> Setup:
    """Deal a game from its chance source (R3 type removal, R4 deal, R6 start seat).

    Draw order: removed types (2 seats), the shuffle, the starting seat (drawn even when
    ``config.start_seat`` overrides it). Hands are in canonical card order.
    """
    if config.seats == 2:
        removed = set(chance.removed_types(2))
        types = tuple(t for t in HatType if t not in removed)
    else:
        types = tuple(HatType)
    cards = chance.shuffle([c for c in ALL_CARDS if c.type in types])
    slots = config.slots
    board = tuple(cards[:slots])
    hands = tuple(
        tuple(sorted(cards[slots + i * HAND_SIZE : slots + (i + 1) * HAND_SIZE], key=_card_id))
        for i in range(config.seats)
    )
    deck = tuple(cards[slots + config.seats * HAND_SIZE :])
    # The seat is always drawn, so the chance that follows (reshuffles, R9) is the same whether
    # or not the host picked the starting seat: a config with the start seat written out (as in
    # a record) replays the same game as one that left it to the seed.
    drawn = chance.seat(config.seats)
    start = config.start_seat if config.start_seat is not None else drawn
    return Setup(types, board, hands, deck, start)


def seeded_chance_after(config: GameConfig, reshuffled: Iterable[int]) -> SeededChance:
    """The chance of ``Game.new(config)`` after its deal and reshuffles of the given sizes.

    The same draws again (:func:`deal`'s, then one shuffle of ``n`` cards per size in
    ``reshuffled``, R9), so the next shuffle is the one that game would draw: a game need not
    keep its RNG (2.5 KB, tracked by the garbage collector) between reshuffles. About 20 µs.
    """
    chance = SeededChance(config.seed)
    deal(config, chance)
    for n in reshuffled:
        chance.shuffle(ALL_CARDS[:n])
    return chance


def _card_id(card: Card) -> int:
    return card.id
