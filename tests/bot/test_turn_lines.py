"""Issue 36.3: "what just happened" in a hand DM gives each other player's turn one line.

In a 3-player game bruno exchanges and then discards, chiara discards and then makes a black
hat; alice's next hand DM says both turns whole, one line each (main action with its cards and
slot first, then the discard), where three lines of single moves dropped bruno's exchange.
"""

from __future__ import annotations

import pytest

from engine import ActionKind
from tests.bot.helpers import act_on_hand, dm_of, open_and_start, v2_texts
from tests.bot.language_support import set_client_locales
from texts.common import card_short

LOCALES = {"en": "en-US", "de": "de", "es": "es-ES", "fr": "fr", "it": "it"}


def _player(world, session, seat):
    return next(p for p in world.players if p.user.id == session.seats[seat].user_id)


async def _do(world, session, kind):
    game = session.game
    seat = game.to_move
    player = _player(world, session, seat)
    action = next(a for a in game.legal_actions(seat) if a.kind is kind)
    live = session.message("dm", seat).message_id
    message = next(m for m in dm_of(player).history() if m.id == live)
    await act_on_hand(session, player, message, action)
    return game.events[-1] if game.events[-1].kind is kind else game.events[-2]


async def _end_if_needed(world, session, seat):
    if session.game.to_move == seat:
        await _do(world, session, ActionKind.END_TURN)


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_each_other_turn_is_one_whole_line(world, monkeypatch, lang):
    env = world.env
    set_client_locales(monkeypatch, {p.user.id: LOCALES[lang] for p in world.players})
    tr = env.bot.translator.for_locale(LOCALES[lang])
    session = await open_and_start(world, 3)
    game = session.game
    alice = game.to_move
    await _do(world, session, ActionKind.EXCHANGE)
    await _end_if_needed(world, session, alice)
    bruno = game.to_move
    exchange = await _do(world, session, ActionKind.EXCHANGE)
    await _do(world, session, ActionKind.DISCARD)
    await _end_if_needed(world, session, bruno)
    chiara = game.to_move
    await _do(world, session, ActionKind.DISCARD)
    await _do(world, session, ActionKind.BLACK_HAT)
    await _end_if_needed(world, session, chiara)
    assert game.to_move == alice and game.round == 2
    me = _player(world, session, alice)
    text = "\n".join(v2_texts(dm_of(me).last_message))
    name = {s: env.bot.names[session.seats[s].user_id] for s in (bruno, chiara)}
    lines = [line for line in text.splitlines() if name[bruno] in line or name[chiara] in line]
    lines = [line for line in lines if not line.startswith("**")]  # not the head
    assert len(lines) == 2, text  # one line per other player's turn
    first, second = lines
    assert name[bruno] in first and name[chiara] in second
    took = tr(
        "{card} on slot {slot}, took {took}",
        card=card_short(exchange.card),
        slot=exchange.slot,
        took=card_short(exchange.took),
    )
    discarded = tr("discarded and drew")
    assert took in first and discarded in first  # the exchange first, then the discard
    assert first.index(took) < first.index(discarded)
    black_hat = tr("made a black hat")
    assert black_hat in second and discarded in second
    assert second.index(black_hat) < second.index(discarded)  # the main action first
