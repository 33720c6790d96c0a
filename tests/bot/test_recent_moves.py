"""What just happened shows moves, not ends of turn (issue 29 point 11), under simcord.

Three players each make an exchange and press End turn. The table's three lines of what just
happened are then the three exchanges, and the next player's hand DM names the two others'
exchanges: no line is spent on "… ended their turn" while the move it ended is pushed out.
"""

from __future__ import annotations

from engine import ActionKind
from tests.bot.helpers import act_on_hand, custom_ids, dm_of, open_and_start, v2_texts
from texts.table import RECENT_LINES as TABLE_LINES


def _player(world, session, seat):
    return next(p for p in world.players if p.user.id == session.seats[seat].user_id)


def _hand_dm(session, player):
    marker = f"hats:hs:{session.id}:"
    return next(m for m in reversed(list(dm_of(player).history())) if marker in str(custom_ids(m)))


async def _main_then_end_turn(world, session) -> str:
    """The player to move makes a main action, then presses End turn; the move's words."""
    game = session.game
    seat = game.to_move
    player = _player(world, session, seat)
    legal = game.legal_actions(seat)
    action = next(
        (a for a in legal if a.kind is ActionKind.EXCHANGE),
        next(a for a in legal if a.kind is ActionKind.BLACK_HAT),
    )
    await act_on_hand(session, player, _hand_dm(session, player), action)
    assert game.to_move == seat, "the turn goes on until End turn"
    end = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.END_TURN)
    await act_on_hand(session, player, _hand_dm(session, player), end)
    assert game.to_move != seat
    moved = game.events[-2]
    assert moved.kind in (ActionKind.EXCHANGE, ActionKind.BLACK_HAT)
    return moved


def _recent_lines(message) -> list[str]:
    return [
        line.removeprefix("-# ")
        for text in v2_texts(message)
        for line in text.splitlines()
        if line.startswith("-# ")
    ]


async def test_what_just_happened_shows_the_moves_not_the_ends_of_turn(world):
    env = world.env
    session = await open_and_start(world, 3)
    moves = [await _main_then_end_turn(world, session) for _ in range(3)]
    table_id = session.message("table").message_id
    table = next(m for m in world.channel.history() if m.id == table_id)
    lines = _recent_lines(table)
    assert not [line for line in lines if "ended their turn" in line], lines
    # the table's lines are its last moves (the newest last), each with its mover and slot
    shown = moves[-TABLE_LINES:]
    assert len(lines) == len(shown) == TABLE_LINES, lines
    for move, line in zip(shown, lines, strict=True):
        user_id = session.seats[move.seat].user_id
        assert f"<@{user_id}>" in line or env.bot.names[user_id] in line  # a mention or a name
        if move.kind is ActionKind.EXCHANGE:
            assert f"on slot {move.slot}" in line
    # the next player's new hand DM: the two others' moves since their own turn
    nxt = _player(world, session, session.game.to_move)
    texts = "\n".join(v2_texts(_hand_dm(session, nxt)))
    assert "ended their turn" not in texts
    others = [m for m in moves if m.seat != session.game.to_move]
    assert len(others) == 2
    for move in others:
        if move.kind is ActionKind.EXCHANGE:
            assert f"on slot {move.slot}, took" in texts  # one line per turn (issue 36.3)
    names = [env.bot.names[session.seats[m.seat].user_id] for m in others]
    assert all(name in texts for name in names), texts
