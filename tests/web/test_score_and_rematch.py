"""The running score in every view, the end's breakdown, and the rematch that moves everyone
(issue 35.1, 35.2).

Whole games are played over the WebSocket (the players' ``act`` frames, seeded choices); every
``view`` a player or a spectator gets is checked against the engine rebuilt by replaying the
steps to that frame's step: the running score is the rules' (R15-R18 on the board of that
moment, ``engine.scoring.provisional_scores``), the end's breakdown adds up to each total.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.scoring import provisional_scores
from tests.web.conftest import open_web_world


async def _play_to_the_end(world, users: list[int], seed: int):
    clients, (spectator,), session = await world.seated_game(
        users, name="Player {i}", watchers=[(8999, "Watcher")]
    )
    rng = random.Random(seed)
    while not session.game.is_over:
        version = session.version
        for client in [*clients, spectator]:
            await client.view_at(version)
        mover = clients[session.game.to_move]
        view = mover.view
        action = rng.choice(view["legal"])
        rid = await mover.request(
            {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": action}
        )
        assert (await mover.answer(rid))["t"] == "ack"
    for client in [*clients, spectator]:
        assert (await client.view_at(session.version))["result"] is not None
    return session, clients, spectator


def _check_scores(frames, session) -> int:
    """Every view's ``scores`` against the engine at that step; returns the views checked."""
    config = session.game.config
    steps = session.game.steps
    checked = 0
    for frame in frames:
        if frame.get("t") != "view":
            continue
        game = Game.replay(config, steps[: frame["step"]])
        if game.result is None:
            obs = game.observation(None)
            expected = provisional_scores(
                obs.board, obs.collections, obs.black_hat_counts, obs.cookie
            )
            assert frame["scores"] == list(expected), frame["step"]
        else:
            totals = [s.total for s in game.result.scores]
            assert frame["scores"] == totals
            parts = frame["result"]["breakdown"]
            for seat, (part, score) in enumerate(zip(parts, game.result.scores, strict=True)):
                assert part["total"] == score.total
                assert (
                    part["collection"] + part["black_hats"] + part["favourite"] + part["cookie"]
                    == score.total
                ), seat
                assert part["black_hats"] == len(game.result.black_hats[seat])
            assert frame["result"]["tie_break"] == game.result.tie_break.value
        checked += 1
    return checked


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_the_running_score_is_the_rules_score_for_every_seat_at_every_step(seats, seed):
    async def run() -> None:
        with tempfile.TemporaryDirectory() as where:
            async with open_web_world(Path(where), rate_per_s=1e6, rate_burst=1e6) as world:
                users = [9100 + i for i in range(seats)]
                session, clients, spectator = await _play_to_the_end(world, users, seed)
                checked = sum(_check_scores(c.frames, session) for c in [*clients, spectator])
                assert checked >= 8 * seats * (len(clients) + 1)
                for client in [*clients, spectator]:
                    await client.ws.close()

    asyncio.run(run())


async def test_a_rematch_takes_every_player_and_spectator_of_the_game_to_the_new_lobby(
    tmp_path,
):
    async with open_web_world(tmp_path, rate_per_s=1e6, rate_burst=1e6) as world:
        session, (ana, ben), watcher = await _play_to_the_end(world, [9201, 9202], 3)
        game_id = str(session.id)
        rid = await ana.request({"t": "rematch", "game_id": game_id})
        for client in (ana, ben, watcher):
            frame = await client.until(lambda f: f["t"] == "lobby" and f["lobby"] is not None)
            seated = {s["user_id"] for s in frame["lobby"]["seats"]}
            assert seated == {"9201", "9202"}, frame
        assert (await ana.answer(rid))["t"] == "ack"
        # a second rematch of the same game is refused with words the end screen shows
        rid = await ben.request({"t": "rematch", "game_id": game_id})
        answer = await ben.answer(rid)
        assert answer["t"] == "error" and answer["message"], answer


async def test_the_turn_ends_by_itself_when_nothing_optional_is_left(tmp_path):
    """R11 (issue 35.11): discard first, then the main action: no End turn tap is needed."""
    async with open_web_world(tmp_path, rate_per_s=1e6, rate_burst=1e6) as world:
        users = [9301, 9302, 9303]
        clients, _, session = await world.seated_game(users)
        seat = session.game.to_move
        mover = clients[seat]
        view = await mover.view_at(0)
        assert view["auto_end"] is False
        discard = next(a for a in view["legal"] if a["kind"] == "discard")
        act = {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": discard}
        assert (await mover.answer(await mover.request(act)))["t"] == "ack"
        view = await mover.view_at(1)
        assert view["optional_used"] and not view["main_done"]
        main = next(a for a in view["legal"] if a["kind"] in ("exchange", "black_hat"))
        act = {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": main}
        assert (await mover.answer(await mover.request(act)))["t"] == "ack"
        view = await mover.view_at(2)  # the main action ended the turn (R11)
        assert view["active_seat"] == (seat + 1) % 3
        assert view["legal"] == []
