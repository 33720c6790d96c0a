"""Driving a game through the real bot the way players do: slash commands and clicks."""

from __future__ import annotations

import random
from typing import Any

from cogs.controls import action_custom_id, card_select_custom_id
from engine import ActionKind


def bot_messages(env, channel):
    """Every message the bot posted in ``channel`` (public, oldest first)."""
    return [m for m in channel.history() if m.author.id == env.bot.user.id]


def record_posts(env, channel):
    """The bot's end posts in ``channel``: the messages carrying a game record (``.json``).

    (The table messages carry a picture too, so "has attachments" does not tell them apart.)
    """
    return [
        m
        for m in bot_messages(env, channel)
        if any(a.filename.endswith(".json") for a in m.attachments)
    ]


async def session_of(env, channel):
    """The live game in ``channel`` (the bot's own state, read as an oracle)."""
    return await env.bot.games.session_in_channel(channel.id)


async def open_and_start(world, n: int):
    """Alice opens a lobby, n-1 others join by button, Alice starts by button."""
    alice = world.players[0]
    result = await alice.slash(world.channel, "hats new")
    lobby = result.response.message
    for player in world.players[1:n]:
        await player.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return await session_of(world.env, world.channel)


async def play_to_end(world, n: int, seed: int):
    """A game of ``n`` players opened, started and played to its end by random legal clicks."""
    session = await open_and_start(world, n)
    rng = random.Random(seed)
    while not session.game.is_over:
        await play_one(world, session, rng)
    return session


def dm_of(player):
    """The player's DM channel handle (bot <-> player)."""
    return player.user.dm_channel


def custom_ids(message) -> list[str]:
    """Every component custom_id of a discord.Message."""
    return [
        c.custom_id for c in walk_components(message.components) if getattr(c, "custom_id", None)
    ]


def components_of(message) -> list:
    """Every component of a discord.Message, nested ones included (V2 containers, rows)."""
    return list(walk_components(message.components))


def embed_texts(message) -> list[str]:
    """A message's content and the texts of its embeds (title, description, fields, footer,
    author), in order; empty ones included."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts += [embed.footer.text or "", embed.author.name or ""]
    return parts


def text_of(message) -> str:
    """Everything a reader sees as text on a message: content, embeds, V2 text displays,
    labels, placeholders and select options."""
    return "\n".join(text_parts(message))


def text_parts(message) -> list[str]:
    """The non-empty texts of :func:`text_of`, one per place they appear."""
    parts = embed_texts(message)
    for c in components_of(message):
        for attr in ("content", "label", "placeholder"):
            value = getattr(c, attr, None)
            if isinstance(value, str):
                parts.append(value)
        for option in getattr(c, "options", ()) or ():
            parts += [option.label or "", option.description or ""]
    return [p for p in parts if p]


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
    await act_on_hand(session, player, dm_of(player).last_message, action)


async def act_on_hand(session, player, message, action):
    """Take ``action`` with the controls of the hand DM ``message``: card select, then button.

    Returns the button's interaction result (simcord).

    The click names the control the bot must have drawn for that action at the current
    state; simcord refuses a click on a control that is not there.
    """
    version = session.version
    card = getattr(action, "card", None)
    if card is not None:
        select_id = card_select_custom_id(session.id, version)
        await player.user.select(message, [card.code], custom_id=select_id)
        # the same message, redrawn with that card's actions
        message = next(m for m in dm_of(player).history() if m.id == message.id)
    return await player.user.click(message, custom_id=action_custom_id(session.id, version, action))


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
            await player.slash(world.channel, "hats swap")  # no card: decline or withdraw
        case ActionKind.END_TURN:
            await player.slash(world.channel, "hats endturn")


def walk_components(components):
    """Every component of a message, depth first (Components V2 containers, sections, rows)."""
    for component in components:
        yield component
        for attr in ("children", "components"):
            yield from walk_components(getattr(component, attr, None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def v2_texts(message) -> list[str]:
    """The text displays of a Components V2 message, in order."""
    return [c.content for c in walk_components(message.components) if hasattr(c, "content")]


def alt_texts(message) -> list[str]:
    """The alt texts of a message: media gallery item descriptions and attachment descriptions."""
    out = []
    for component in walk_components(message.components):
        for item in getattr(component, "items", None) or ():
            if getattr(item, "description", None):
                out.append(item.description)
    out += [a.description for a in message.attachments if a.description]
    return list(dict.fromkeys(out))  # the gallery item and its attachment say the same


def message_text(message, *, alt: bool = True) -> str:
    """Every text of a message a user (or their screen reader, with ``alt``) reads."""
    parts = embed_texts(message)
    parts += v2_texts(message)
    if alt:
        parts += alt_texts(message)
    return "\n".join(p for p in parts if p)


def card_words(card) -> str:
    """A card as the English alt texts write it: ``red 5``."""
    return f"{card.type.value} {card.value}"


def adopt_web_steps(env: Any) -> None:
    """Announce the service's events as bot-owned work when they come from the web server.

    simcord's ``settle`` waits only for work the bot started; steps the web server commits
    and the events it fires (a game started there) come from its own task, so their
    listeners are adopted here (simcord's private scope).
    """
    from simcord._runtime import _BOT_SCOPE

    games = env.bot.games
    dispatch = games.dispatch

    def owned(name: str, *args: Any) -> None:
        if _BOT_SCOPE.get() is not None:
            dispatch(name, *args)
            return
        with env._bot_scope():
            dispatch(name, *args)

    games.dispatch = owned
    web = getattr(env.bot, "web", None)
    if web is not None:  # the web server's own events (a start, a lobby opened there)
        fire = web.dispatch

        def owned_web(name: str, *args: Any) -> None:
            if _BOT_SCOPE.get() is not None:
                fire(name, *args)
                return
            with env._bot_scope():
                fire(name, *args)

        web.dispatch = owned_web


async def open_activity(
    http: Any, bot: Any, user: Any, name: str, channel: Any, locale: str = "en-US"
) -> Any:
    """``user``'s Activity on ``channel``: a WebSocket on the bot's web server, hello sent.

    The session is issued by the server itself (the sign-in is tested in tests/web). Discord
    lists ``user`` in the channel's Activity instance ``i-<channel id>`` (web.instances:
    KnownInstances stands in for the Activity Instance API; the permission check is the
    bot's own, cogs.access, over simcord's members and overwrites).
    """
    from web.instances import InstanceCache, KnownInstances

    cache = bot.web.instances
    if cache is None or not isinstance(cache.lookup, KnownInstances):
        cache = bot.web.instances = InstanceCache(KnownInstances(), recheck=0.0)
    instance_id = f"i-{channel.id}"
    guild = getattr(channel, "guild", None)
    cache.lookup.join(
        instance_id, user.id, channel_id=channel.id, guild_id=guild.id if guild else None
    )
    token = bot.web.sessions.issue(user.id, name)[0]
    ws = await http.ws_connect(bot.web.address + "ws")
    await ws.send_json(
        {
            "t": "hello",
            "session": token,
            "instance_id": instance_id,
            "channel_id": str(channel.id),
            "guild_id": str(guild.id) if guild else None,
            "locale": locale,
            "resume": None,
        }
    )
    return ws
