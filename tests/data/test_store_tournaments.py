"""Swiss tournaments in the store (migration 0011), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from data import (
    ChannelBusy,
    EntrantSpec,
    SeatSpec,
    TimerChange,
    TournamentBusy,
    TournamentClosed,
    TournamentFull,
    TournamentStatus,
    entries_from_game,
    open_store,
)
from engine import Game, GameConfig, to_record
from engine.policies import RandomPolicy, play_out

GUILD, CHANNEL, HOST = 1, 10, 100


async def open_with(store, players=(100, 101, 102), **kwargs):
    row = await store.tournaments.create(
        GUILD, CHANNEL, HOST, "Friday", 3, {"turn_timer": 60}, at=1.0, **kwargs
    )
    for i, p in enumerate(players):
        assert await store.tournaments.join(
            row.id, EntrantSpec(p, 20.0 - i, i > 1), limit=64, at=2.0 + i
        )
    return row


async def test_a_tournament_opens_with_its_timed_start_and_one_per_channel(store):
    row = await open_with(store, start_at=500.0, timers=[TimerChange("tournament_start", 500.0)])
    assert row.status is TournamentStatus.OPEN and row.round == 0 and row.start_at == 500.0
    assert row.settings == {"turn_timer": 60}
    timer = await store.timers.get_timer("tournament_start", tournament_id=row.id)
    assert timer is not None and timer.due_at == 500.0 and timer.tournament_id == row.id
    claimed = await store.timers.claim_due(600.0, "me", 60.0)
    assert [(t.kind, t.tournament_id, t.game_id, t.lobby_id) for t in claimed] == [
        ("tournament_start", row.id, None, None)
    ]
    with pytest.raises(TournamentBusy):
        await store.tournaments.create(GUILD, CHANNEL, 200, "Other", 3, at=2.0)
    assert (await store.tournaments.active_in_channel(CHANNEL)).id == row.id
    # another channel may hold one, and once cancelled the channel is free again
    await store.tournaments.create(GUILD, CHANNEL + 1, 200, "Other", 3, at=2.0)
    assert await store.tournaments.cancel(row.id, at=3.0)
    assert await store.timers.get_timer("tournament_start", tournament_id=row.id) is None
    assert not await store.tournaments.cancel(row.id, at=4.0)
    await store.tournaments.create(GUILD, CHANNEL, 200, "Again", 3, at=5.0)


async def test_sign_up_in_order_leave_limit_and_closed_after_the_start(store, target):
    row = await open_with(store)
    assert not await store.tournaments.join(row.id, EntrantSpec(101), limit=64)  # twice: no
    assert await store.tournaments.withdraw(row.id, 101)
    assert not await store.tournaments.withdraw(row.id, 101)
    assert await store.tournaments.join(row.id, EntrantSpec(103), limit=3)
    with pytest.raises(TournamentFull):
        await store.tournaments.join(row.id, EntrantSpec(104), limit=3)
    entrants = await store.tournaments.entrants(row.id)
    assert [(e.user_id, e.signup) for e in entrants] == [(100, 0), (102, 2), (103, 3)]
    assert entrants[0].rating == 20.0 and not entrants[0].provisional and entrants[1].provisional
    assert await store.tournaments.start_round(row.id, 1, [[100, 102, 103]], at=10.0)
    with pytest.raises(TournamentClosed):
        await store.tournaments.join(row.id, EntrantSpec(105), limit=64)
    with pytest.raises(TournamentClosed):
        await store.tournaments.withdraw(row.id, 100)
    assert await store.tournaments.drop(row.id, 102)
    assert not await store.tournaments.drop(row.id, 102)
    await store.close()
    async with await open_store(target) as again:  # committed: survives a reopen
        entrants = await again.tournaments.entrants(row.id)
        assert [e.dropped for e in entrants] == [False, True, False]
        assert (await again.tournaments.get(row.id)).status is TournamentStatus.RUNNING


def finished(game_config, seed=3):
    game = Game.new(game_config)
    play_out(game, RandomPolicy(seed))
    return game


async def test_rounds_and_their_games_are_stored_once_even_when_asked_twice(store):
    row = await open_with(store, players=(100, 101, 102, 103, 104))
    tables = [[100, 103, 104], [101, 102]]
    step = [TimerChange("tournament_check", 99.0)]
    assert await store.tournaments.start_round(row.id, 1, tables, timers=step, at=10.0)
    assert not await store.tournaments.start_round(row.id, 1, tables, at=11.0)  # a repeat
    assert not await store.tournaments.start_round(row.id, 3, tables, at=11.0)  # not next
    stored = await store.tournaments.tables(row.id)
    assert [(t.round, t.tab, t.players, t.game_id) for t in stored] == [
        (1, 1, (100, 103, 104), None),
        (1, 2, (101, 102), None),
    ]
    assert (await store.timers.get_timer("tournament_check", tournament_id=row.id)).due_at == 99.0
    await store.tournaments.set_thread(row.id, 1, 1, 5001)
    config = GameConfig(3, 42)
    seats = [SeatSpec(user_id=p) for p in tables[0]]
    game, created = await store.tournaments.create_table_game(
        row.id,
        1,
        1,
        guild_id=GUILD,
        thread_id=5001,
        config=config.to_dict(),
        seats=seats,
        settings={"turn_timer": 60},
        at=12.0,
    )
    assert created and game.channel_id == 5001
    again, created = await store.tournaments.create_table_game(
        row.id,
        1,
        1,
        guild_id=GUILD,
        thread_id=5001,
        config=config.to_dict(),
        seats=seats,
        settings={},
        at=13.0,
    )
    assert not created and again.id == game.id  # one game per table
    assert [i.kind for i in await store.outbox.pending(game.id)] == ["start"]
    with pytest.raises(ChannelBusy):  # a thread holds one live game
        await store.tournaments.create_table_game(
            row.id,
            1,
            2,
            guild_id=GUILD,
            thread_id=5001,
            config=GameConfig(2, 1).to_dict(),
            seats=[SeatSpec(user_id=101), SeatSpec(user_id=102)],
            settings={},
            at=13.0,
        )
    assert (await store.tournaments.tables(row.id, 1))[1].game_id is None  # nothing written
    assert (await store.tournaments.table_of_game(game.id)).tab == 1
    assert await store.tournaments.results(row.id) == []
    # the game ends: its results are the table's
    played = finished(config)
    seat_rows = await store.games.seats(game.id)
    await store.results.finish_game(
        game.id, entries_from_game(played, seat_rows), to_record(played), at=20.0
    )
    results = await store.tournaments.results(row.id)
    entries = entries_from_game(played, seat_rows)
    assert [(r.round, r.tab, r.game_id, r.players) for r in results] == [
        (1, 1, game.id, (100, 103, 104))
    ]
    assert results[0].places == tuple(e.place for e in entries)
    assert results[0].totals == tuple(e.total for e in entries)
    assert (await store.tournaments.tables(row.id, 1))[0].game_status == "finished"


async def test_finish_names_the_winner_and_counts_for_stats_and_history(store):
    row = await open_with(store)
    assert not await store.tournaments.finish(row.id, 100)  # not running yet
    await store.tournaments.start_round(row.id, 1, [[100, 101, 102]], at=10.0)
    await store.tournaments.set_timers(row.id, [TimerChange("tournament_round", 70.0)])
    assert await store.tournaments.finish(row.id, 101, at=30.0)
    assert not await store.tournaments.finish(row.id, 100, at=31.0)  # idempotent
    assert await store.timers.get_timer("tournament_round", tournament_id=row.id) is None
    assert not await store.tournaments.set_timers(row.id, [TimerChange("x", 1.0)])
    done = await store.tournaments.get(row.id)
    assert done.status is TournamentStatus.FINISHED and done.winner_id == 101
    assert done.finished_at == 30.0
    assert await store.tournaments.user_stats(101) == (1, 1)
    assert await store.tournaments.user_stats(100, guild_id=GUILD) == (1, 0)
    assert await store.tournaments.user_stats(100, guild_id=GUILD + 1) == (0, 0)
    assert [t.id for t in await store.tournaments.of_user(102)] == [row.id]
    assert await store.tournaments.active_in_channel(CHANNEL) is None
    assert (await store.tournaments.latest_in_channel(CHANNEL)).id == row.id


async def test_the_server_time_zone_is_stored(store):
    assert await store.guild_settings.timezone(GUILD) is None
    await store.guild_settings.set_timezone(GUILD, "Europe/Berlin", at=1.0)
    assert await store.guild_settings.timezone(GUILD) == "Europe/Berlin"
    await store.guild_settings.set_timezone(GUILD, None, at=2.0)
    assert await store.guild_settings.timezone(GUILD) is None


async def test_a_notice_is_claimed_by_one_posted_once_and_an_ended_one_is_owed(store):
    from data import NoticeKind

    row = await open_with(store)
    kind = NoticeKind.ROUND
    assert await store.tournaments.claim_notice(row.id, kind, 1, "a", now=10.0, lease=30.0)
    assert not await store.tournaments.claim_notice(row.id, kind, 1, "b", now=20.0, lease=30.0)
    assert await store.tournaments.claim_notice(row.id, kind, 1, "a", now=20.0, lease=30.0)
    # the claim of a process that died runs out: another one takes it over
    assert await store.tournaments.claim_notice(row.id, kind, 1, "b", now=60.0, lease=30.0)
    assert await store.tournaments.posted_notices(row.id) == {}
    assert await store.tournaments.mark_notice(row.id, kind, 1, 555, at=61.0)
    assert not await store.tournaments.mark_notice(row.id, kind, 1, 556, at=62.0)
    assert not await store.tournaments.claim_notice(row.id, kind, 1, "b", now=99.0, lease=30.0)
    assert await store.tournaments.posted_notices(row.id) == {("round", 1): 555}
    # a cancelled tournament owes its notice until it is posted
    assert await store.tournaments.ended_unannounced() == []
    await store.tournaments.cancel(row.id, at=70.0)
    assert [t.id for t in await store.tournaments.ended_unannounced()] == [row.id]
    done = NoticeKind.CANCELLED
    assert await store.tournaments.claim_notice(row.id, done, 0, "a", now=71.0, lease=30.0)
    assert await store.tournaments.mark_notice(row.id, done, 0, None, at=72.0)
    assert await store.tournaments.ended_unannounced() == []
