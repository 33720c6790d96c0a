"""Helpers for the engine tests: chosen positions, random games, where every card is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from engine import ALL_CARDS, Card, Game, GameConfig, HatType, RandomPolicy, card_from_code
from engine.chance import SeededChance
from engine.config import HAND_SIZE
from engine.setup import Setup

FIVE_TYPES = (HatType.RED, HatType.ORANGE, HatType.YELLOW, HatType.GREEN, HatType.BLUE)


def C(code: str) -> Card:
    """The card with this code, e.g. ``C("red5")``."""
    return card_from_code(code)


def cards(codes: str) -> list[Card]:
    """Cards from space-separated codes: ``cards("red5 blue1")``."""
    return [C(c) for c in codes.split()]


def make_game(
    seats: int,
    board: str | None = None,
    hands: Sequence[str] = (),
    deck: str | None = None,
    start_seat: int = 0,
    seed: int = 0,
    types: Sequence[HatType] | None = None,
) -> Game:
    """A game dealt as chosen: ``board`` codes (slot 1 first), the first cards of each hand,
    the first cards of the deck; every other card is dealt in canonical order to fill the
    rest. Reshuffles come from ``seed``. With 2 seats the types default to the first five.
    """
    config = GameConfig(seats, seed, start_seat)
    if types is None:
        types = FIVE_TYPES if seats == 2 else tuple(HatType)
    in_play = [c for c in ALL_CARDS if c.type in types]
    chosen_board = cards(board) if board else []
    chosen_hands = [cards(h) for h in hands] + [[] for _ in range(seats - len(hands))]
    chosen_deck = cards(deck) if deck else []
    used = chosen_board + [c for h in chosen_hands for c in h] + chosen_deck
    assert len(set(used)) == len(used), "a card is chosen twice"
    assert set(used) <= set(in_play), "a chosen card is not in play"
    rest = iter([c for c in in_play if c not in used])
    full_board = chosen_board + [next(rest) for _ in range(config.slots - len(chosen_board))]
    full_hands = [h + [next(rest) for _ in range(HAND_SIZE - len(h))] for h in chosen_hands]
    full_deck = chosen_deck + list(rest)
    setup = Setup(
        tuple(types),
        tuple(full_board),
        tuple(tuple(sorted(h, key=lambda c: c.id)) for h in full_hands),
        tuple(full_deck),
        start_seat,
    )
    return Game(config, setup, SeededChance(seed))


def random_game(seats: int, seed: int, policy_seed: int = 0) -> Game:
    """A finished game of random legal moves (RandomPolicy, offerer withdrawals included)."""
    game = Game.new(GameConfig(seats, seed))
    for _ in play_steps(game, policy_seed):
        pass
    return game


def random_state(seats: int, seed: int, policy_seed: int, steps: int) -> Game:
    """A game after up to ``steps`` random steps (RandomPolicy, withdrawals included)."""
    game = Game.new(GameConfig(seats, seed))
    policy = RandomPolicy(policy_seed)
    for _ in range(steps):
        if game.is_over:
            break
        step = policy.choose_step(game)
        game.apply(step.seat, step.action)
    return game


def play_steps(game: Game, policy_seed: int) -> Iterator[Game]:
    """Play ``game`` to the end with RandomPolicy, yielding the game after every step."""
    policy = RandomPolicy(policy_seed)
    while not game.is_over:
        step = policy.choose_step(game)
        game.apply(step.seat, step.action)
        yield game


def card_places(game: Game) -> Counter[Card]:
    """How many times each card appears over every place a card can be."""
    places: Counter[Card] = Counter(game.board)
    for seat in range(game.seats):
        places.update(game.hands[seat])
        places.update(game.collections[seat])
        places.update(game.black_hats[seat])
    places.update(game.deck)
    places.update(game.discard_pile)
    return places


def main_actions_taken(game: Game, seat: int) -> int:
    """Exchanges and black hats ``seat`` has made so far (R7, R8)."""
    return sum(1 for s in game.steps if s.seat == seat and s.action.kind.is_main)


def to_active_main_done(game: Game) -> Game:
    """Make the active seat take a black hat with its first card (a main action, R8)."""
    from engine import BlackHat

    seat = game.active
    game.apply(seat, BlackHat(game.hands[seat][0]))
    return game
