"""Game records in the ``hats-record/1`` format (see docs/GAME_RECORD.md): export and rebuild."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
    Action,
)
from engine.cards import ALL_CARDS, Card, HatType, card_from_code
from engine.chance import ScriptedChance
from engine.config import HAND_SIZE, TURNS_PER_SEAT, GameConfig, partner_of, teams_for
from engine.errors import IllegalMove, RecordMismatch
from engine.game import Game
from engine.setup import Setup

__all__ = ["FORMAT", "from_record", "to_record"]

FORMAT = "hats-record/1"
_MAIN_KINDS = ("exchange", "black_hat")
_OPTIONAL_KINDS = ("discard", "swap")
_MISSING = object()


def to_record(game: Game) -> dict[str, Any]:
    """The ``hats-record/1`` object of a finished game (fields in the documented order).

    Raises ValueError when the game is not over (a record describes a whole game).
    """
    if game.result is None:
        raise ValueError("only a finished game can be written as a record")
    setup = game.setup
    return {
        "format": FORMAT,
        "seed": game.config.seed,
        "seats": game.seats,
        "teams": [list(t) for t in game.teams] if game.teams else None,
        "types": [t.value for t in setup.types],
        "start_seat": setup.start_seat,
        "setup": {
            "board": [c.code for c in setup.board],
            "hands": [[c.code for c in h] for h in setup.hands],
            "deck": [c.code for c in setup.deck],
        },
        "turns": game.record_turns(),
        "end": game.result.to_record(),
    }


def from_record(record: dict[str, Any]) -> Game:
    """Rebuild a finished game from a ``hats-record/1`` object and check it.

    The deal comes from ``setup`` and reshuffles from the discards' ``reshuffled`` lists, so
    no RNG is needed (the seed is kept in the config as written, not checked against the
    deal). Extra fields anywhere are ignored. Raises RecordMismatch (a ValueError) when the
    record is malformed (wrong format, missing or mistyped fields, a deal that is not the
    cards of its types, teams or types that do not fit the seats), a turn is not one main
    step plus at most one optional step by the seat whose turn it is, a step is illegal,
    or the stated outcomes (taken, drawn and received cards, reshuffles, ``end``) differ
    from the replay.
    """
    try:
        return _rebuild(record)
    except RecordMismatch:
        raise
    except IllegalMove as exc:
        raise RecordMismatch(f"the record does not replay: {exc}") from exc
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise RecordMismatch(f"malformed {FORMAT} record: {exc!r}") from exc


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordMismatch(f"{what} must be an integer, got {value!r}")
    return value


def _cards(codes: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise RecordMismatch(f"{what} must be a list of cards")
    return tuple(card_from_code(c) for c in codes)


def _read_setup(record: dict[str, Any], config: GameConfig, start_seat: int) -> Setup:
    """The deal of the record, checked against R3 and R4."""
    seats = config.seats
    types_raw = record["types"]
    if not isinstance(types_raw, list):
        raise RecordMismatch("types must be a list")
    types = tuple(HatType(t) for t in types_raw)
    expected_count = 5 if seats == 2 else len(HatType)
    if len(types) != expected_count or list(types) != sorted(set(types), key=lambda t: t.index):
        raise RecordMismatch(f"types must be {expected_count} distinct types in canonical order")
    teams = teams_for(seats)
    if record["teams"] != ([list(t) for t in teams] if teams else None):
        raise RecordMismatch(f"teams {record['teams']!r} do not fit {seats} seats (R5)")
    s = record["setup"]
    board = _cards(s["board"], "setup.board")
    hands_raw = s["hands"]
    if not isinstance(hands_raw, list) or len(hands_raw) != seats:
        raise RecordMismatch(f"setup.hands must hold one hand per seat ({seats})")
    hands = tuple(_cards(h, "a hand") for h in hands_raw)
    deck = _cards(s["deck"], "setup.deck")
    if len(board) != config.slots:
        raise RecordMismatch(f"setup.board must fill {config.slots} slots (R3)")
    if any(len(h) != HAND_SIZE for h in hands):
        raise RecordMismatch(f"every hand must hold {HAND_SIZE} cards (R4)")
    dealt = Counter([*board, *(c for h in hands for c in h), *deck])
    in_play = {c for c in ALL_CARDS if c.type in types}
    if set(dealt) != in_play or any(n != 1 for n in dealt.values()):
        raise RecordMismatch("the deal must hold every card of the types in play once (R3, R4)")
    return Setup(types, board, hands, deck, start_seat)


def _turn_actions(turn: Any, seats: int, slots: int) -> tuple[int, list[tuple[int, Action]]]:
    """The seat and the engine steps that reproduce one recorded turn (R7–R11)."""
    seat = _int(turn["seat"], "a turn's seat")
    steps = turn["steps"]
    if not isinstance(steps, list):
        raise RecordMismatch("a turn's steps must be a list")
    kinds = [step["kind"] for step in steps]
    mains = sum(k in _MAIN_KINDS for k in kinds)
    optionals = sum(k in _OPTIONAL_KINDS for k in kinds)
    if mains != 1 or optionals > 1 or mains + optionals != len(kinds):
        raise RecordMismatch(
            f"a turn must be one main step and at most one optional step, got {kinds} (R11)"
        )
    out: list[tuple[int, Action]] = []
    for step in steps:
        kind = step["kind"]
        card = card_from_code(step["card"])
        if kind == "exchange":
            slot = _int(step["slot"], "an exchange's slot")
            if not 1 <= slot <= slots:
                raise RecordMismatch(f"slot {slot} is not on the board (R2, R3)")
            out.append((seat, EXCHANGES[card.id][slot]))
        elif kind == "black_hat":
            out.append((seat, BLACK_HATS[card.id]))
        elif kind == "discard":
            out.append((seat, DISCARDS[card.id]))
        else:  # swap
            partner = partner_of(seat, seats)
            if partner is None or step["partner"] != partner:
                raise RecordMismatch(f"swap with seat {step['partner']!r} is not a partner swap")
            out.append((seat, OFFERS[card.id]))
            out.append((partner, ANSWERS[card_from_code(step["received"]).id]))
    if len(steps) == 1:
        out.append((seat, END_TURN))
    return seat, out


def _same(stated: Any, replayed: Any) -> bool:
    """True when ``stated`` has every field of ``replayed`` with the same value (extras ok)."""
    if isinstance(replayed, dict):
        return isinstance(stated, dict) and all(
            _same(stated.get(k, _MISSING), v) for k, v in replayed.items()
        )
    if isinstance(replayed, list):
        return (
            isinstance(stated, list)
            and len(stated) == len(replayed)
            and all(_same(a, b) for a, b in zip(stated, replayed, strict=True))
        )
    return type(stated) is type(replayed) and stated == replayed


def _rebuild(record: dict[str, Any]) -> Game:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        got = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise RecordMismatch(f"not a {FORMAT} record: format is {got!r}")
    seats = _int(record["seats"], "seats")
    start_seat = _int(record["start_seat"], "start_seat")
    config = GameConfig(seats, _int(record["seed"], "seed"), start_seat)
    setup = _read_setup(record, config, start_seat)
    turns = record["turns"]
    if not isinstance(turns, list) or len(turns) != TURNS_PER_SEAT * seats:
        raise RecordMismatch(f"a finished game has {TURNS_PER_SEAT * seats} turns (R14)")
    reshuffles = [
        _cards(step["reshuffled"], "a reshuffle")
        for turn in turns
        for step in turn["steps"]
        if step["kind"] == "discard" and step.get("reshuffled") is not None
    ]
    game = Game(config, setup, ScriptedChance(reshuffles))
    for number, turn in enumerate(turns):
        seat, actions = _turn_actions(turn, seats, config.slots)
        if seat != game.active:
            raise RecordMismatch(f"turn {number} is seat {seat}'s, but seat {game.active} plays")
        for actor, action in actions:
            game.apply(actor, action)
    if not _same(turns, game.record_turns()):
        raise RecordMismatch("the record's outcomes (took, drew, reshuffled, received) differ")
    if game.result is None or not _same(record["end"], game.result.to_record()):
        raise RecordMismatch("the record's end differs from the replay")
    return game
