"""The exchange buttons of a hand DM keep 🟪 and 🟦 visible: grey, never blurple (issue 29.15)."""

from __future__ import annotations

import discord

from cogs.controls import card_select_custom_id
from engine import ActionKind
from tests.bot.helpers import dm_of, open_and_start, walk_components

CARD = ("🟥", "🟧", "🟨", "🟩", "🟦", "🟪", "🟫")


async def test_exchange_buttons_with_a_card_are_not_blurple(world):
    session = await open_and_start(world, 3)
    seat = session.game.to_move
    player = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    exchange = next(a for a in session.game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
    message = dm_of(player).last_message
    await player.user.select(
        message, [exchange.card.code], custom_id=card_select_custom_id(session.id, session.version)
    )
    message = next(m for m in dm_of(player).history() if m.id == message.id)
    buttons = [
        c
        for c in walk_components(message.components)
        if isinstance(c, discord.Button) and c.label and c.label.startswith(CARD)
    ]
    assert buttons  # one per slot the card can take
    for button in buttons:
        assert button.style is discord.ButtonStyle.secondary, (button.label, button.style)
