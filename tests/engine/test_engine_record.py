"""hats-record/1 (GAME_RECORD.md): every field, the turns' steps (R7–R11, R14), and
from_record's checks."""

import copy
import json

import pytest
from engine_testkit import C, random_game

from engine import (
    BlackHat,
    DeclineSwap,
    EndTurn,
    Exchange,
    Game,
    GameConfig,
    OfferSwap,
    RecordMismatch,
    WithdrawSwap,
    from_record,
    to_record,
)


@pytest.fixture(scope="module")
def records():
    """One finished random game per seat count, with reshuffles (2, 3) and swaps (4)."""
    out = {}
    for seats in (2, 3, 4):
        for seed in range(50):
            record = to_record(random_game(seats, seed, policy_seed=seed))
            steps = [s for t in record["turns"] for s in t["steps"]]
            if seats == 4 and any(s["kind"] == "swap" for s in steps):
                break
            if seats < 4 and any(s["kind"] == "discard" and s["reshuffled"] for s in steps):
                break
        out[seats] = record
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r3_r14_record_fields_follow_the_format(records, seats):
    record = records[seats]
    assert list(record) == [
        "format", "seed", "seats", "teams", "types", "start_seat", "setup", "turns", "end"
    ]  # fmt: skip
    assert record["format"] == "hats-record/1" and record["seats"] == seats
    assert record["teams"] == ([[0, 2], [1, 3]] if seats == 4 else None)
    assert len(record["types"]) == (5 if seats == 2 else 7)
    assert list(record["setup"]) == ["board", "hands", "deck"]
    assert len(record["setup"]["board"]) == (5 if seats == 2 else 6)
    assert [len(h) for h in record["setup"]["hands"]] == [9] * seats
    assert len(record["setup"]["deck"]) == {2: 7, 3: 9, 4: 0}[seats]
    assert len(record["turns"]) == 8 * seats
    assert [t["seat"] for t in record["turns"]] == [
        (record["start_seat"] + i) % seats for i in range(8 * seats)
    ]
    for turn in record["turns"]:
        assert list(turn) == ["seat", "steps"]
        kinds = [s["kind"] for s in turn["steps"]]
        assert sum(k in ("exchange", "black_hat") for k in kinds) == 1  # one main step (R11)
        assert sum(k in ("discard", "swap") for k in kinds) <= 1
        for step in turn["steps"]:
            assert (
                list(step)
                == {
                    "exchange": ["kind", "card", "slot", "took"],
                    "black_hat": ["kind", "card"],
                    "discard": ["kind", "card", "drew", "reshuffled"],
                    "swap": ["kind", "card", "partner", "received"],
                }[step["kind"]]
            )
    end = record["end"]
    assert end["winners"] == sorted(end["winners"])
    assert (end["team_totals"] is None) == (seats != 4)
    assert len(end["favorites"]) == len(end["scores"]) == seats
    json.dumps(record)  # JSON-ready


def test_r10_declined_and_withdrawn_offers_are_not_record_steps():
    game = Game.new(GameConfig(4, 3))
    seat = game.active
    partner = (seat + 2) % 4
    game.apply(seat, OfferSwap(game.hands[seat][0]))
    game.apply(partner, DeclineSwap())
    game.apply(seat, OfferSwap(game.hands[seat][1]))
    game.apply(seat, WithdrawSwap())
    game.apply(seat, BlackHat(game.hands[seat][2]))
    game.apply(seat, EndTurn())
    assert len(game.steps) == 6
    assert game.record_turns() == [
        {"seat": seat, "steps": [{"kind": "black_hat", "card": game.black_hats[seat][0].code}]}
    ]


def test_r11_record_keeps_the_optional_before_or_after_the_main_step():
    from engine import Discard

    game = Game.new(GameConfig(3, 8, start_seat=0))
    game.apply(0, Discard(game.hands[0][0]))
    game.apply(0, BlackHat(game.hands[0][0]))
    game.apply(1, BlackHat(game.hands[1][0]))
    game.apply(1, Discard(game.hands[1][0]))
    kinds = [[s["kind"] for s in t["steps"]] for t in game.record_turns()]
    assert kinds == [["discard", "black_hat"], ["black_hat", "discard"]]


def test_r14_to_record_needs_a_finished_game():
    with pytest.raises(ValueError):
        to_record(Game.new(GameConfig(3, 1)))


def _first(record, kind):
    for turn in record["turns"]:
        for step in turn["steps"]:
            if step["kind"] == kind:
                return step
    raise AssertionError(kind)


def _other_card(record, step):
    return next(c for c in record["setup"]["board"] if c != step["took"])


