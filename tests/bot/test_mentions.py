"""Issue 29.2: a message pings only the person it is addressed to, under simcord.

The bot's default allowed mentions ping nobody (cogs.mentions); the turn ping in a player's
DM allows only that player. Public replays, leaderboards and history posts list every player
with a ``<@id>`` mention and ping none of them. simcord records each REST body and which
users a message really pinged.
"""

from __future__ import annotations

import random
import re

from tests.bot.helpers import dm_of, open_and_start, play_one


def _bodies(env, since: int = 0):
    """(path, body) of every message the bot created or edited after request ``since``.

    Channel messages and edits (``/messages``), interaction answers (``/callback``: the
    message is the body's ``data``) and followups or their edits (``/webhooks/...``).
    """
    for request in env.http_requests[since:]:
        body = request.json
        if not isinstance(body, dict) or request.method not in ("POST", "PATCH"):
            continue
        if request.path.endswith("/callback"):
            body = body.get("data") or {}
        elif "/messages" not in request.path and "/webhooks/" not in request.path:
            continue
        if "content" in body or "components" in body:
            yield request.path, body


def _pinged(env, channel_id: int) -> dict[int, list[int]]:
    """message id -> the users it pinged, for the bot's messages in a channel (simcord)."""
    stored = env.backend.messages.get(channel_id, {})
    return {m.id: list(m.ping_user_ids) for m in stored.values() if m.ping_user_ids}


def _pings_nobody(mentions) -> bool:
    return (
        isinstance(mentions, dict)
        and not set(mentions.get("parse", ())) & {"users", "roles", "everyone"}
        and not mentions.get("users")
        and not mentions.get("roles")
        and not mentions.get("replied_user")
    )


async def test_public_posts_list_players_without_pinging_and_the_turn_ping_pings_one(world):
    env = world.env
    session = await open_and_start(world, 3)
    rng = random.Random(3)
    while not session.game.is_over:
        await play_one(world, session, rng)
    await env.bot.store.history.process_pending()
    watcher = world.players[4]
    start = len(env.http_requests)
    posts = []
    for command, options in (("hats replay", {"game": session.id}), ("hats leaderboard", {})):
        await env.advance_time(120)  # past the public posts' cooldown
        result = await watcher.slash(world.channel, command, **options)
        assert not result.ephemeral, command
        posts.append(result.response.message)
    await watcher.click(posts[0], custom_id=f"hats:rp:{session.id}:0:n")  # the replay moves on
    listed = await watcher.slash(world.channel, "hats history")  # privately, with a select
    await env.advance_time(120)
    posted = await watcher.select(listed.response, [str(session.id)], custom_id="hats:hist")
    assert not posted.ephemeral  # the chosen game's replay, for everyone
    posts.append(next(m for m in world.channel.history() if m.id == posted.response.id))
    players = {s.user_id for s in session.seats}
    for message in posts:  # every player is named, with a mention or (a replay's hands under
        # its picture, issue 36.9) by name ...
        named = {int(x) for x in re.findall(r"<@(\d+)>", str(message.components))}
        shown = {
            p
            for p in players
            if env.bot.names.get(p) and env.bot.names[p] in str(message.components)
        }
        assert (named | shown) & players, message
    bodies = list(_bodies(env, start))
    assert sum(path.endswith("/callback") for path, _ in bodies) >= 5  # posts, a move, the list
    for path, body in bodies:  # ... and each post says it pings nobody
        assert _pings_nobody(body.get("allowed_mentions")), (path, body.get("allowed_mentions"))
    # in the channel nothing the bot sent all game long pinged anyone
    assert _pinged(env, world.channel.id) == {}
    # the turn pings: each DM may ping only its addressee
    for player in world.players[:3]:
        dm = dm_of(player)
        for m in env.backend.messages.get(dm.id, {}).values():
            assert set(m.ping_user_ids) <= {player.user.id}
    for request in env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        mentions = body.get("allowed_mentions")
        if mentions is not None and mentions.get("users"):
            assert len(mentions["users"]) == 1, (request.path, mentions)
