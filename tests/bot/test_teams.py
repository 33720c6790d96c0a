"""4-player team mode: team picks (R5), partner swaps accepted / declined / lapsed (R10),
private team threads or the DM relay, the table-talk guard, the team result (R20)."""

from __future__ import annotations

import random

import discord
import pytest

from engine import ActionKind
from tests.bot.conftest import World
from tests.bot.helpers import (
    act_on_hand,
    bot_messages,
    custom_ids,
    dm_of,
    open_and_start,
    record_posts,
)
from tests.bot.test_hidden_info import PATTERNS, assert_no_leak, message_text

SWAP_TIMEOUT = 60


@pytest.fixture
def bot_options():
    return {
        "turn_timer": None,
        "ai_delay": 0.0,
        "swap_timeout": float(SWAP_TIMEOUT),
        "edit_limit": None,
    }


def player_of(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def hand_dm(player):
    """The newest hand DM of ``player`` (the embed of their private view)."""
    for message in reversed(dm_of(player).history()):
        if any(c.startswith(("hats:hs:", "hats:h:")) for c in custom_ids(message)):
            return message
    raise AssertionError("no hand DM")


def live_dm(world, session, seat):
    """The seat's hand DM edited last (live, or collapsed once its turn ended), else its newest."""
    history = dm_of(player_of(world, session, seat)).history()
    v2 = [m for m in history if m.flags.components_v2]
    return max(v2, key=lambda m: m.edited_at or m.created_at) if v2 else history[-1]


async def act(world, session, action):
    """The player to move takes ``action`` through their DM hand controls."""
    player = player_of(world, session, session.game.to_move)
    await act_on_hand(session, player, hand_dm(player), action)


def texts_since(channel, count):
    return [message_text(m) for m in channel.history()[count:]]


async def team_threads(world, channel):
    out = []
    for th in channel.threads:
        thread = await world.env.bot.fetch_channel(th.id)
        members = {m.id for m in await thread.fetch_members()}
        out.append((th, thread, members))
    return out


async def test_full_four_player_game_with_swaps_accepted_declined_and_lapsed(world):
    session = await open_and_start(world, 4)
    game = session.game
    bot_id = world.env.bot.user.id
    # two private threads, each with exactly the two partners (plus the bot that made it)
    threads = await team_threads(world, world.channel)
    assert len(threads) == 2
    for index, (th, thread, members) in enumerate(threads):
        assert thread.type is discord.ChannelType.private_thread
        partners = {session.seats[s].user_id for s in game.teams[index]}
        assert members == partners | {bot_id}
        reminder = th.history(viewer=player_of(world, session, game.teams[index][0]))
        assert "never name a card's type, colour or number" in reminder[-1].content

    rng = random.Random(5)
    modes = ["accept", "decline", "lapse"]
    done = {"accept": 0, "decline": 0, "lapse": 0}
    offers = 0
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_actions(seat)
        if game.pending_offer is not None:
            offerer, partner, offered = game.active, seat, game.pending_offer
            mode = modes[offers % 3]
            offers += 1
            channel_count = len(world.channel.history())
            if mode == "accept":
                answer = next(a for a in legal if a.kind is ActionKind.ANSWER_SWAP)
                partner_dms = dm_of(player_of(world, session, partner))
                # a later offer in the same turn redraws the turn's first offer DM (issue 19.4)
                offer_dm = hand_dm(player_of(world, session, partner))
                await act(world, session, answer)
                assert offered in game.hands[partner] and answer.card in game.hands[offerer]
                swapped = (offered, answer.card)
                # each side sees what it gave and what it received
                mine = message_text(live_dm(world, session, offerer))
                assert PATTERNS[offered].search(mine) and PATTERNS[answer.card].search(mine)
                # the partner's offer DM, redrawn by their answer (collapsed: not their turn)
                theirs = message_text(next(m for m in partner_dms.history() if m.id == offer_dm.id))
                assert PATTERNS[offered].search(theirs) and PATTERNS[answer.card].search(theirs)
                # nobody else learns the cards: channel, other seats' new DMs, threads
                others = [s for s in range(4) if s not in (offerer, partner)]
                leaks = texts_since(world.channel, channel_count)
                for s in others:
                    p = player_of(world, session, s)
                    leaks += [message_text(m) for m in dm_of(p).history()]
                for index, th in enumerate(world.channel.threads):
                    viewer = player_of(world, session, game.teams[index][0])
                    leaks += [message_text(m) for m in th.history(viewer=viewer)]
                for card in swapped:
                    assert not any(PATTERNS[card].search(t) for t in leaks), card
            elif mode == "decline":
                await act(
                    world, session, next(a for a in legal if a.kind is ActionKind.DECLINE_SWAP)
                )
                # the offerer's live hand DM says so: no second DM (issue 18)
                count = len(dm_of(player_of(world, session, offerer)).history())
                text = message_text(live_dm(world, session, offerer))
                assert "declined your swap offer" in text
                assert len(dm_of(player_of(world, session, offerer)).history()) == count
            else:
                await world.env.advance_time(SWAP_TIMEOUT + 1)
                assert game.pending_offer is None
                assert game.to_move == offerer  # the turn goes on
                for s in (offerer, partner):
                    last = dm_of(player_of(world, session, s)).last_message.content
                    assert "lapsed" in last
            done[mode] += 1
            assert_no_leak(world, game)
            continue
        kinds = {a.kind for a in legal}
        if ActionKind.OFFER_SWAP in kinds and rng.random() < 0.7:
            choice = rng.choice([a for a in legal if a.kind is ActionKind.OFFER_SWAP])
        else:
            pool = [a for a in legal if a.kind is not ActionKind.OFFER_SWAP]
            choice = rng.choice(pool)
        await act(world, session, choice)
        if not game.is_over:
            assert_no_leak(world, game)
    assert min(done.values()) >= 1, done
    # R20 on the final result: team totals and the winning team
    await world.env.advance_time(1)
    result = game.result
    final = message_text(record_posts(world.env, world.channel)[-1])
    assert "Team A" in final and "Team B" in final
    for total in result.team_totals:
        assert str(total) in final
    # the threads are archived at the end
    for th in world.channel.threads:
        thread = await world.env.bot.fetch_channel(th.id)
        assert thread.archived and thread.locked


async def test_team_message_goes_to_the_team_thread_and_the_guard_blocks_card_names(world):
    session = await open_and_start(world, 4)
    alice = world.players[0]
    team = next(i for i, t in enumerate(session.game.teams) if 0 in t)
    th = next(
        t for t in world.channel.threads if session.message("team_thread", team).channel_id == t.id
    )
    r = await alice.slash(world.channel, "hats team message", text="keep the cookie in mind")
    assert r.ephemeral and "team thread" in r.response.content
    assert th.history(viewer=alice)[-1].content.endswith("keep the cookie in mind\u2069")
    count = len(th.history(viewer=alice))
    r = await alice.slash(world.channel, "hats team message", text="I hold a rouge, take it")
    assert r.ephemeral and "Not sent" in r.response.content and "rouge" in r.response.content
    assert len(th.history(viewer=alice)) == count  # nothing delivered


async def test_relay_when_private_threads_are_not_allowed(world):
    guild = world.guild
    locked = guild.create_text_channel(
        "no-threads",
        overwrites={guild.me: discord.PermissionOverwrite(create_private_threads=False)},
    )
    here = World(world.env, guild, locked, world.players)
    session = await open_and_start(here, 4)
    assert locked.threads == []
    notices = [m.content for m in bot_messages(world.env, locked)]
    assert any("/hats team message" in n for n in notices)
    alice = world.players[0]
    partner = player_of(world, session, session.game.partner(session.seat_of(alice.user.id)))
    r = await alice.slash(locked, "hats team message", text="let us play it safe")
    assert r.ephemeral and "Sent to your partner" in r.response.content
    assert dm_of(partner).last_message.content.endswith("let us play it safe\u2069")
    before = len(dm_of(partner).history())
    r = await alice.slash(locked, "hats team message", text="my card is a 5")
    assert "Not sent" in r.response.content and "(\u20685\u2069)" in r.response.content
    assert len(dm_of(partner).history()) == before


async def test_lobby_team_picks_seat_partners_opposite(world):
    alice, bob, carol, dave = world.players[:4]
    r = await alice.slash(world.channel, "hats new")
    lobby = r.response.message
    for p in (bob, carol, dave):
        await p.click(lobby, label="Join")
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    team_b = next(c for c in custom_ids(lobby) if c.endswith(":teamb"))
    await alice.click(lobby, custom_id=team_b)
    await bob.click(lobby, custom_id=team_b)  # the button now reads "Team B: alice"
    refused = await carol.click(lobby, custom_id=team_b)
    assert refused.ephemeral and "already has 2 players" in refused.response.content
    shown = message_text(world.channel.history()[-1])
    assert "Teams" in shown
    await alice.click(lobby, label="Start")
    session = await world.env.bot.games.session_in_channel(world.channel.id)
    ids = [s.user_id for s in session.seats]
    # team A (carol, dave) at seats 0 and 2; team B (alice, bob) at 1 and 3 (R5)
    assert {ids[0], ids[2]} == {carol.user.id, dave.user.id}
    assert {ids[1], ids[3]} == {alice.user.id, bob.user.id}
