"""Issue 36 points 5 and 6: a swap accepted after the main action, as its offerer reads it.

The offerer's turn ends with their partner's answer (R10, R11): the hand DM collapses to one
line that names the offerer's own round (R14: the seat's own turns, not who made the last
event), keeps the first turn's hint, and says the swap's result once, with names (a DM
renders no mention pills). No second DM repeats it. An offerer who plays by slash commands
(no live hand DM) gets the result in one DM, with names too.
"""

from __future__ import annotations

from engine import ActionKind
from tests.bot.helpers import act_on_hand, dm_of, open_and_start, v2_texts
from tests.bot.test_teams import (
    bot_options,  # noqa: F401 (the same bot: the swap timeout set)
    hand_dm,
    player_of,
)

HINT = "A new message comes when it is your turn; "


def _first(game, seat, kind):
    return next(a for a in game.legal_actions(seat) if a.kind is kind)


async def _swap_after_main(world):
    """The first player exchanges, then offers a swap; the partner accepts with controls."""
    session = await open_and_start(world, 4)
    game = session.game
    offerer = game.to_move
    partner = game.partner(offerer)
    player = player_of(world, session, offerer)
    await act_on_hand(session, player, hand_dm(player), _first(game, offerer, ActionKind.EXCHANGE))
    await act_on_hand(
        session, player, hand_dm(player), _first(game, offerer, ActionKind.OFFER_SWAP)
    )
    assert game.to_move == partner
    before = len(dm_of(player).history())
    answerer = player_of(world, session, partner)
    answer = _first(game, partner, ActionKind.ANSWER_SWAP)
    await act_on_hand(session, answerer, hand_dm(answerer), answer)
    assert game.active != offerer  # the answer ended the offerer's turn (main action done)
    return session, offerer, partner, player, before


async def _slash(world, session, kind):
    game = session.game
    seat = game.to_move
    player = player_of(world, session, seat)
    action = _first(game, seat, kind)
    card = getattr(action, "card", None)
    if kind is ActionKind.EXCHANGE:
        await player.slash(world.channel, "hats exchange", card=card.code, slot=action.slot)
    elif kind is ActionKind.END_TURN:
        await player.slash(world.channel, "hats endturn")
    else:
        await player.slash(world.channel, "hats swap", card=card.code)


async def test_the_offerer_reads_round_one_and_the_swap_once_with_names(world):
    session, _offerer, partner, player, before = await _swap_after_main(world)
    history = dm_of(player).history()
    assert len(history) == before  # no second DM saying the swap again
    collapsed = max(
        (m for m in history if m.flags.components_v2), key=lambda m: m.edited_at or m.created_at
    )
    text = "\n".join(v2_texts(collapsed))
    assert text.startswith("Your turn is over (round 1).")  # its own first turn (R14)
    assert HINT in text  # the first turn's hint is not lost
    partner_name = player_of(world, session, partner).user.name
    assert text.count("You gave ") == 1 and partner_name in text
    assert "<@" not in text


async def test_the_partner_reads_its_own_first_round_after_accepting(world):
    """The partner's accepted swap ended the offerer's turn, not the partner's: when the
    partner's own first turn ends, its line says round 1 (and the first turn's hint)."""
    session, _offerer, partner, _player, _before = await _swap_after_main(world)
    game = session.game
    while game.active != partner:  # the seat between them: exchange, end turn
        seat = game.to_move
        mover = player_of(world, session, seat)
        await act_on_hand(session, mover, hand_dm(mover), _first(game, seat, ActionKind.EXCHANGE))
        await act_on_hand(session, mover, hand_dm(mover), _first(game, seat, ActionKind.END_TURN))
    mover = player_of(world, session, partner)
    dm = hand_dm(mover)
    await act_on_hand(session, mover, dm, _first(game, partner, ActionKind.EXCHANGE))
    await act_on_hand(session, mover, hand_dm(mover), _first(game, partner, ActionKind.END_TURN))
    assert game.turns_taken[partner] == 1
    line = "\n".join(v2_texts(next(m for m in dm_of(mover).history() if m.id == dm.id)))
    assert line.startswith("Your turn is over (round 1)."), line
    assert HINT in line


async def test_a_slash_offerer_gets_the_result_once_by_name(world):
    """Everyone plays by slash commands: from round 2 no live hand DM shows the answer, so
    the offerer gets it in one DM line, with names."""
    session = await open_and_start(world, 4)
    game = session.game
    offerer = game.to_move
    partner = game.partner(offerer)
    for _ in range(4):  # round 1: exchange, end turn, all by slash
        await _slash(world, session, ActionKind.EXCHANGE)
        await _slash(world, session, ActionKind.END_TURN)
    assert game.to_move == offerer and game.round == 2
    await _slash(world, session, ActionKind.EXCHANGE)
    await _slash(world, session, ActionKind.OFFER_SWAP)
    player = player_of(world, session, offerer)
    before = len(dm_of(player).history())
    await _slash(world, session, ActionKind.ANSWER_SWAP)
    new = dm_of(player).history()[before:]
    assert len(new) == 1
    text = "\n".join([new[0].content or "", *v2_texts(new[0])])
    partner_name = player_of(world, session, partner).user.name
    assert "You gave " in text and partner_name in text
    assert "<@" not in text
