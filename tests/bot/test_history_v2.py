"""`/hats replay`, `/hats stats` and `/hats history` as Components V2 layouts (issue 18), under
simcord, in English and German.

Layout as data: one container (the game and turn, the picture in a media gallery whose alt
text describes it, every hand and black hat's face, the turn's events), then ⏮ ◀ ▶ ⏭ as
persistent buttons. The replay shows every hand, so nothing calls the favourite hidden; with
4 players the hands are grouped by team and the last point ranks the teams, every member of
the winning team with 🏆. Pictures off: the same in compact text. Replays exist only of
finished games of this server. A 4-player game shows in stats and history by team: games
played and won with each partner, the player's own mean score inside the team; the teams
ranked, both winners with 🏆.
"""

from __future__ import annotations

import random

import discord
import pytest

from cogs.render.common import cards_short, type_name
from cogs.render.history import decimal
from engine import TieBreak
from history.replay import Replay
from tests.bot.helpers import alt_texts, message_text, v2_texts, walk_components
from tests.bot.language_support import set_client_locales
from tests.bot.test_hidden_info import PATTERNS
from tests.bot.test_table_v2 import fetch, kinds, start, step


def buttons(message) -> dict[str, bool]:
    """custom_id -> enabled, of every button."""
    return {
        c.custom_id: not c.disabled
        for c in walk_components(message.components)
        if isinstance(c, discord.Button)
    }


def title(tr, game_id: int, turn: int, turns: int) -> str:
    return tr("Replay of game #{game}: turn {turn}/{turns}", game=game_id, turn=turn, turns=turns)


def hidden_wording(tr) -> list[str]:
    """Every way the table says a favourite is hidden (its provisional score line)."""
    return [
        tr.plural(
            "Provisional: {n} point (favourite hidden)",
            "Provisional: {n} points (favourite hidden)",
            n,
        )
        for n in range(-40, 90)
    ]


@pytest.fixture(params=["en-US", "de"])
async def finished(request, simcord_env):
    """A 4-player game played to its end through the UI; on the way, a replay of it is refused."""
    env = simcord_env
    guild = env.create_guild("Tea party", preferred_locale=request.param)
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(n)) for n in ("anna", "bruno", "carla", "dario")]
    _, session = await start(env, channel, players)
    rng = random.Random(11)
    for _ in range(5):
        await step(session, players, rng)
    # hidden information: no replay of a live game, its hands stay secret
    refused = await players[1].slash(channel, "hats replay", game=session.id)
    assert refused.ephemeral and f"#{session.id}" in refused.response.content
    for seat in range(4):
        for card in session.game.hands[seat]:
            assert not PATTERNS[card].search(refused.response.content)
    while not session.game.is_over:
        await step(session, players, rng)
    await env.advance_time(1)
    return env, guild, channel, players, session


async def _replay(player, channel, game_id):
    posted = await player.slash(channel, "hats replay", game=game_id)
    assert not posted.ephemeral
    return fetch(channel, posted.response.id)


def _names(env, session, seats):
    return [f"<@{session.seats[s].user_id}>" for s in seats]


async def test_a_replay_is_one_v2_container_with_every_hand_by_team(finished, make_bot):
    env, guild, channel, players, session = finished
    tr = env.bot.public_tr(guild.id)
    game_id = session.id
    message = await _replay(players[2], channel, game_id)
    assert message.flags.value & (1 << 15) and not message.embeds  # IS_COMPONENTS_V2
    assert kinds(message)[0] == "Container"
    assert kinds(message).count("MediaGalleryComponent") == 1
    # the navigation: the persistent buttons of before, nothing to go back to at the deal
    ids = {f"hats:rp:{game_id}:0:{op}": op in "nl" for op in "fpnl"}
    assert buttons(message) == ids
    # the picture: the table at the deal, described in its alt text (every slot, every name)
    (alt,) = alt_texts(message)
    (picture,) = message.attachments
    assert picture.filename == "table.png" and picture.description == alt and len(alt) <= 1024
    replay = Replay(await env.bot.store.results.get_record(game_id))
    last = replay.last
    texts = v2_texts(message)
    text = "\n".join(texts)
    assert texts[0].startswith(f"**{title(tr, game_id, 0, last)}**")
    deal = replay.at(0).game
    for slot, card in enumerate(deal.board, start=1):
        assert f"{slot} {type_name(card.type, tr)} {card.value}" in alt
    for seat in session.seats:
        assert env.bot.names.get(seat.user_id, "") in alt
    # every dealt hand, once, grouped by team (Team A: seats 1 and 3, then Team B)
    lines = text.splitlines()
    for seat in range(4):
        hand = cards_short(deal.hands[seat])
        assert sum(hand in line for line in lines) == 1
    team_a, team_b = (lines.index(f"**{tr(t)}**") for t in ("Team A", "Team B"))

    a0, b0, a1, b1 = (
        next(i for i, line in enumerate(lines) if name in line and i > team_a)
        for name in _names(env, session, range(4))
    )
    assert team_a < a0 < a1 < team_b < b0 < b1
    assert tr("The game is over, so this replay shows every hand.") in text
    # no favourite called hidden, no fact twice, nothing of the picture's (the board) in text
    everything = message_text(message)
    assert not any(w in everything for w in hidden_wording(tr))
    assert len(lines) == len(set(lines))
    assert tr("Tea table") not in text
    # step to the last point: the final board and scores, the teams ranked in the alt text
    await players[0].click(message, custom_id=f"hats:rp:{game_id}:0:l")
    end = fetch(channel, message.id)
    assert [a.filename for a in end.attachments] == ["end.png"]
    assert buttons(end) == {f"hats:rp:{game_id}:{last}:{op}": op in "fp" for op in "fpnl"}
    result = session.game.result
    (alt,) = alt_texts(end)
    names = {s: env.bot.names[session.seats[s].user_id] for s in range(4)}
    winners = [line for line in alt.splitlines() if line.startswith("🏆")]
    assert (
        len(winners) == len(result.winners) == (2 if result.tie_break is not TieBreak.SHARED else 4)
    )
    for seat in result.winners:
        assert any(names[seat] in line for line in winners)
    teams = (tr("Team A"), tr("Team B"))
    team_lines = [i for i, line in enumerate(alt.splitlines()) if line.startswith(teams)]
    assert len(team_lines) == 2
    first_team = alt.splitlines()[team_lines[0]]
    assert first_team.startswith(tr("Team A") if result.winners[0] % 2 == 0 else tr("Team B"))
    head = v2_texts(end)[0]
    assert "🏆" in head and all(n in head for n in _names(env, session, result.winners))
    everything = message_text(end)
    assert not any(w in everything for w in hidden_wording(tr))
    # the buttons still work after a restart (DynamicItems)
    await env.restart_bot(make_bot())
    await players[3].click(end, custom_id=f"hats:rp:{game_id}:{last}:p")
    back = fetch(channel, message.id)
    assert v2_texts(back)[0].startswith(f"**{title(tr, game_id, last - 1, last)}**")
    assert [a.filename for a in back.attachments] == ["table.png"]


