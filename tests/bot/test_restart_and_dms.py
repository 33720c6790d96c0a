"""Restarts keep every game and its buttons; closed DMs fall back to the channel."""

from __future__ import annotations

import json
import random

from tests.bot.helpers import (
    bot_messages,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    play_to_end,
    session_of,
)


async def test_restart_mid_game_old_buttons_work_and_game_finishes(world, make_bot):
    session = await open_and_start(world, 2)
    rng = random.Random(2)
    for _ in range(9):
        await play_one(world, session, rng)
    version = session.version
    snapshot = session.game.snapshot()
    await world.env.restart_bot(make_bot())
    restored = await session_of(world.env, world.channel)
    assert restored is not session  # a new bot rebuilt it from the database
    assert restored.version == version and restored.game.snapshot() == snapshot
    # the DM sent before the restart still works (persistent DynamicItem controls)
    while not restored.game.is_over:
        await play_one(world, restored, rng)
    assert restored.game.result is not None
    final = bot_messages(world.env, world.channel)[-1]
    assert final.attachments


async def test_restart_keeps_open_lobby_and_its_buttons(world, make_bot):
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await world.env.restart_bot(make_bot())
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    assert (await session_of(world.env, world.channel)) is not None


async def test_closed_dms_fall_back_to_the_channel_and_show_my_hand(world):
    env = world.env
    bob = world.players[1]
    env.inject_error(
        "POST",
        f"/channels/{dm_of(bob).id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    session = await open_and_start(world, 2)
    notices = [m for m in bot_messages(env, world.channel) if bob.user.mention in (m.content or "")]
    assert notices and "cannot send you direct messages" in notices[0].content
    table = next(
        m for m in reversed(bot_messages(env, world.channel)) if "hats:t:" in str(custom_ids(m))
    )
    shown = await bob.click(table, label="Show my hand")
    assert shown.ephemeral
    (picture,) = shown.response.message.attachments
    alt = picture.description  # the hand picture and its full text description
    bob_seat = session.seat_of(bob.user.id)
    assert all(f"{c.type.value} {c.value}" in alt for c in session.game.hands[bob_seat])
    # bob can play a whole game without DMs: play by slash commands
    rng = random.Random(4)
    while not session.game.is_over:
        await play_one(world, session, rng, via_slash=True)


async def test_commands_in_dms_find_the_players_game(world):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    user_id = session.seats[seat].user_id
    player = next(p for p in world.players if p.user.id == user_id)
    card = session.game.hands[seat][0]
    result = await player.user.slash("hats blackhat", card=card.code)
    assert result.ephemeral or result.response is not None
    assert card in session.game.black_hats[seat]


async def test_record_and_rematch_after_the_end(world):
    session = await play_to_end(world, 2, 9)
    alice = world.players[0]
    result = await alice.slash(world.channel, "hats record")
    assert result.ephemeral and result.response.attachments
    final = bot_messages(world.env, world.channel)[-1]  # the final scores (the record: private)
    rematch = await alice.click(final, label="Rematch")
    lobby = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert lobby is not None and {s.user_id for s in lobby.seats} == {
        s.user_id for s in session.seats
    }
    assert rematch.response is not None
    record = await world.env.bot.store.results.get_record(session.id)
    assert record["format"] == "hats-record/1" and json.dumps(record)


async def test_leave_and_cancel(world):
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "hats new")
    await bob.slash(world.channel, "hats lobby join")
    await alice.slash(world.channel, "hats lobby leave")  # the host leaves: bob hosts now
    lobby = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert lobby.host_id == bob.user.id and [s.user_id for s in lobby.seats] == [bob.user.id]
    refused = await alice.slash(world.channel, "hats lobby cancel")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await bob.slash(world.channel, "hats lobby cancel")
    assert await world.env.bot.games.lobby_in_channel(world.channel.id) is None
