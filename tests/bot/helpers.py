"""Driving a game through the real bot the way players do: slash commands and clicks."""

from __future__ import annotations

import random

import discord

from engine import ActionKind


def bot_messages(env, channel):
    """Every message the bot posted in ``channel`` (public, oldest first)."""
    return [m for m in channel.history() if m.author.id == env.bot.user.id]


def session_of(env, channel):
    """The live game in ``channel`` (the bot's own state, read as an oracle)."""
    return env.bot.games.session_in_channel(channel.id)


async def open_and_start(world, n: int):
    """Alice opens a lobby, n-1 others join by button, Alice starts by button."""
    alice = world.players[0]
    result = await alice.slash(world.channel, "hats new")
    lobby = result.response.message
    for player in world.players[1:n]:
        await player.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return session_of(world.env, world.channel)


def dm_of(player):
    """The player's DM channel handle (bot <-> player)."""
    return player.user.dm_channel


def custom_ids(message) -> list[str]:
    """Every component custom_id of a discord.Message."""
    out = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            cid = getattr(child, "custom_id", None)
            if cid:
                out.append(cid)
    return out


async def play_one(world, session, rng: random.Random, *, via_slash: bool = False) -> None:
    """The player to move acts once with a random legal action through the UI."""
    game = session.game
    seat = game.to_move
    user_id = session.seats[seat].user_id
    player = next(p for p in world.players if p.user.id == user_id)
    legal = game.legal_actions(seat)
    kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
    kind = rng.choice(kinds)
    action = rng.choice([a for a in legal if a.kind is kind])
    if via_slash:
        await _play_by_slash(world, player, action)
        return
    message = dm_of(player).last_message
    card = getattr(action, "card", None)
    if card is not None:
        select_id = next(c for c in custom_ids(message) if c.startswith("hats:hs:"))
        await player.user.select(message, [card.code], custom_id=select_id)
        message = dm_of(player).history()[-1] if False else _fresh(player, message)
    target = _control_id(message, action)
    await player.user.click(message, custom_id=target)


def _fresh(player, message):
    for m in dm_of(player).history():
        if m.id == message.id:
            return m
    raise AssertionError("hand message vanished")


def _control_id(message: discord.Message, action) -> str:
    op = {
        ActionKind.EXCHANGE: "x",
        ActionKind.BLACK_HAT: "b",
        ActionKind.DISCARD: "d",
        ActionKind.OFFER_SWAP: "o",
        ActionKind.ANSWER_SWAP: "a",
        ActionKind.DECLINE_SWAP: "n",
        ActionKind.WITHDRAW_SWAP: "w",
        ActionKind.END_TURN: "e",
    }[action.kind]
    for cid in custom_ids(message):
        parts = cid.split(":")
        if parts[:2] != ["hats", "h"] or parts[4] != op:
            continue
        card = getattr(action, "card", None)
        if card is not None and parts[5] != card.code:
            continue
        if action.kind is ActionKind.EXCHANGE and parts[6] != str(action.slot):
            continue
        return cid
    raise AssertionError(f"no control for {action} in {custom_ids(message)}")


async def _play_by_slash(world, player, action) -> None:
    card = getattr(action, "card", None)
    match action.kind:
        case ActionKind.EXCHANGE:
            await player.slash(world.channel, "hats exchange", card=card.code, slot=action.slot)
        case ActionKind.BLACK_HAT:
            await player.slash(world.channel, "hats blackhat", card=card.code)
        case ActionKind.DISCARD:
            await player.slash(world.channel, "hats discard", card=card.code)
        case ActionKind.OFFER_SWAP | ActionKind.ANSWER_SWAP:
            await player.slash(world.channel, "hats swap", card=card.code)
        case ActionKind.DECLINE_SWAP | ActionKind.WITHDRAW_SWAP:
            await player.slash(world.channel, "hats decline")
        case ActionKind.END_TURN:
            await player.slash(world.channel, "hats endturn")
