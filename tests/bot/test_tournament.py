"""A Swiss tournament through the Discord surface (issue 30), under simcord.

Seven players, three rounds, to the end: sign-up by buttons, tables of 3+2+2 in threads named
"Round r · Table t", games played by clicks on the hand DMs, one player absent for a round
(the turn timer hands their turns to the AI; the seat keeps its points), a bot restart
between two rounds and one inside a round, one drop, the final standings with the podium,
compared with a table computed here from the games' results.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from data import TournamentStatus
from tests.bot.helpers import bot_messages, play_one, v2_texts

pytestmark = pytest.mark.simcord(settle_timeout=30.0)
"""Work in the thread pool (a round's first deals, the AI's moves) takes real time: on a loaded
2-core machine more than simcord's default 5 s of settling."""

TIMER = 30
"""The tournament's turn timer, seconds."""
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")


def textual(bot):
    """``bot`` without pictures (hands and tables in text): these tests are about rounds."""
    bot.pictures.enabled = False
    return bot


class Night:
    """A server with one channel and seven members; alice owns the server and hosts."""

    def __init__(self, env, count: int = 7) -> None:
        self.env = env
        textual(env.bot)
        users = [env.create_user(name) for name in NAMES[:count]]
        self.guild = env.create_guild("Game night", owner=users[0])
        self.channel = self.guild.create_text_channel("hats")
        self.players = [self.guild.add_member(u) for u in users]
        self.by_id = {p.user.id: p for p in self.players}

    @property
    def bot(self):
        return self.env.bot

    @property
    def cog(self):
        return self.env.bot.get_cog("TournamentCog")

    async def view(self, tid: int):
        """The stored tournament (the bot's own service, read as an oracle)."""
        return await self.cog.service.view(tid)

    def message(self, message_id: int):
        """A message of the channel as it is now."""
        return next(m for m in self.channel.history() if m.id == message_id)

    def thread(self, name: str):
        return [t for t in self.channel.threads if t.name == name]


@pytest.fixture
async def night(simcord_env):
    return Night(simcord_env)


async def open_tournament(night, **options):
    """Alice opens the tournament; everyone else joins by the Join button."""
    alice = night.players[0]
    opened = await alice.slash(night.channel, "hats tournament new", **options)
    assert not opened.ephemeral, opened.response.content
    message = opened.response.message
    row = await night.bot.store.tournaments.active_in_channel(night.channel.id)
    for player in night.players[1:]:
        await player.click(night.message(message.id), label="Join")
    return row.id, message.id


def expected_points(places: tuple[int, ...]) -> list[Fraction]:
    """Points of one game computed here: (opponents ahead + ½ per tie) ÷ (size − 1)."""
    n = len(places)
    return [
        Fraction(sum(1 for o in places if o > p) * 2 + sum(1 for o in places if o == p) - 1, 2)
        / (n - 1)
        for p in places
    ]


async def play_round(night, tid: int, rng: random.Random, absent=frozenset()) -> None:
    """Every game of the current round to its end by clicks; ``absent`` players never click.

    Games without an absent player are played first, so the turn timer that hands an absent
    player's turns to the AI runs out while no other game waits for a move.
    """
    view = await night.view(tid)
    tables = view.round_tables(view.tournament.round)
    assert all(t.game_id for t in tables)
    tables.sort(key=lambda t: bool(set(t.players) & absent))
    for table in tables:
        while True:
            session = await night.bot.games.session(table.game_id)
            if session is None or session.game.is_over:
                break
            seat = session.game.to_move
            if session.seats[seat].user_id in absent:
                await night.env.advance_time(TIMER + 1)  # the AI plays the turn
            else:
                await play_one(night, session, rng)


@pytest.fixture
def rounds() -> int:
    """The rounds of the night below: 3 here, where the pairings over three rounds are the
    point; tests/bot/test_postgres_bot.py plays 2 (the same surface on the other store: a
    restart between two rounds, and inside the last one with an absent player and a drop)."""
    return 3


