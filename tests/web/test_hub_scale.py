"""What the hub keeps per connected client between steps (issue 37: thousands of clients).

An idle client (every frame sent) holds no writer task, so nothing is created again after
each frame that would live until the game's next step and age into the garbage collector's
oldest generation; the next frame starts a writer that ends once the queue is empty.
"""

from __future__ import annotations

import asyncio
import random
import types


async def test_an_idle_client_holds_no_writer_task(web_world):
    world = web_world
    users = [7300, 7301, 7302]
    clients, _, session = await world.seated_game(users)
    rng = random.Random(5)
    hub = world.server.hub
    tasks_before = len(asyncio.all_tasks())
    for _ in range(12):
        seat = session.game.to_move
        action = rng.choice(session.game.legal_actions(seat))
        await world.games.play(session, seat, action, version=session.version)
        for client in clients:
            view = await client.view_at(session.version)
            assert view["step"] == session.version
        viewers = list(hub.by_game[session.id])
        assert len(viewers) == 3
        assert all(v.writer is None for v in viewers), "an idle client kept its writer task"
    assert len(asyncio.all_tasks()) <= tasks_before
    # a frame still goes out after the writer ended, and in order
    for client in clients:
        rid = await client.request({"t": "auto_end", "game_id": str(session.id), "on": True})
        assert (await client.answer(rid))["t"] in ("ack", "error")


class _StuckSocket:
    """A WebSocket whose peer never reads: a frame never finishes leaving."""

    def __init__(self) -> None:
        self.closed_with: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def send_frame(self, data: bytes, opcode: object) -> None:
        await asyncio.get_running_loop().create_future()  # never done

    async def close(self, *, code: int, message: bytes) -> None:
        if not self.closed_with.done():
            self.closed_with.set_result(code)


async def test_a_client_whose_frame_never_leaves_is_dropped(monkeypatch):
    """No timer per frame: the hub's one watchdog drops a client stuck sending (4008)."""
    from web import hub as hub_module

    monkeypatch.setattr(hub_module, "SEND_TIMEOUT_S", 0.05)
    hub = hub_module.Hub(games=None, translator=None, names={})  # type: ignore[arg-type]
    ws = _StuckSocket()
    user = types.SimpleNamespace(user_id=7400)  # all a viewer reads of its session's user
    viewer = hub_module.Viewer(ws, user, tr=None, session_token="t")  # type: ignore[arg-type]
    hub.add(viewer)
    assert viewer.send(b'{"t":"view"}')
    code = await asyncio.wait_for(ws.closed_with, timeout=5.0)
    assert code == hub_module.CLOSE_TOO_SLOW and viewer.closed
    await viewer.stop()
    await hub.close()
