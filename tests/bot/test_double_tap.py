"""Issue 29.5: a double-tapped hand button answers "That button was out of date…" with no
ERROR, and no edit references an attachment it neither sends nor keeps, under simcord.

Discord delivers the second tap with the message as it was when it was tapped: controls and
picture, though the first tap's answer has collapsed the DM to one line and removed the
picture. simcord is shown that stale copy for the second tap (its message lookup is pointed
at a snapshot taken before the first tap); the bot's edits still go to the real message.
"""

from __future__ import annotations

import copy
import logging

import simcord.actors

from cogs.controls import action_custom_id
from engine import ActionKind
from tests.bot.helpers import act_on_hand, dm_of, open_and_start, text_of, v2_texts


def _live_dm(session, world, seat):
    player = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    live = session.message("dm", seat).message_id
    return player, next(m for m in dm_of(player).history() if m.id == live)


async def test_a_double_tapped_end_turn_says_out_of_date_without_an_error(
    world, monkeypatch, caplog
):
    env = world.env
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player, message = _live_dm(session, world, seat)
    black_hat = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(session, player, message, black_hat)
    player, message = _live_dm(session, world, seat)
    assert [a.filename for a in message.attachments] == ["hand.png"]
    stale = copy.deepcopy(env.backend.get_message(message.channel.id, message.id))
    end_turn = action_custom_id(session.id, session.version, game.legal_actions(seat)[-1])
    assert end_turn.endswith(":e")
    caplog.set_level(logging.WARNING)
    await player.user.click(message, custom_id=end_turn)
    collapsed = env.backend.get_message(message.channel.id, message.id)
    assert not collapsed.attachments  # the first tap ended the turn: one line, no picture
    lines = list(v2_texts(next(m for m in dm_of(player).history() if m.id == message.id)))
    version = session.version
    real = simcord.actors._visible_message
    monkeypatch.setattr(
        simcord.actors,
        "_visible_message",
        lambda actor, m: stale if m.id == message.id else real(actor, m),
    )
    second = await player.user.click(message, custom_id=end_turn)
    monkeypatch.undo()
    assert second.response is not None
    assert "That button was out of date" in text_of(second.response.message)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert session.version == version  # nothing played twice
    after = next(m for m in dm_of(player).history() if m.id == message.id)
    assert list(v2_texts(after)) == lines and not after.attachments  # the line stays


def _references(value) -> bool:
    return "attachment://" in str(value)


async def test_every_edit_that_shows_a_picture_sends_or_keeps_it(world):
    """Across a game's clicks: an edit naming ``attachment://…`` also says which attachments
    it sends or keeps (never leaves that to the message's copy the click came with)."""
    import random

    from tests.bot.helpers import play_one

    session = await open_and_start(world, 3)
    rng = random.Random(2)
    for _ in range(12):
        await play_one(world, session, rng)
    checked = 0
    for request in world.env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        if request.path.endswith("/callback") and body.get("type") == 7:
            data = body.get("data") or {}
            if _references(data.get("components")):
                assert "attachments" in data, data
                checked += 1
    assert checked