TAMPERS = {
    "format": lambda r: r.update(format="hats-record/2"),
    "not_a_dict": lambda r: None,
    "missing_end": lambda r: r.pop("end"),
    "seats_out_of_range": lambda r: r.update(seats=5),
    "seats_as_text": lambda r: r.update(seats=str(r["seats"])),
    "start_seat": lambda r: r.update(start_seat=(r["start_seat"] + 1) % r["seats"]),
    "teams": lambda r: r.update(teams=[[0, 1], [2, 3]] if r["seats"] == 4 else [[0, 1]]),
    "types_order": lambda r: r["types"].reverse(),
    "types_count": lambda r: r["types"].pop(),
    "board_short": lambda r: r["setup"]["board"].pop(),
    "duplicate_card": lambda r: r["setup"]["hands"][0].__setitem__(0, r["setup"]["board"][0]),
    "unknown_card": lambda r: r["setup"]["hands"][0].__setitem__(0, "pink3"),
    "hand_count": lambda r: r["setup"]["hands"].pop(),
    "turn_missing": lambda r: r["turns"].pop(),
    "turn_extra": lambda r: r["turns"].append(r["turns"][-1]),
    "turn_seat": lambda r: r["turns"][0].update(seat=(r["turns"][0]["seat"] + 1) % r["seats"]),
    "two_mains": lambda r: r["turns"][0]["steps"].append(dict(r["turns"][0]["steps"][0])),
    "no_main": lambda r: r["turns"][0].update(steps=[]),
    "unknown_kind": lambda r: r["turns"][0]["steps"][0].update(kind="teleport"),
    "took": lambda r: _first(r, "exchange").update(took=_other_card(r, _first(r, "exchange"))),
    "slot": lambda r: _first(r, "exchange").update(slot=-1),
    "slot_seven": lambda r: _first(r, "exchange").update(slot=7),
    "black_hat_card": lambda r: _first(r, "black_hat").update(card="purple9"),
    "favorites": lambda r: r["end"]["favorites"].reverse(),
    "cookie": lambda r: r["end"].update(cookie=None if r["end"]["cookie"] is not None else 0),
    "score": lambda r: r["end"]["scores"][0].update(total=r["end"]["scores"][0]["total"] + 1),
    "winners": lambda r: r["end"].update(winners=[s for s in range(r["seats"])][::-1]),
    "face_up_slots": lambda r: r["end"].update(face_up_slots=[1]),
}  # fmt: skip
TAMPERS_2_3 = {
    "drew": lambda r: _first(r, "discard").update(drew=_first(r, "discard")["card"]),
    "reshuffle_order": lambda r: _reshuffle(r).reverse(),
    "reshuffle_cards": lambda r: _reshuffle(r).__setitem__(0, r["setup"]["board"][0]),
    "reshuffle_missing": lambda r: _reshuffle_step(r).update(reshuffled=None),
    "reshuffle_invented": lambda r: next(
        s for t in r["turns"] for s in t["steps"] if s["kind"] == "discard" and not s["reshuffled"]
    ).update(reshuffled=[]),
}  # fmt: skip
TAMPERS_4 = {
    "received": lambda r: _first(r, "swap").update(received=_first(r, "swap")["card"]),
    "swap_partner": lambda r: _first(r, "swap").update(partner=_first(r, "swap")["partner"] ^ 1),
    "swap_card": lambda r: _first(r, "swap").update(card=_first(r, "swap")["received"]),
}  # fmt: skip


def _reshuffle_step(record):
    return next(s for t in record["turns"] for s in t["steps"] if s.get("reshuffled"))


def _reshuffle(record):
    return _reshuffle_step(record)["reshuffled"]


@pytest.mark.parametrize(
    ("seats", "name"),
    [(s, n) for s in (2, 3, 4) for n in TAMPERS]
    + [(s, n) for s in (2, 3) for n in TAMPERS_2_3]
    + [(4, n) for n in TAMPERS_4],
)
def test_r3_r21_from_record_rejects_a_tampered_record(records, seats, name):
    """R3–R21: malformed or inconsistent records raise RecordMismatch (a ValueError)."""
    record = copy.deepcopy(records[seats])
    assert from_record(copy.deepcopy(record)).result is not None
    if name == "not_a_dict":
        record = [record]
    else:
        {**TAMPERS, **TAMPERS_2_3, **TAMPERS_4}[name](record)
    with pytest.raises(RecordMismatch):
        from_record(record)


def test_r14_from_record_ignores_extra_fields(records):
    record = copy.deepcopy(records[3])
    record["note"] = "from a tournament"
    record["turns"][0]["steps"][0]["comment"] = "bold"
    record["turns"][0]["thinking_ms"] = 1200
    record["end"]["scores"][0]["rank"] = 1
    record["end"]["duration_s"] = 300
    assert from_record(record).snapshot() == from_record(records[3]).snapshot()


def test_r7_record_exchange_steps_match_the_game(records):
    game = from_record(copy.deepcopy(records[3]))
    exchanges = [s for s in game.steps if isinstance(s.action, Exchange)]
    recorded = [s for t in records[3]["turns"] for s in t["steps"] if s["kind"] == "exchange"]
    assert [(s.action.card.code, s.action.slot) for s in exchanges] == [
        (s["card"], s["slot"]) for s in recorded
    ]
    assert C(recorded[0]["took"]) in game.collections[exchanges[0].seat]
