"""Every frame pushed to every viewer of whole games is audited: nothing hidden leaks (R21).

2-, 3- and 4-seat games (seeds chosen by hypothesis) are played to the end by WebSocket
clients, one per seat, picking moves from their own view's ``legal`` list, while a spectator
watches. For every frame a viewer got, the game is replayed independently to that frame's
step and the cards that viewer may not see are listed from the full state: the other seats'
hands and black hats, the draw deck and the discard pile. None of them may appear in the
frame's card fields; in the event lines, no card the engine hides from that viewer
(``Event.seen_by``) may appear either. Only the final view (``result``, R21) reveals more.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Step
from tests.web.conftest import open_web_world
from texts.common import card_short

CARD_FIELDS = ("board", "hand", "own_black_hats")


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """Card codes ``seat`` (None: a spectator) may not see in ``game`` as it stands."""
    hidden = {c.code for c in game.deck} | {c.code for c in game.discard_pile}
    for other in range(game.seats):
        if other != seat:
            hidden |= {c.code for c in game.hands[other]}
            hidden |= {c.code for c in game.black_hats[other]}
    return hidden


def codes_in(frame: dict) -> set[str]:
    found = set()
    for name in CARD_FIELDS:
        found |= set(frame.get(name) or ())
    for cards in frame["collections"]:
        found |= set(cards)
    for action in frame.get("legal") or ():
        if "card" in action:
            found.add(action["card"])
    found |= set((frame.get("blocked") or {}).keys())
    pending = frame.get("pending_swap")
    if pending and pending.get("card"):
        found.add(pending["card"])
    return found


def audit(frames: list[dict], seat: int | None, steps: list[Step], config) -> int:
    """Check every view frame a viewer got; returns how many were checked."""
    checked = 0
    for frame in frames:
        if frame.get("t") != "view":
            continue
        assert frame["seat"] == seat
        game = Game.replay(config, steps[: frame["step"]])
        full_events = game.events
        if frame["result"] is None:
            leaked = codes_in(frame) & hidden_from(game, seat)
            assert not leaked, f"seat {seat} saw {leaked} at step {frame['step']}"
            if seat is None:
                assert frame["hand"] is None and frame["own_black_hats"] is None
                assert frame["legal"] is None and frame["blocked"] is None
        for line in frame["events"]:
            full = full_events[line["number"]]
            seen = full.seen_by(seat)
            for name in ("card", "took", "drew", "received"):
                secret = getattr(full, name)
                if secret is not None and getattr(seen, name) is None:
                    assert card_short(secret) not in line["text"], (seat, line, name)
        checked += 1
    return checked


async def play_whole_game(world, seats: int, seed: int, place: str = "server") -> None:
    users = [9000 + i for i in range(seats)]
    clients, (spectator,), session = await world.seated_game(
        users, watchers=[(8999, "Watcher")], place=place
    )
    rng = random.Random(seed)
    while not session.game.is_over:
        version = session.version
        for client in [*clients, spectator]:
            await client.view_at(version)
        mover = clients[session.game.to_move]
        view = mover.view
        assert view["to_move"] == view["seat"] == session.game.to_move
        action = rng.choice(view["legal"])
        rid = await mover.request(
            {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": action}
        )
        answer = await mover.answer(rid)
        assert answer["t"] == "ack", answer
    for client in [*clients, spectator]:
        final = await client.view_at(session.version)
        assert final["result"] is not None
    config = session.game.config
    steps = session.game.steps
    checked = sum(audit(c.frames, i, steps, config) for i, c in enumerate(clients))
    checked += audit(spectator.frames, None, steps, config)
    assert checked >= 5 * seats  # every viewer saw the game move, step after step
    for client in [*clients, spectator]:
        await client.ws.close()


@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_no_hidden_card_reaches_a_viewer_who_may_not_see_it(seats, seed):
    async def run() -> None:
        with tempfile.TemporaryDirectory() as where:
            # the test's players move as fast as the machine goes, far above a person's pace:
            # the per-connection rate limit would refuse them (test_socket checks it)
            async with open_web_world(Path(where), rate_per_s=1e6, rate_burst=1e6) as world:
                await play_whole_game(world, seats, seed)

    asyncio.run(run())


@pytest.mark.parametrize("place,seats", [("group_dm", 3), ("dm", 2), ("group_dm", 4)])
@settings(max_examples=2, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_no_hidden_card_leaks_in_a_dm_activity(place, seats, seed):
    """The same audit over games of Activities opened in a DM or group DM (issue 34.6)."""

    async def run() -> None:
        with tempfile.TemporaryDirectory() as where:
            async with open_web_world(Path(where), rate_per_s=1e6, rate_burst=1e6) as world:
                await play_whole_game(world, seats, seed, place)

    asyncio.run(run())


def test_the_audit_catches_a_leaked_card():
    """The audit itself fails on a frame that shows another seat's hand (it can fail)."""
    game = Game.new(__import__("engine").GameConfig(2, 5))
    steps: list[Step] = []
    frame = {
        "t": "view",
        "seat": 0,
        "step": 0,
        "board": [c.code for c in game.board],
        "hand": [c.code for c in game.hands[1]],  # seat 1's hand shown to seat 0
        "own_black_hats": [],
        "collections": [[], []],
        "legal": [],
        "blocked": {},
        "pending_swap": None,
        "events": [],
        "result": None,
    }
    with pytest.raises(AssertionError, match="saw"):
        audit([frame], 0, steps, game.config)
    frame["hand"] = [c.code for c in game.hands[0]]
    assert audit([frame], 0, steps, game.config) == 1
