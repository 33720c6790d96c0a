"""The turn in two clicks: refused choices shown disabled with the reason, the turn ending by
itself (preference stored across a restart), one live hand DM, slash players pinged in one line."""

from __future__ import annotations

import random

from cogs.render.common import card_short
from engine import ActionKind
from tests.bot.helpers import act_on_hand, custom_ids, dm_of, open_and_start, play_one, session_of


def player_at(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def buttons(message):
    out = []
    for row in message.components:
        out += [c for c in getattr(row, "children", [row]) if getattr(c, "label", None)]
    return out


def fresh(player, message):
    return next(m for m in dm_of(player).history() if m.id == message.id)


async def test_after_the_main_action_refused_choices_are_disabled_with_the_reason(world):
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player = player_at(world, session, seat)
    live = dm_of(player).last_message
    black = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(session, player, live, black)
    assert game.to_move == seat and game.main_done  # the optional discard is still open
    card = game.hands[seat][0]
    select_id = next(c for c in custom_ids(fresh(player, live)) if c.startswith("hats:hs:"))
    await player.user.select(fresh(player, live), [card.code], custom_id=select_id)
    shown = buttons(fresh(player, live))
    slots = [b for b in shown if b.label.startswith("Slot")]
    assert len(slots) == len(game.board)
    assert all(b.disabled and "(main action done)" in b.label for b in slots)
    hat = next(b for b in shown if b.label.startswith("Black hat"))
    assert hat.disabled and hat.label == "Black hat (main action done)"
    discard = next(b for b in shown if b.label.startswith("Discard"))
    assert not discard.disabled
    # a card that cannot take a slot says why, before the main action
    await player.user.click(fresh(player, live), label="End turn")
    seat2 = game.to_move
    other = player_at(world, session, seat2)
    dm = dm_of(other).last_message
    for card in game.hands[seat2]:
        refused = [
            s
            for s in range(1, len(game.board) + 1)
            if not (card.type is game.board[s - 1].type or card.value > game.board[s - 1].value)
        ]
        if refused:
            break
    assert refused  # this deal has such a card
    select_id = next(c for c in custom_ids(dm) if c.startswith("hats:hs:"))
    await other.user.select(dm, [card.code], custom_id=select_id)
    labels = {b.label: b.disabled for b in buttons(fresh(other, dm))}
    for s in refused:
        taken = game.board[s - 1]
        label = f"Slot {s}: {card_short(taken)} (needs same type or higher value)"
        assert labels.get(label) is True, (label, labels)


async def test_auto_end_preference_ends_the_turn_and_survives_a_restart(world, make_bot):
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player = player_at(world, session, seat)
    live = dm_of(player).last_message
    await player.user.click(live, label="Auto end turn: off (turn on)")
    live = fresh(player, live)
    assert "Auto end turn: on (turn off)" in [b.label for b in buttons(live)]
    black = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(session, player, live, black)
    assert game.to_move != seat  # no End turn click
    assert not fresh(player, live).components  # collapsed: nothing live stays behind
    await world.env.restart_bot(make_bot())
    restored = await session_of(world.env, world.channel)
    rng = random.Random(3)
    other = restored.game.to_move
    while restored.game.to_move == other:
        await play_one(world, restored, rng)
    assert restored.game.to_move == seat
    live = dm_of(player).last_message
    assert "Auto end turn: on (turn off)" in [b.label for b in buttons(live)]
    black = next(a for a in restored.game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(restored, player, live, black)
    assert restored.game.to_move != seat


async def test_each_player_has_at_most_one_live_hand_dm(world):
    session = await open_and_start(world, 3)
    rng = random.Random(8)
    for _ in range(20):
        await play_one(world, session, rng)
        for p in world.players[:3]:
            live = [m for m in dm_of(p).history() if m.components]
            seat = session.seat_of(p.user.id)
            assert len(live) == (1 if session.game.to_move == seat else 0)
            stale = [m for m in dm_of(p).history()[:-1] if "Your move" in (m.content or "")]
            assert all(not m.components for m in stale)


async def test_slash_players_get_a_one_line_ping_with_their_hand(world):
    session = await open_and_start(world, 2)
    rng = random.Random(6)
    while session.game.round < 3:
        await play_one(world, session, rng, via_slash=True)
    seat = session.game.to_move
    ping = dm_of(player_at(world, session, seat)).last_message
    assert not ping.components and not ping.embeds
    assert "your turn" in ping.content
    for card in session.game.hands[seat]:
        assert f"{card.type.emoji} {card.value}" in ping.content or card.code in ping.content