@pytest.mark.simcord(settle_timeout=30.0)  # also when run again on PostgreSQL
async def test_seven_players_three_rounds_to_the_end(night, make_bot, rounds):
    env = night.env
    rng = random.Random(30)
    alice, bob = night.players[:2]
    tid, message_id = await open_tournament(
        night, name="Friday *night*", rounds=rounds, timer=TIMER
    )
    signup = night.message(message_id)
    text = "\n".join(v2_texts(signup))
    assert "Friday \\*night\\*" in text and "(7/64)" in text  # escaped, every entrant listed
    assert (await bob.click(signup, label="Start")).ephemeral  # only the host starts
    await alice.click(signup, label="Start")

    met: set[frozenset[int]] = set()
    absent = night.players[3].user.id  # dave never clicks in round 2
    dropped = night.players[6].user.id
    for round_ in range(1, rounds + 1):
        view = await night.view(tid)
        assert (
            view.tournament.round == round_ and view.tournament.status is TournamentStatus.RUNNING
        )
        tables = view.round_tables(round_)
        assert [len(t.players) for t in tables] == [3, 2, 2]
        assert sorted(p for t in tables for p in t.players) == sorted(view.active_players)
        for t in tables:  # one public thread per table, named after it, holding its game
            (thread,) = night.thread(f"Round {round_} · Table {t.tab}")
            assert thread.id == t.thread_id
            game = await night.bot.store.games.get_game(t.game_id)
            assert game.channel_id == thread.id
            assert any(m.author.id == env.bot.user.id for m in thread.history())  # the table
        # the round's announcement: every table with its thread, once
        posts = [
            m
            for m in bot_messages(env, night.channel)
            if f"round {round_} of {rounds}" in "\n".join(v2_texts(m))
        ]
        assert len(posts) == 1
        announced = "\n".join(v2_texts(posts[0]))
        assert all(f"<#{t.thread_id}>" in announced for t in tables)
        # no repeat opponent where a grouping without one exists (7 players, 3 rounds: none)
        pairs = {frozenset((a, b)) for t in tables for a in t.players for b in t.players if a < b}
        assert not pairs & met
        met |= pairs
        if round_ == 2:  # a restart inside a round: old hand DMs still work
            session = await night.bot.games.session(tables[1].game_id)
            await play_one(night, session, rng)
            await env.restart_bot(textual(make_bot()))
        if round_ == rounds:  # the host drops grace: her game goes on, no later round
            dropping = await alice.slash(
                night.channel, "hats tournament drop", player=night.players[6].user
            )
            assert dropping.ephemeral and "out of the next rounds" in dropping.response.content
        await play_round(
            night, tid, rng, absent=frozenset({absent}) if round_ == 2 else frozenset()
        )
        if round_ == 1:  # a restart between a round's last game and the next round
            await env.restart_bot(textual(make_bot()))
        if round_ < rounds:
            paused = "\n".join(v2_texts(night.message(message_id)))
            assert f"Round {round_} is over" in paused
            await env.advance_time(61)  # the 60 s pause

    view = await night.view(tid)
    assert view.tournament.status is TournamentStatus.FINISHED
    # dave's round-2 game was played by the AI on his seat, which kept its points
    dave_game = next(t for t in view.round_tables(2) if absent in t.players)
    steps = night.bot.store.steps
    seqs = range(await steps.step_count(dave_game.game_id))
    actors = [(await steps.stored_step(dave_game.game_id, seq))[1] for seq in seqs]
    assert "auto" in actors
    result = next(r for r in view.results if r.round == 2 and absent in r.players)
    assert result.players.count(absent) == 1
    # standings computed here from the games' results
    points = {p: Fraction(0) for p in (e.user_id for e in view.entrants)}
    scores = dict.fromkeys(points, 0)
    opponents: dict[int, list[int]] = {p: [] for p in points}
    for r in await night.bot.store.tournaments.results(tid):
        for player, got, total in zip(r.players, expected_points(r.places), r.totals, strict=True):
            points[player] += got
            scores[player] += total
            opponents[player] += [o for o in r.players if o != player]
    buchholz = {p: sum((points[o] for o in opponents[p]), Fraction(0)) for p in points}
    signup = {e.user_id: e.signup for e in view.entrants}
    table = sorted(points, key=lambda p: (-points[p], -buchholz[p], -scores[p], signup[p]))
    assert [s.player for s in view.standings] == table
    assert [s.points for s in view.standings] == [points[p] for p in table]
    assert next(s for s in view.standings if s.player == dropped).dropped
    assert view.tournament.winner_id == table[0]
    # the final standings: posted once, winner with 🏆, the podium
    finals = [
        m for m in bot_messages(env, night.channel) if "final standings" in "\n".join(v2_texts(m))
    ]
    assert len(finals) == 1
    final = "\n".join(v2_texts(finals[0]))
    assert f"🏆 <@{table[0]}> wins the tournament!" in final
    assert all(f"{medal} <@{p}>" in final for medal, p in zip("🥇🥈🥉", table, strict=False))
    # every table thread archived; a restart now posts nothing again
    threads = night.channel.threads
    assert len(threads) == 3 * rounds and all(
        night.env.backend.channels[t.id].thread_metadata.archived for t in threads
    )
    before = len(bot_messages(env, night.channel))
    await env.restart_bot(textual(make_bot()))
    assert len(bot_messages(env, night.channel)) == before
    # standings privately, then shared; the record as JSON
    mine = await bob.slash(night.channel, "hats tournament standings")
    assert mine.ephemeral and "◀" in "\n".join(v2_texts(mine.response.message))
    shared = await bob.slash(night.channel, "hats tournament standings", share=True)
    assert not shared.ephemeral
    record = await bob.slash(night.channel, "hats tournament record")
    assert record.ephemeral
    data = json.loads(await record.response.attachments[0].read())
    assert data["format"] == "hats-tournament/1" and len(data["rounds"]) == rounds
    # stats count it, history lists it, the rules explain it
    winner = night.by_id[table[0]]
    stats = await winner.slash(night.channel, "hats stats")
    assert "1 tournament played, 1 won" in "\n".join(v2_texts(stats.response.message))
    history = await bob.slash(night.channel, "hats history")
    listed = "\n".join(v2_texts(history.response.message))
    assert f"**#{tid}** \u2068Friday \\*night\\*\u2069" in listed  # escaped, isolated
    assert f"won by <@{table[0]}>" in listed
    rules = await bob.slash(night.channel, "hats rules")
    assert "Buchholz" in "\n".join(v2_texts(rules.followups[-1].message))
