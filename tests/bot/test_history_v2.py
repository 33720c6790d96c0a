"""`/hats replay`, `/hats stats` and `/hats history` as Components V2 layouts (issue 18), under
simcord, in English and German.

Layout as data: one container (the game and turn, the picture in a media gallery whose alt
text describes it, every hand and black hat's face, the turn's events), then ⏮ ◀ ▶ ⏭ as
persistent buttons. The replay shows every hand, so it never speaks of a hand or a black hat
the way the live table does (by its size or count only), and its last point shows every
seat's favourite hat; with 4 players the hands are grouped by team and the last point ranks
the teams, every member of the winning team with 🏆. Pictures off: the same in compact text.
Replays exist only of finished games of this server. A 4-player game shows in stats and
history by team: games played and won with each partner, the player's own mean score inside
the team; the teams ranked, both winners with 🏆.

Playing the 4-player game through the UI takes seconds, so it is played once per language
and one test checks, in turn, the replay with pictures (and after a restart), the replay
with pictures off, then stats and history.
"""

from __future__ import annotations

import random

import discord
import pytest

from engine import TieBreak
from history.replay import Replay
from tests.bot.helpers import alt_texts, message_text, v2_texts, walk_components
from tests.bot.language_support import set_client_locales
from tests.bot.test_hidden_info import PATTERNS
from tests.bot.test_table_v2 import fetch, kinds, start, step, tea_party
from texts.common import card_short, cards_short, type_name
from texts.history import decimal
from texts.table import card_words


def buttons(message) -> dict[str, bool]:
    """custom_id -> enabled, of every button."""
    return {
        c.custom_id: not c.disabled
        for c in walk_components(message.components)
        if isinstance(c, discord.Button)
    }


def title(tr, game_id: int, turn: int, turns: int) -> str:
    return tr("Replay #{game} · turn {turn}/{turns}", game=game_id, turn=turn, turns=turns)


def hiding_words(tr) -> list[str]:
    """How the live table speaks of what it may not show (texts/table.py): a hand only
    by its size, black hats only by their count. The replay shows both, so its texts never
    say these (its picture before the last point is the public table, whose alt text does)."""
    return [tr.plural("{n} card in hand", "{n} cards in hand", n) for n in range(20)] + [
        tr("Black hats: {hats}", hats=n) for n in range(20)
    ]


def hiding(text: str, tr) -> list[str]:
    """The :func:`hiding_words` found in ``text`` (empty: none)."""
    return [w for w in hiding_words(tr) if w in text]


@pytest.fixture(params=["en-US", "de"])
async def finished(request, simcord_env):
    """A 4-player game played to its end through the UI; on the way, a replay of it is refused."""
    env = simcord_env
    guild, channel, players = tea_party(env, request.param)
    _, session = await start(env, channel, players)
    rng = random.Random(11)
    for _ in range(5):
        await step(session, players, rng)
    # hidden information: no replay of a live game, its hands stay secret
    refused = await players[1].slash(channel, "hats replay", game=session.id)
    assert refused.ephemeral and f"#{session.id}" in refused.response.content
    for seat in range(4):
        for card in session.game.hands[seat]:
            assert not PATTERNS[card].search(refused.response.content), (
                f"the refusal of a live game's replay shows seat {seat}'s {card}"
            )
    while not session.game.is_over:
        await step(session, players, rng)
    await env.advance_time(1)
    return env, guild, channel, players, session


async def _replay(player, channel, game_id):
    posted = await player.slash(channel, "hats replay", game=game_id)
    assert not posted.ephemeral, "a finished game's replay is public"
    return fetch(channel, posted.response.id)


def _names(env, session, seats):
    return [f"<@{session.seats[s].user_id}>" for s in seats]


async def test_a_finished_team_game_in_replay_stats_and_history(finished, make_bot, monkeypatch):
    """One game per language, checked in turn (the order matters: the replay with pictures
    restarts the bot, then pictures are switched off, then the players' locales are set)."""
    await _check_replay_with_pictures(finished, make_bot)
    await _check_replay_with_pictures_off(finished)
    await _check_stats_and_history(finished, monkeypatch)


