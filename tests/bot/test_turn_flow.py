"""The turn in two clicks: only legal actions are buttons (what is refused said in one line),
the turn ending by itself (preference stored across a restart, never behind the player's back),
one live hand DM that collapses to a short line, slash players pinged in one line."""

from __future__ import annotations

import random

from engine import ActionKind
from tests.bot.helpers import (
    _play_by_slash,
    act_on_hand,
    components_of,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    session_of,
    text_of,
)
from texts.common import card_short
from texts.i18n import Tr
from texts.numbers import slot_list


def player_at(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def buttons(message):
    return [c for c in components_of(message) if getattr(c, "label", None) and c.type.value == 2]


async def black_hat_first(world):
    """A 2-player game whose first player plays a black hat by the live hand DM's controls."""
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player = player_at(world, session, seat)
    live = dm_of(player).last_message
    black = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(session, player, live, black)
    return session, game, seat, player, live


def fresh(player, message):
    return next(m for m in dm_of(player).history() if m.id == message.id)


async def test_only_legal_actions_are_buttons_and_the_refused_ones_are_one_line(world):
    session, game, seat, player, live = await black_hat_first(world)
    assert game.to_move == seat and game.main_done  # the optional discard is still open
    card = game.hands[seat][0]
    select_id = next(c for c in custom_ids(fresh(player, live)) if c.startswith("hats:hs:"))
    await player.user.select(fresh(player, live), [card.code], custom_id=select_id)
    shown = buttons(fresh(player, live))
    assert not any(b.disabled for b in shown)  # never rows of disabled buttons
    assert {b.label for b in shown} == {"Discard and draw", "End turn"}
    # a card that cannot take a slot: its legal slots are buttons, the others one short line
    await player.user.click(fresh(player, live), label="End turn")
    # issue 19 point 6: End turn on the live hand DM collapses it to "Your turn is over…"
    assert text_of(fresh(player, live)).startswith("Your turn is over (round 1).")
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
    shown = buttons(fresh(other, dm))
    assert not any(b.disabled for b in shown)
    slots = {b.label for b in shown if b.emoji is not None and b.label != "End turn"}
    legal = set(range(1, len(game.board) + 1)) - set(refused)
    assert slots == {card_short(game.board[s - 1]) for s in legal}
    text = text_of(fresh(other, dm))
    numbers = slot_list(refused, Tr.english(), negated=True)  # "1, 2, or 5"
    assert f"{numbers}:" in text and "same type or a higher value" in text


async def test_auto_end_preference_ends_the_turn_and_survives_a_restart(world, make_bot):
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player = player_at(world, session, seat)
    live = dm_of(player).last_message
    await player.user.click(live, label="Auto end turn: off")
    live = fresh(player, live)
    assert "Auto end turn: on" in [b.label for b in buttons(live)]
    black = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(session, player, live, black)
    assert game.to_move != seat  # no End turn click
    assert not custom_ids(fresh(player, live))  # collapsed: nothing live stays behind
    await world.env.restart_bot(make_bot())
    restored = await session_of(world.env, world.channel)
    rng = random.Random(3)
    other = restored.game.to_move
    while restored.game.to_move == other:
        await play_one(world, restored, rng)
    assert restored.game.to_move == seat
    live = dm_of(player).last_message
    assert "Auto end turn: on" in [b.label for b in buttons(live)]
    black = next(a for a in restored.game.legal_actions(seat) if a.kind is ActionKind.BLACK_HAT)
    await act_on_hand(restored, player, live, black)
    assert restored.game.to_move != seat


async def test_auto_end_switched_on_after_the_main_action_keeps_the_optional_action(world):
    # issue 18: the discard the player was about to make is not lost
    session, game, seat, player, live = await black_hat_first(world)
    await player.user.click(fresh(player, live), label="Auto end turn: off")
    assert game.to_move == seat and not game.optional_used  # the turn goes on
    live = fresh(player, live)
    assert "End turn" in [b.label for b in buttons(live)]
    assert "From your next turn on" in text_of(live)
    discard = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.DISCARD)
    await act_on_hand(session, player, live, discard)
    if game.to_move == seat:
        await player.user.click(fresh(player, live), label="End turn")
    assert game.to_move != seat and any(e.kind is ActionKind.DISCARD for e in game.events)
    # issue 19 point 6: End turn on the live hand DM says the turn is over
    collapsed = text_of(fresh(player, live))
    assert collapsed.startswith("Your turn is over (round 1).") and "answer" not in collapsed


async def test_each_player_has_at_most_one_live_hand_dm_and_no_repeated_line(world):
    session = await open_and_start(world, 3)
    rng = random.Random(8)
    for _ in range(40):
        await play_one(world, session, rng)
        for p in world.players[:3]:
            history = dm_of(p).history()
            live = [m for m in history if custom_ids(m)]
            seat = session.seat_of(p.user.id)
            assert len(live) == (1 if session.game.to_move == seat else 0)
            collapsed = [text_of(m) for m in history if not custom_ids(m) and m.flags.components_v2]
            assert len(collapsed) == len(set(collapsed))  # never the same line twice
            assert all(not m.attachments for m in history if not custom_ids(m))


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


async def test_swap_without_a_card_declines_or_withdraws(world):
    """``/hats swap`` without a card: the partner declines, the offerer withdraws (R10)."""
    session = await open_and_start(world, 4)
    for answerer in ("partner", "offerer"):
        seat = session.game.to_move
        offerer = player_at(world, session, seat)
        card = session.game.hands[seat][0]
        await offerer.slash(world.channel, "hats swap", card=card.code)
        assert session.game.pending_offer is card
        who = offerer if answerer == "offerer" else player_at(world, session, (seat + 2) % 4)
        await who.slash(world.channel, "hats swap")
        assert session.game.pending_offer is None
        kind = session.game.events[-1].kind
        want = ActionKind.WITHDRAW_SWAP if answerer == "offerer" else ActionKind.DECLINE_SWAP
        assert kind is want
        main = next(a for a in session.game.legal_actions(seat) if a.kind.is_main)
        await _play_by_slash(world, offerer, main)  # the turn goes on: a main action is owed
        if session.game.to_move == seat:
            await offerer.slash(world.channel, "hats endturn")
