"""Issue 36.4: every stale control gets the same out-of-date answer.

A double tap delivers the second tap with the message as it was when tapped (simcord is shown
that stale copy, as in tests/bot/test_double_tap.py). The first tap played; the second does
nothing and is answered privately "That button was out of date…", whatever the control: a
black hat, an exchange, a card select, an end of turn.
"""

from __future__ import annotations

import copy

import pytest
import simcord.actors

from cogs.controls import action_custom_id, card_select_custom_id
from engine import ActionKind
from tests.bot.helpers import act_on_hand, dm_of, open_and_start, text_of, v2_texts

OUT_OF_DATE = "That button was out of date"


def _live_dm(session, world, seat):
    player = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    live = session.message("dm", seat).message_id
    return player, next(m for m in dm_of(player).history() if m.id == live)


def _snapshot(env, message):
    return copy.deepcopy(env.backend.get_message(message.channel.id, message.id))


async def _tap_stale(monkeypatch, player, message, stale, **kwargs):
    real = simcord.actors._visible_message
    monkeypatch.setattr(
        simcord.actors,
        "_visible_message",
        lambda actor, m: stale if m.id == message.id else real(actor, m),
    )
    try:
        if "values" in kwargs:
            return await player.user.select(message, kwargs["values"], custom_id=kwargs["cid"])
        return await player.user.click(message, custom_id=kwargs["cid"])
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("kind", [ActionKind.BLACK_HAT, ActionKind.EXCHANGE])
async def test_a_double_tapped_main_action_says_out_of_date(world, monkeypatch, kind):
    env = world.env
    session = await open_and_start(world, 3)
    game = session.game
    seat = game.to_move
    player, message = _live_dm(session, world, seat)
    action = next(a for a in game.legal_actions(seat) if a.kind is kind)
    await player.user.select(
        message, [action.card.code], custom_id=card_select_custom_id(session.id, session.version)
    )
    player, message = _live_dm(session, world, seat)
    stale = _snapshot(env, message)  # the card's actions drawn: the tap to come, twice
    cid = action_custom_id(session.id, session.version, action)
    await player.user.click(message, custom_id=cid)
    version = session.version
    player, message = _live_dm(session, world, seat)
    shown = list(v2_texts(message))
    second = await _tap_stale(monkeypatch, player, message, stale, cid=cid)
    assert session.version == version  # nothing played twice
    assert second.ephemeral, "a private answer, not a redrawn hand"
    assert OUT_OF_DATE in text_of(second.response.message)
    assert not second.response.message.attachments  # no fresh hand (nor its picture)
    after = next(m for m in dm_of(player).history() if m.id == message.id)
    assert list(v2_texts(after)) == shown  # the hand DM stays as the first tap drew it


async def test_a_stale_card_select_says_out_of_date(world, monkeypatch):
    env = world.env
    session = await open_and_start(world, 3)
    game = session.game
    seat = game.to_move
    player, message = _live_dm(session, world, seat)
    stale = _snapshot(env, message)
    select_id = card_select_custom_id(session.id, session.version)
    exchange = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
    await act_on_hand(session, player, message, exchange)
    player, message = _live_dm(session, world, seat)
    shown = list(v2_texts(message))
    card = game.hands[seat][0]
    second = await _tap_stale(
        monkeypatch, player, message, stale, cid=select_id, values=[card.code]
    )
    assert second.ephemeral
    assert OUT_OF_DATE in text_of(second.response.message)
    after = next(m for m in dm_of(player).history() if m.id == message.id)
    assert list(v2_texts(after)) == shown