async def _check_replay_with_pictures(finished, make_bot):
    """One V2 container with every hand by team; the end ranks the teams; buttons survive a
    restart."""
    env, guild, channel, players, session = finished
    tr = env.bot.public_tr(guild.id)
    game_id = session.id
    message = await _replay(players[2], channel, game_id)
    assert message.flags.value & (1 << 15) and not message.embeds, "replay: not Components V2"
    assert kinds(message)[0] == "Container", f"replay: {kinds(message)}"
    assert kinds(message).count("MediaGalleryComponent") == 1, f"replay: {kinds(message)}"
    # the navigation: the persistent buttons of before, nothing to go back to at the deal
    ids = {f"hats:rp:{game_id}:0:{op}": op in "nl" for op in "fpnl"}
    assert buttons(message) == ids, "replay at the deal: ⏮ ◀ disabled, ▶ ⏭ enabled"
    # the picture: the table at the deal, described in its alt text (every slot, every name)
    (alt,) = alt_texts(message)
    (picture,) = message.attachments
    assert picture.filename == "table.png" and picture.description == alt and len(alt) <= 1024
    replay = Replay(await env.bot.store.results.get_record(game_id))
    last = replay.last
    texts = v2_texts(message)
    text = "\n".join(texts)
    assert texts[0].startswith(f"**{title(tr, game_id, 0, last)}**"), texts[0]
    deal = replay.at(0).game
    for slot, card in enumerate(deal.board, start=1):
        assert f"{slot} {type_name(card.type, tr)} {card.value}" in alt, f"slot {slot} in {alt}"
    for seat in session.seats:
        assert env.bot.names.get(seat.user_id, "") in alt, f"{seat.user_id}'s name in {alt}"
    # every dealt hand, once, one a line in seat order (the picture marks the teams: no
    # team headings, no bullets; issue 29.17)
    lines = text.splitlines()
    for seat in range(4):
        hand = cards_short(deal.hands[seat])
        assert sum(hand in line for line in lines) == 1, f"seat {seat}'s hand {hand} once"
    assert f"**{tr('Team A')}**" not in lines and not any(x.startswith("- ") for x in lines)
    # plain names (issue 36.9: a mention pill took a line of its own on a phone)
    rows = [
        next(i for i, line in enumerate(lines) if name in line.split(": ")[0])
        for name in (env.bot.names[session.seats[s].user_id] for s in range(4))
    ]
    assert rows == sorted(rows) and rows[-1] - rows[0] == 3, "the hands: seats 1-4, one a line"
    # never the table's words for what it hides, no fact twice, nothing of the picture's
    # (the board) in text
    assert not hiding(text, tr), f"replay at the deal speaks as the live table: {text}"
    assert len(lines) == len(set(lines)), f"a line twice: {lines}"
    assert tr("Tea table") not in text, "the board is in the picture, not in the text"
    # step to the last point: the final board and scores, the teams ranked in the alt text
    await players[0].click(message, custom_id=f"hats:rp:{game_id}:0:l")
    end = fetch(channel, message.id)
    assert [a.filename for a in end.attachments] == ["end.png"], "the last point: end picture"
    ends = {f"hats:rp:{game_id}:{last}:{op}": op in "fp" for op in "fpnl"}
    assert buttons(end) == ends, "replay at the end: ⏮ ◀ enabled, ▶ ⏭ disabled"
    result = session.game.result
    (alt,) = alt_texts(end)
    names = {s: env.bot.names[session.seats[s].user_id] for s in range(4)}
    winners = [line for line in alt.splitlines() if line.startswith("🏆")]
    shared = result.tie_break is TieBreak.SHARED
    assert len(winners) == len(result.winners) == (4 if shared else 2), f"🏆 lines: {winners}"
    for seat in result.winners:
        assert any(names[seat] in line for line in winners), f"no 🏆 for seat {seat}: {alt}"
    teams = (tr("Team A"), tr("Team B"))
    team_lines = [i for i, line in enumerate(alt.splitlines()) if line.startswith(teams)]
    assert len(team_lines) == 2, f"two team lines in {alt}"
    first_team = alt.splitlines()[team_lines[0]]
    assert first_team.startswith(tr("Team A") if result.winners[0] % 2 == 0 else tr("Team B"))
    # every hand is shown at the end: each seat's favourite hat (its last card, R14, R21)
    for seat in range(4):
        favourite = tr("Favourite hat: {card}", card=card_words(result.favourites[seat], tr))
        (line,) = [x for x in alt.splitlines() if names[seat] in x]
        assert favourite in line, f"seat {seat}'s favourite ({favourite}) not in: {line}"
    head = v2_texts(end)[0]
    # the end picture lists each team's players: the winner line names the team only
    assert "🏆" in head and not any(n in head for n in _names(env, session, range(4))), head
    everything = message_text(end)
    assert not hiding(everything, tr), f"the replay's end speaks as the live table: {everything}"
    # the buttons still work after a restart (DynamicItems)
    await env.restart_bot(make_bot())
    await players[3].click(end, custom_id=f"hats:rp:{game_id}:{last}:p")
    back = fetch(channel, message.id)
    assert v2_texts(back)[0].startswith(f"**{title(tr, game_id, last - 1, last)}**"), (
        f"◀ after a restart: {v2_texts(back)[0]}"
    )
    assert [a.filename for a in back.attachments] == ["table.png"], "before the end: table"
    before = "\n".join(v2_texts(back))
    assert not hiding(before, tr), f"the replay before the end speaks as the table: {before}"