async def test_pictures_off_the_replay_is_compact_text_with_teams_ranked(finished):
    env, guild, channel, players, session = finished
    tr = env.bot.public_tr(guild.id)
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    assert (await boss.slash(channel, "hats settings pictures", on=False)).ephemeral
    message = await _replay(players[1], channel, session.id)
    assert message.attachments == [] and "MediaGalleryComponent" not in kinds(message)
    text = "\n".join(v2_texts(message))
    lines = text.splitlines()
    assert len(lines) == len(set(lines))
    assert not any(w in message_text(message) for w in hidden_wording(tr))
    # one line per player: hand, black hats, collection (the picture is not there)
    for name in _names(env, session, range(4)):
        collection = tr("Collection: {cards}", cards="").strip()
        assert sum(name in line and collection in line for line in lines) == 1
    # the last point: the results by team, the winning team first, 🏆 on every winner
    await players[1].click(message, custom_id=f"hats:rp:{session.id}:0:l")
    end = fetch(channel, message.id)
    assert end.attachments == [] and "MediaGalleryComponent" not in kinds(end)
    result = session.game.result
    body = v2_texts(end)[1].splitlines()
    team_rows = [i for i, line in enumerate(body) if line.lstrip("🏆 ").startswith("**")]
    assert len(team_rows) == 2
    first = body[team_rows[0]]
    winner_team = tr("Team A") if result.winners[0] % 2 == 0 else tr("Team B")
    assert first.startswith("🏆") and winner_team in first
    for seat in result.winners:
        mention = f"<@{session.seats[seat].user_id}>"
        assert any(mention in line and line.startswith("- 🏆") for line in body)


async def test_stats_and_history_show_a_team_game_by_team(finished, monkeypatch):
    env, guild, channel, players, session = finished
    locale = env.bot.public_tr(guild.id).locale
    set_client_locales(monkeypatch, {p.user.id: locale for p in players})
    tr = env.bot.public_tr(guild.id)
    result = session.game.result
    anna = next(p for p in players if p.user.id == session.seats[0].user_id)
    partner = session.seats[2].user_id  # R5: seats 0 and 2 are Team A
    won = int(0 in result.winners)
    # /hats stats: privately, one container; the team games in their own block, said once
    answer = await anna.slash(channel, "hats stats")
    assert answer.ephemeral
    message = answer.response.message
    assert message.flags.value & (1 << 15) and not message.embeds
    assert kinds(message)[0] == "Container"
    texts = v2_texts(message)
    (team,) = [t for t in texts if t.startswith(f"**{tr('Team games')}**")]
    assert ("Teampartien" in team) is (locale == "de")
    four = tr("{seats} players: {won}/{played} ({rate})", seats=4, won=won, played=1, rate="")
    assert four.split("(")[0] in team
    assert sum(four.split("(")[0] in t for t in texts) == 1  # not in the games block again
    own = decimal(result.scores[0].total, tr)
    total = decimal(result.team_totals[0], tr)
    assert tr("Your average inside the team: {own} of {team} points", own=own, team=total) in team
    mention = f"<@{partner}>"
    assert tr("With {partner}: {won}/{played} won", partner=mention, won=won, played=1) in team
    lines = [line for t in texts for line in t.splitlines()]
    assert len(lines) == len(set(lines))
    # /hats history: the teams ranked, the winning team first, 🏆 on both its members
    answer = await anna.slash(channel, "hats history")
    message = answer.response.message
    assert kinds(message)[0] == "Container" and "ActionRow" in kinds(message)
    (line,) = [x for x in message_text(message).splitlines() if f"**#{session.id}**" in x]
    winning = 0 if result.winners[0] % 2 == 0 else 1
    names = (tr("Team A"), tr("Team B"))
    first = f"🏆 **{names[winning]} {result.team_totals[winning]}**"
    assert line.index(first) < line.index(f"**{names[1 - winning]} ")
    for seat in result.winners:
        assert f"🏆 <@{session.seats[seat].user_id}>: {result.scores[seat].total}" in line
    assert line.count("🏆") == 1 + len(result.winners)
