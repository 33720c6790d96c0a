"""Lobbies, games, seats and messages: the channel rule, the atomic lobby → game move."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from storetest_util import new_game, seat_specs

import data.games
from data import (
    ChannelBusy,
    GameImport,
    GameNotLive,
    GameStatus,
    LobbyNotFound,
    LobbySeat,
    MessageRole,
    SeatSpec,
    Store,
    open_store,
)
from engine import GameConfig

CONFIG = GameConfig(4, 11).to_dict()


async def test_a_lobby_keeps_its_seats_settings_and_message(store: Store, target):
    lobby = await store.lobbies.create_lobby(1, 10, 100, {"seats": 4}, [LobbySeat(100)], at=5.0)
    assert (lobby.created_at, lobby.updated_at) == (5.0, 5.0)
    seats = [LobbySeat(100, team=0), LobbySeat(ai_level="hard", team=1), LobbySeat(102, team=0)]
    await store.lobbies.set_seats(lobby.id, seats, at=6.0)
    await store.lobbies.set_settings(lobby.id, {"seats": 4, "turn_seconds": 120}, at=7.0)
    await store.lobbies.set_message_id(lobby.id, 987654321012345678, at=8.0)
    await store.close()
    async with await open_store(target) as again:
        (stored,) = await again.lobbies.list_open()
    assert stored.seats == tuple(seats)
    assert stored.settings == {"seats": 4, "turn_seconds": 120}
    assert stored.message_id == 987654321012345678
    assert (stored.created_at, stored.updated_at) == (5.0, 8.0)


async def test_updating_a_closed_lobby_raises(store: Store):
    lobby = await store.lobbies.create_lobby(1, 10, 100)
    assert await store.lobbies.delete_lobby(lobby.id)
    assert not await store.lobbies.delete_lobby(lobby.id)
    with pytest.raises(LobbyNotFound):
        await store.lobbies.set_settings(lobby.id, {})
    assert await store.lobbies.lobby_in_channel(10) is None


async def test_one_lobby_or_live_game_per_channel(store: Store):
    await store.lobbies.create_lobby(1, 10, 100)
    with pytest.raises(ChannelBusy):
        await store.lobbies.create_lobby(1, 10, 101)
    with pytest.raises(ChannelBusy):
        await store.games.create_game(1, 10, CONFIG, seat_specs(4))
    await store.games.create_game(1, 20, CONFIG, seat_specs(4))
    with pytest.raises(ChannelBusy):
        await store.lobbies.create_lobby(1, 20, 100)
    with pytest.raises(ChannelBusy):
        await store.games.create_game(1, 20, CONFIG, seat_specs(4))
    await store.lobbies.create_lobby(1, 30, 100)  # other channels are free


async def test_racing_lobby_creators_on_one_connection_exactly_one_wins(store: Store):
    outcomes = await asyncio.gather(
        *(store.lobbies.create_lobby(1, 10, 100 + i) for i in range(8)), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, ChannelBusy) for o in outcomes if isinstance(o, BaseException))


async def test_racing_creators_on_two_connections_exactly_one_gets_the_channel(target):
    async with await open_store(target) as a, await open_store(target) as b:
        outcomes = await asyncio.gather(
            a.lobbies.create_lobby(1, 10, 100),
            b.games.create_game(1, 10, CONFIG, seat_specs(4)),
            a.games.create_game(1, 10, CONFIG, seat_specs(4)),
            b.lobbies.create_lobby(1, 10, 101),
            return_exceptions=True,
        )
        assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
        assert all(isinstance(o, ChannelBusy) for o in outcomes if isinstance(o, BaseException))


async def test_starting_a_lobby_moves_the_channel_to_the_game(store: Store):
    lobby = await store.lobbies.create_lobby(1, 10, 100)
    await store.timers.set_timer("expiry", 99.0, lobby_id=lobby.id)
    game = await store.games.create_game(1, 10, CONFIG, seat_specs(4), from_lobby_id=lobby.id)
    assert game.status is GameStatus.LIVE and game.channel_id == 10
    assert await store.lobbies.list_open() == []
    assert await store.timers.list_all() == []  # the lobby's timers went with it
    assert (await store.games.live_game_in_channel(10)) == game
    with pytest.raises(LobbyNotFound):  # a second start (double click) changes nothing
        await store.games.create_game(1, 10, CONFIG, seat_specs(4), from_lobby_id=lobby.id)
    assert len(await store.games.list_live()) == 1


async def test_a_failed_start_keeps_the_lobby(store: Store, monkeypatch: pytest.MonkeyPatch):
    lobby = await store.lobbies.create_lobby(1, 10, 100)

    async def broken_insert(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk trouble after the lobby was deleted")

    monkeypatch.setattr(data.games, "insert_game", broken_insert)
    with pytest.raises(RuntimeError):
        await store.games.create_game(1, 10, CONFIG, seat_specs(4), from_lobby_id=lobby.id)
    assert await store.lobbies.get_lobby(lobby.id) == lobby
    assert await store.games.list_live() == []


async def test_a_lobby_of_another_channel_cannot_start_here(store: Store):
    lobby = await store.lobbies.create_lobby(1, 10, 100)
    with pytest.raises(LobbyNotFound):
        await store.games.create_game(1, 20, CONFIG, seat_specs(4), from_lobby_id=lobby.id)
    assert await store.lobbies.get_lobby(lobby.id) == lobby


async def test_bad_configs_and_seat_counts_are_refused(store: Store):
    with pytest.raises(ValueError, match="seats"):
        await store.games.create_game(1, 10, CONFIG, seat_specs(3))
    with pytest.raises(ValueError):
        await store.games.create_game(1, 10, {"seats": 5, "seed": 1}, seat_specs(5))
    with pytest.raises(ValueError):
        SeatSpec()
    assert await store.games.list_live() == []


async def test_seat_changes_survive_a_restart(store: Store, target):
    row, _ = await new_game(store, 10, seats=4)
    seats = await store.games.seats(row.id)
    assert [s.user_id for s in seats] == [500, None, 502, None]
    kicked = dataclasses.replace(seats[2], ai_level="normal")  # the AI takes the kicked seat
    away = dataclasses.replace(seats[0], away=True, auto_turns=2)
    await store.games.update_seat(kicked)
    await store.games.update_seat(away)
    await store.games.set_settings(row.id, {"turn_seconds": 60})
    await store.close()
    async with await open_store(target) as again:
        stored = await again.games.seats(row.id)
        game = await again.games.get_game(row.id)
    assert stored[2] == kicked and stored[0] == away
    assert game is not None and game.settings == {"turn_seconds": 60}


async def test_abandoning_frees_the_channel(store: Store):
    row, _ = await new_game(store, 10)
    await store.timers.set_timer("turn", 50.0, game_id=row.id)
    abandoned = await store.games.abandon_game(row.id, at=9.0)
    assert abandoned.status is GameStatus.ABANDONED and abandoned.finished_at == 9.0
    assert await store.timers.list_all() == []
    with pytest.raises(GameNotLive):
        await store.games.abandon_game(row.id)
    with pytest.raises(GameNotLive):
        await store.games.update_seat((await store.games.seats(row.id))[0])
    await store.lobbies.create_lobby(1, 10, 100)


async def test_game_messages_are_upserted_per_role_and_seat(store: Store, target):
    row, _ = await new_game(store, 10, seats=4)
    await store.messages.set_message(row.id, MessageRole.TABLE, 10, 1111)
    await store.messages.set_message(row.id, MessageRole.TABLE, 10, 2222)  # re-posted
    await store.messages.set_message(row.id, MessageRole.DM, 70, 3333, seat=0)
    await store.messages.set_message(row.id, MessageRole.DM, 72, 4444, seat=2)
    await store.messages.set_message(row.id, MessageRole.TEAM_THREAD, 80, None, seat=1)
    await store.close()
    async with await open_store(target) as again:
        table = await again.messages.get_message(row.id, MessageRole.TABLE)
        assert table is not None and (table.channel_id, table.message_id) == (10, 2222)
        assert table.seat is None
        dm = await again.messages.get_message(row.id, "dm", seat=2)
        assert dm is not None and dm.message_id == 4444
        assert len(await again.messages.list_messages(row.id)) == 4
        assert await again.messages.delete_message(row.id, MessageRole.DM, seat=0)
        assert await again.messages.get_message(row.id, MessageRole.DM, seat=0) is None
        thread = await again.messages.get_message(row.id, MessageRole.TEAM_THREAD, seat=1)
        assert thread is not None and thread.channel_id == 80 and thread.message_id is None


async def test_a_lobby_can_change_host(store: Store):
    lobby = await store.lobbies.create_lobby(1, 10, 100, at=1.0)
    moved = await store.lobbies.set_host(lobby.id, 200, at=2.0)
    assert (moved.host_id, moved.updated_at) == (200, 2.0)
    await store.lobbies.delete_lobby(lobby.id)
    with pytest.raises(LobbyNotFound):
        await store.lobbies.set_host(lobby.id, 300)


async def test_meta_values_are_replaced_and_survive_a_restart(store: Store, target):
    assert await store.meta.get("commands_hash") is None
    await store.meta.set("commands_hash", "abc")
    await store.meta.set("commands_hash", "def")
    await store.close()
    async with await open_store(target) as again:
        assert await again.meta.get("commands_hash") == "def"


async def test_an_import_into_a_busy_channel_writes_nothing(store: Store):
    await store.lobbies.create_lobby(1, 30, 100)
    step = {"seat": 0, "kind": "end_turn"}
    imports = [
        GameImport(1, 20, CONFIG, seat_specs(4), [step]),
        GameImport(1, 30, CONFIG, seat_specs(4), [step]),  # the lobby's channel
    ]
    with pytest.raises(ChannelBusy) as info:
        await store.games.import_games(imports)
    assert info.value.channel_id == 30
    assert await store.games.list_live() == []
    with pytest.raises(ValueError):  # a step the engine cannot read is refused too
        await store.games.import_games([GameImport(1, 20, CONFIG, seat_specs(4), [{"x": 1}])])
    assert await store.games.list_live() == []