async def _check_replay_with_pictures_off(finished):
    """The same replay in compact text, the teams ranked at the end."""
    env, guild, channel, players, session = finished
    tr = env.bot.public_tr(guild.id)
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    assert (await boss.slash(channel, "hats settings pictures", on=False)).ephemeral
    message = await _replay(players[1], channel, session.id)
    assert message.attachments == [], "pictures off: no attachment"
    assert "MediaGalleryComponent" not in kinds(message), "pictures off: no gallery"
    text = "\n".join(v2_texts(message))
    lines = text.splitlines()
    assert len(lines) == len(set(lines)), f"pictures off, a line twice: {lines}"
    assert not hiding(text, tr), f"pictures off, the replay speaks as the live table: {text}"
    # one line per player: hand, black hats, collection (the picture is not there)
    for name in _names(env, session, range(4)):
        collection = tr("Collection: {cards}", cards="").strip()
        count = sum(name in line and collection in line for line in lines)
        assert count == 1, f"pictures off: {name}'s line with the collection, {count} times"
    # the last point: the results by team, the winning team first, 🏆 on every winner
    await players[1].click(message, custom_id=f"hats:rp:{session.id}:0:l")
    end = fetch(channel, message.id)
    assert end.attachments == [] and "MediaGalleryComponent" not in kinds(end), "pictures off"
    result = session.game.result
    body = v2_texts(end)[1].splitlines()
    team_rows = [i for i, line in enumerate(body) if line.lstrip("🏆 ").startswith("**")]
    assert len(team_rows) == 2, f"pictures off, two team rows in {body}"
    first = body[team_rows[0]]
    winner_team = tr("Team A") if result.winners[0] % 2 == 0 else tr("Team B")
    assert first.startswith("🏆") and winner_team in first, f"winning team first: {body}"
    for seat in result.winners:
        mention = f"<@{session.seats[seat].user_id}>"
        assert any(mention in line and line.startswith("- 🏆") for line in body), (
            f"pictures off, no 🏆 for seat {seat}: {body}"
        )
    # every hand is shown at the end: each seat's favourite hat on its line
    for seat in range(4):
        mention = f"<@{session.seats[seat].user_id}>"
        favourite = tr("Favourite hat: {card}", card=card_short(result.favourites[seat]))
        (line,) = [x for x in body if mention in x]
        assert favourite in line, f"pictures off, seat {seat}'s {favourite} not in: {line}"
    everything = "\n".join(v2_texts(end))
    assert not hiding(everything, tr), f"pictures off, the end speaks as the table: {everything}"


async def _check_stats_and_history(finished, monkeypatch):
    """/hats stats and /hats history show the 4-player game by team."""
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
    assert answer.ephemeral, "/hats stats is private"
    message = answer.response.message
    assert message.flags.value & (1 << 15) and not message.embeds, "stats: not Components V2"
    assert kinds(message)[0] == "Container", f"stats: {kinds(message)}"
    texts = v2_texts(message)
    # the team games' first line says what it counts (no heading, issue 36.9)
    four = tr("**Team games:** {won}/{played} ({rate})", won=won, played=1, rate="")
    (team,) = [t for t in texts if t.startswith(four.split("(")[0])]
    assert ("Teampartien" in team) is (locale == "de"), f"stats in {locale}: {team}"
    count = sum(four.split("(")[0] in t for t in texts)
    assert count == 1, f"stats: the 4-player games said {count} times"
    own = decimal(result.scores[0].total, tr)
    total = decimal(result.team_totals[0], tr)
    mean = tr("Your average inside the team: {own} of {team} points", own=own, team=total)
    assert mean in team, f"stats: {mean} not in {team}"
    mention = f"<@{partner}>"
    partnered = tr("With {partner}: {won}/{played} won", partner=mention, won=won, played=1)
    assert partnered in team, f"stats: {partnered} not in {team}"
    lines = [line for t in texts for line in t.splitlines()]
    assert len(lines) == len(set(lines)), f"stats, a line twice: {lines}"
    # /hats history: the teams ranked, the winning team first, 🏆 on both its members
    answer = await anna.slash(channel, "hats history")
    message = answer.response.message
    assert kinds(message)[0] == "Container" and "ActionRow" in kinds(message), kinds(message)
    (line,) = [x for x in message_text(message).splitlines() if f"**#{session.id}**" in x]
    winning = 0 if result.winners[0] % 2 == 0 else 1
    names = (tr("Team A"), tr("Team B"))
    first = f"🏆 **{names[winning]} {result.team_totals[winning]}**"
    assert line.index(first) < line.index(f"**{names[1 - winning]} "), f"history: {line}"
    for seat in result.winners:
        score = f"🏆 <@{session.seats[seat].user_id}>: {result.scores[seat].total}"
        assert score in line, f"history: {score} not in {line}"
    assert line.count("🏆") == 1 + len(result.winners), f"history, 🏆 count: {line}"
