"""Issue 36.7: the channel's table shows a change of turn within 2 s.

The edit for an end of turn may wait a little for the next move (one edit shows both), but
never so long that everyone else, spectators included, reads the wrong name: with Discord's
per-channel edit budget on and nobody moving after the end of a turn, the table names the
player to move within 2 s.
"""

from __future__ import annotations

import pytest

from engine import ActionKind
from tests.bot.helpers import act_on_hand, dm_of, message_text, open_and_start

SHOWN_WITHIN = 2.0


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": 5}


def _table_text(world, session) -> str:
    table = session.message("table")
    return message_text(next(m for m in world.channel.history() if m.id == table.message_id))


def _player(world, session, seat):
    return next(p for p in world.players if p.user.id == session.seats[seat].user_id)


async def test_the_table_names_the_next_player_within_two_seconds(world):
    env = world.env
    session = await open_and_start(world, 3)
    game = session.game
    for _ in range(3):  # three ends of turn, each followed by nobody moving for a while
        seat = game.to_move
        player = _player(world, session, seat)
        exchange = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
        await act_on_hand(session, player, dm_of(player).last_message, exchange)
        await env.advance_time(6)  # the exchange is on the table; the edit budget is back
        end = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.END_TURN)
        await act_on_hand(session, player, dm_of(player).last_message, end)
        nxt = session.seats[game.to_move].user_id
        assert f"it's <@{nxt}>'s turn" not in _table_text(world, session)
        await env.advance_time(SHOWN_WITHIN)
        assert f"it's <@{nxt}>'s turn" in _table_text(world, session)
        await env.advance_time(6)
