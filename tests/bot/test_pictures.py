"""The table, hand and end pictures on the real bot (simcord): attached, shown by the embed
(hand) or a full-width media gallery with alt text (table, end: Components V2), replaced on
every edit, drawn from what the viewer may see, and never in the way."""

from __future__ import annotations

import json
import random

import cogs.pictures
from pictures import render_end, render_hand, render_table
from tests.bot.helpers import (
    alt_texts,
    bot_messages,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    v2_texts,
    walk_components,
)
from texts.common import card_token
from texts.replies import labels_for


def table_message(env, channel, session):
    table = session.message("table")
    return next(m for m in bot_messages(env, channel) if m.id == table.message_id)


def names(env, session, tr) -> tuple[str, ...]:
    return tuple(label.plain_name for label in labels_for(session, env.bot.names, tr))


async def picture(message, filename: str) -> bytes:
    (attachment,) = [a for a in message.attachments if a.filename == filename]
    if message.embeds:  # the hand DM
        assert message.embeds[0].image.url == f"attachment://{filename}"
    else:  # V2: a media gallery at full width, with the attachment's alt text
        urls = [
            item.media.url
            for c in walk_components(message.components)
            for item in getattr(c, "items", None) or ()
        ]
        assert urls == [attachment.url]  # Discord resolved attachment://<filename>
        assert attachment.description and len(attachment.description) <= 1024
    return await attachment.read()


async def test_table_picture_is_replaced_on_every_edit(world):
    env = world.env
    session = await open_and_start(world, 3)
    tr = env.bot.translator.for_locale(None)
    first = table_message(env, world.channel, session)
    before = await picture(first, "table.png")
    assert before == render_table(session.game.public_view(), names(env, session, tr), tr)
    await play_one(world, session, random.Random(1))
    edited = table_message(env, world.channel, session)
    assert edited.id == first.id  # the same message, edited
    assert [a.filename for a in edited.attachments] == ["table.png"]  # replaced, not added
    after = await picture(edited, "table.png")
    assert after != before
    assert after == render_table(session.game.public_view(), names(env, session, tr), tr)
    # the text (whose turn, what just happened) and the buttons stay
    assert v2_texts(edited) and edited.components


async def test_hand_dm_shows_the_players_own_hand_picture(world):
    env = world.env
    session = await open_and_start(world, 2)
    tr = env.bot.translator.for_locale(None)
    rng = random.Random(2)
    players = {p.user.id: p for p in world.players}
    seen = {}
    while len(seen) < 2:  # the live hand DM of whoever must move, turn after turn
        seat = session.game.to_move
        live = session.message("dm", seat)
        player = players[session.seats[seat].user_id]
        message = next(m for m in dm_of(player).history() if m.id == live.message_id)
        data = await picture(message, "hand.png")
        own = render_hand(session.game.observation(seat), names(env, session, tr), tr)
        assert data == own
        seen[seat] = data
        while session.game.to_move == seat:
            await play_one(world, session, rng)
        # the turn is over: that DM collapsed to one line, its picture gone with the embed
        done = next(m for m in dm_of(player).history() if m.id == live.message_id)
        assert done.embeds == [] and done.attachments == []
    assert seen[0] != seen[1]


async def test_end_screen_has_the_end_picture_and_the_record(world):
    env = world.env
    session = await open_and_start(world, 2)
    tr = env.bot.translator.for_locale(None)
    rng = random.Random(3)
    while not session.game.is_over:
        await play_one(world, session, rng)
    await env.advance_time(1)
    final = table_message(env, world.channel, session)  # the table became the final result
    assert [a.filename for a in final.attachments] == [f"hats-game-{session.id}.json", "end.png"]
    data = await picture(final, "end.png")
    obs = session.game.public_view()
    assert data == render_end(obs, names(env, session, tr), tr, game_id=session.id)


async def test_a_failed_picture_leaves_the_text_table(world, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no font")

    monkeypatch.setattr(cogs.pictures, "render_table", broken)
    env = world.env
    session = await open_and_start(world, 2)
    table = table_message(env, world.channel, session)
    assert table.attachments == [] and alt_texts(table) == []
    # the compact text layout shows the board instead of the missing picture
    text = "\n".join(v2_texts(table))
    assert all(card_token(c) in text for c in session.game.board)
    assert table.components


async def test_hats_hand_answers_privately_with_the_hand_picture(world):
    env = world.env
    session = await open_and_start(world, 2)
    tr = env.bot.translator.for_locale(None)
    for seat in session.seats:
        player = next(p for p in world.players if p.user.id == seat.user_id)
        result = await player.slash(world.channel, "hats hand")
        assert result.ephemeral
        message = result.response.message
        data = await picture(message, "hand.png")
        assert data == render_hand(session.game.observation(seat.seat), names(env, session, tr), tr)


async def test_a_move_is_answered_at_once_and_its_picture_follows(world):
    """The click that makes a move is answered without waiting for the new hand picture (the
    old one stays); the new picture replaces it by an edit of the same response."""
    env = world.env
    session = await open_and_start(world, 2)
    tr = env.bot.translator.for_locale(None)
    mover = session.seats[session.game.to_move]
    before = len(env.http_requests)
    await play_one(world, session, random.Random(1))
    calls = env.http_requests[before:]
    answers = [c for c in calls if c.path.endswith("/callback")]
    move_answer = answers[-1].json["data"]
    # not waiting: the old picture stays, kept by its id (issue 29.5: never left implicit)
    kept = move_answer["attachments"]
    assert [a["filename"] for a in kept] == ["hand.png"] and kept[0]["id"]
    assert "attachment://hand.png" in json.dumps(move_answer["components"])  # the old picture
    follow = [c for c in calls if c.method == "PATCH" and c.path.endswith("/messages/@original")]
    assert len(follow) == 1
    assert calls.index(follow[0]) > calls.index(answers[-1])
    assert [a["filename"] for a in follow[0].json["attachments"]] == ["hand.png"]
    player = next(p for p in world.players if p.user.id == mover.user_id)
    message = dm_of(player).last_message
    data = await picture(message, "hand.png")
    assert data == render_hand(session.game.observation(mover.seat), names(env, session, tr), tr)


async def test_the_table_picture_speaks_the_servers_language(simcord_env):
    env = simcord_env
    guild = env.create_guild("Sala da tè", preferred_locale="it")
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(name)) for name in ("anna", "bruno")]
    lobby = (await players[0].slash(channel, "hats new")).response.message
    ids = custom_ids(lobby)
    await players[1].click(lobby, custom_id=next(i for i in ids if i.endswith(":join")))
    lobby = next(m for m in channel.history() if m.id == lobby.id)  # Start shows with 2 players
    ids = custom_ids(lobby)
    await players[0].click(lobby, custom_id=next(i for i in ids if i.endswith(":start")))
    session = await env.bot.games.session_in_channel(channel.id)
    italian = env.bot.translator.for_locale("it")
    table = next(
        m for m in bot_messages(env, channel) if m.id == session.message("table").message_id
    )
    data = await picture(table, "table.png")
    assert data == render_table(session.game.public_view(), names(env, session, italian), italian)
    english = env.bot.translator.for_locale("en")
    assert data != render_table(session.game.public_view(), names(env, session, english), english)
