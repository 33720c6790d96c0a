"""Game records in the ``hats-record/1`` format (see shared/GAME_RECORD.md): export and rebuild."""

from __future__ import annotations

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
from engine.cards import Card, HatType, card_from_code
from engine.chance import ScriptedChance
from engine.config import GameConfig, partner_of
from engine.errors import IllegalMove, RecordMismatch
from engine.game import Game
from engine.setup import Setup

__all__ = ["FORMAT", "from_record", "to_record"]

FORMAT = "hats-record/1"


def to_record(game: Game) -> dict[str, Any]:
    """The ``hats-record/1`` object of a finished game.

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


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(card_from_code(c) for c in codes)


def _actions(turn: dict[str, Any], seats: int) -> list[tuple[int, Action]]:
    """The engine steps that reproduce one recorded turn."""
    seat = int(turn["seat"])
    out: list[tuple[int, Action]] = []
    main = False
    for step in turn["steps"]:
        kind = step["kind"]
        card = card_from_code(step["card"])
        if kind == "exchange":
            out.append((seat, EXCHANGES[card.id][int(step["slot"])]))
            main = True
        elif kind == "black_hat":
            out.append((seat, BLACK_HATS[card.id]))
            main = True
        elif kind == "discard":
            out.append((seat, DISCARDS[card.id]))
        elif kind == "swap":
            partner = partner_of(seat, seats)
            if partner is None or int(step["partner"]) != partner:
                raise RecordMismatch(f"swap with seat {step['partner']} is not a partner swap")
            out.append((seat, OFFERS[card.id]))
            out.append((partner, ANSWERS[card_from_code(step["received"]).id]))
        else:
            raise RecordMismatch(f"unknown step kind {kind!r}")
    if main and len(turn["steps"]) == 1:
        out.append((seat, END_TURN))
    return out


def from_record(record: dict[str, Any]) -> Game:
    """Rebuild a finished game from a ``hats-record/1`` object and check it.

    The deal comes from ``setup`` and reshuffles from the discards' ``reshuffled`` lists, so
    no RNG is needed. Raises RecordMismatch when the format is wrong, a step is illegal, or
    the record's outcomes (taken and drawn cards, swaps, ``end``) differ from the replay.
    """
    if record.get("format") != FORMAT:
        raise RecordMismatch(f"not a {FORMAT} record: format is {record.get('format')!r}")
    seats = int(record["seats"])
    config = GameConfig(seats, int(record["seed"]), int(record["start_seat"]))
    s = record["setup"]
    setup = Setup(
        types=tuple(HatType(t) for t in record["types"]),
        board=_cards(s["board"]),
        hands=tuple(_cards(h) for h in s["hands"]),
        deck=_cards(s["deck"]),
        start_seat=int(record["start_seat"]),
    )
    reshuffles = [
        _cards(step["reshuffled"])
        for turn in record["turns"]
        for step in turn["steps"]
        if step["kind"] == "discard" and step.get("reshuffled")
    ]
    game = Game(config, setup, ScriptedChance(reshuffles))
    try:
        for turn in record["turns"]:
            for seat, action in _actions(turn, seats):
                game.apply(seat, action)
    except (IllegalMove, ValueError) as exc:
        raise RecordMismatch(f"the record does not replay: {exc}") from exc
    if game.record_turns() != record["turns"]:
        raise RecordMismatch("the record's outcomes differ from the replay")
    if game.result is None or game.result.to_record() != record["end"]:
        raise RecordMismatch("the record's end differs from the replay")
    return game
