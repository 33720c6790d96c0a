"""Persistence: every lobby, game and acknowledged step survives restarts and crashes.

``data`` owns all SQL, for two backends behind one :class:`Store`: an SQLite file (default,
below) or PostgreSQL when ``open_store`` is given a ``postgresql://`` URL
(``HATS_DATABASE_URL``; asyncpg pool, migrations in ``data/migrations/postgres/``, see
:mod:`data.pg`). The repositories are written once (``data.dialect`` says how to add one);
``python -m data migrate-to URL`` copies an SQLite store into PostgreSQL (:mod:`data.copy`).

SQLite: one aiosqlite connection per process, WAL journal, foreign keys on, a
busy timeout, ``synchronous=FULL`` (each commit is fsynced: an acknowledged step survives a
killed process and a power cut). The schema is migrated forward at start-up
(``data/migrations/NNNN_*.sql``, version in ``PRAGMA user_version``).

Opening (start-up)::

    from data import open_store, restore, StoreError
    from data.config import database_path, database_url  # HATS_DB_PATH / HATS_DATABASE_URL

    try:
        store = await open_store(database_url() or database_path())  # or: async with ... as s
    except StoreError as exc:       # corrupted / unreadable / locked / too new / unreachable
        log.critical("%s", exc)     # the message says what to do
        raise SystemExit(3)         # the file was left untouched
    state = await restore(store)    # lobbies, games rebuilt by replay, timers; logs the time
    ...
    await store.close()

Repositories (every method is a coroutine unless noted; times are unix seconds; ids ints)::

    store.lobbies.create_lobby(guild_id, channel_id, host_id, settings=None, seats=(), *, at=None)
        -> LobbyRow                       # ChannelBusy: channel has a lobby or a live game
    store.lobbies.get_lobby(lobby_id) / lobby_in_channel(channel_id) -> LobbyRow | None
    store.lobbies.list_open() -> list[LobbyRow]
    store.lobbies.set_seats(lobby_id, seats, *, at=None) / set_settings(lobby_id, settings, ...)
        / set_message_id(lobby_id, message_id, ...) -> LobbyRow        # LobbyNotFound
    store.lobbies.delete_lobby(lobby_id) -> bool                       # cancel / expire

    store.games.create_game(guild_id, channel_id, config, seats, settings=None, *,
                            from_lobby_id=None, at=None) -> GameRow
        # config = GameConfig.to_dict(); seats = [SeatSpec(user_id=…) | SeatSpec(ai_level=…)]
        # from_lobby_id: the lobby is deleted in the same transaction (ChannelBusy, LobbyNotFound)
    store.games.get_game(game_id) / live_game_in_channel(channel_id) -> GameRow | None
    store.games.list_live() -> list[GameRow];  store.games.seats(game_id) -> list[SeatRow]
    store.games.update_seat(dataclasses.replace(seat_row, ai_level="normal", away=False))
    store.games.update_seat(row, deadlines=(steps, plan))  # + the timers, same transaction,
        # only at that step count (plan(held timers) -> [TimerChange]); the changes or None
    store.games.set_settings(game_id, settings) -> GameRow
    store.games.abandon_game(game_id, *, at=None) -> GameRow          # frees the channel
    store.games.import_games([GameImport(...)]) -> list[int]           # bulk, one transaction

    store.games.load_live(game_id) -> LiveGame | None   # one game, one read transaction
    store.games.live_ids_of_user(user_id) / live_ids_in_guild(guild_id) -> list[int]

    store.steps.append_step(game_id, expected_seq, step_dict, *, actor="player", at,
                            timers=()) -> int
        # StaleSequence(expected, actual): nothing written (double click, race); GameNotLive
        # timers=[TimerChange(kind, due_at | None, seat, payload)]: same transaction as the step
    store.steps.append_judged(game_id, expected_seq, step_dict, *, actor, at,
                              deadlines=StepDeadlines(seats, changes, rejudge))
        -> (changes written, stored seats | None)  # judged again if the stored seats differ
    store.steps.load_steps(game_id) -> list[dict];  store.steps.step_count(game_id) -> int

    store.messages.set_message(game_id, role, channel_id, message_id, *, seat=None)
    store.messages.get_message(game_id, role, *, seat=None) -> GameMessage | None
    store.messages.list_messages(game_id) / delete_message(game_id, role, *, seat=None)
        # role: MessageRole.TABLE (seat None) / DM (seat) / TEAM_THREAD (team index)

    store.timers.set_timer(kind, due_at, *, game_id=None | lobby_id=None, seat=None,
                           payload=None) -> TimerRow        # upsert by (owner, kind)
    store.timers.clear_timer(kind, *, game_id=… | lobby_id=…) -> bool
    store.timers.get_timer(...) / list_due(now) / list_all()
    store.timers.claim_due(now, claimer, lease, limit=50, *, kinds=None) -> list[TimerRow]
        # one claimer each; kinds: only those kinds (a process serving AI moves only)
    store.timers.complete(row, claimer) -> bool      # delete after firing, unless re-set
    store.timers.next_wake(kinds=None) -> float | None  # when claim_due could next return one
    store.timers.write_at_step(game_id, steps, plan) -> list[TimerChange] | None
        # compare-and-set: plan(held timers) written only if the game is live at that count

    store.results.finish_game(game_id, entries_from_game(game, seats), to_record(game), *,
                              at=None, last_step=(seq, step_dict, actor) | None)
        -> GameRow   # last step + results + record + finished + timers cleared + outbox 'end',
                     # one transaction
    store.results.get_record(game_id) -> dict | None       # hats-record/1 (``/hats record``)
    store.results.results_for_game(game_id) -> list[ResultEntry]
    store.results.last_finished_game(channel_id) -> GameRow | None
    store.results.user_stats(user_id, *, guild_id=None) -> UserStats(games, wins, mean_score)

    store.guild_settings.language(guild_id) -> str | None  # /hats settings language; None: default
    store.guild_settings.set_language(guild_id, language | None, *, at=None)
    store.guild_settings.languages() -> dict[int, str]
    store.guild_settings.options() -> dict[int, GuildOptions]  # /hats settings pictures, timer
    store.guild_settings.set_pictures(guild_id, on, *, at=None)
    store.guild_settings.set_turn_timer(guild_id, seconds | None, *, at=None)  # 0: no timer
    store.outbox.pending(game_id=None) -> list[OutboxItem]   # announcements still owed
    store.outbox.mark_delivered(item_id, at=...) -> bool     # 'start' / 'end' items, see 0005
    store.tournaments.create / join / withdraw / drop / start_round / create_table_game /
        finish / cancel / entrants / tables / results ...  # Swiss tournaments, see 0011

    # Every driver error (full disk, read-only, I/O, damaged, locked, cannot open; on
    # PostgreSQL also the server unreachable or restarting, a lock timeout) leaves a
    # repository method as StoreFault(kind=FaultKind...): the transaction was rolled back.
    # A broken constraint the repository does not turn into a refusal: ConstraintViolated.

    store.integrity_check() -> list[str];  store.backup(path)   # online backup to a new file
    store.backend -> "sqlite" | "postgres"      # backup: SQLite only (PostgreSQL: pg_dump)
    store.origin -> str;  store.shared -> bool  # unique name; True on PostgreSQL
    await store.watch(callback)   # PostgreSQL: callback(GameChange(game_id, seq, origin)) on
                                  # every committed change; GameChange(None, None, "") after
                                  # a lost listener reconnected; SQLite: nothing

A move, the recommended way (one asyncio lock per game in the bot)::

    seq = len(game.steps)                  # or the seq the clicked button was drawn for
    game.apply(seat, action)               # IllegalMove: nothing changed anywhere
    await store.steps.append_step(game_id, seq, game.steps[-1].to_dict(), at=time.time())
    # on StoreError: the move is NOT acknowledged; rebuild the game from the store.

Restore (start-up, logged on the ``hats.data`` logger with the time taken)::

    restored = await restore(store)     # Restored(lobbies, games, timers, failed, seconds, ...)
    for r in restored.games:            # RestoredGame(live: LiveGame, game: engine.Game)
        r.live.row, r.live.seats, r.live.steps, r.live.messages   # GameRow, SeatRows, Steps, …
        r.live.auto_seqs                    # seqs of moves the AI played for absent players
        if r.game.is_over: ...          # crashed between its last step and finish_game: finish it
    for row, error in restored.failed: ...   # ReplayFailed: tell the channel, abandon_game(row.id)
    # or separately: state = await load_live(store); game = rebuild_game(row, steps)
"""

from data.config import database_path
from data.errors import (
    ChannelBusy,
    ConstraintViolated,
    FaultKind,
    GameNotFound,
    GameNotLive,
    LobbyNotFound,
    ReplayFailed,
    StaleSequence,
    StoreCorrupted,
    StoreError,
    StoreFault,
    StoreForeign,
    StoreLocked,
    StoreOpenError,
    StoreTooNew,
    StoreUnreadable,
)
from data.games import GameImport
from data.outbox import OutboxItem, OutboxKind
from data.restore import (
    LiveGame,
    LiveState,
    Restored,
    RestoredGame,
    load_live,
    rebuild_game,
    restore,
)
from data.results import entries_from_game
from data.rows import (
    GameChange,
    GameMessage,
    GameRow,
    GameStatus,
    LobbyChange,
    LobbyRow,
    LobbySeat,
    MessageRole,
    ResultEntry,
    SeatRow,
    SeatSpec,
    TimerChange,
    TimerRow,
    UserStats,
)
from data.store import Store, check_path, open_store
from data.tournaments import (
    EntrantRow,
    EntrantSpec,
    NoticeKind,
    TableResultRow,
    TableRow,
    TournamentBusy,
    TournamentClosed,
    TournamentFull,
    TournamentRow,
    TournamentStatus,
)

__all__ = [
    "ChannelBusy",
    "ConstraintViolated",
    "EntrantRow",
    "EntrantSpec",
    "FaultKind",
    "GameChange",
    "GameImport",
    "GameMessage",
    "GameNotFound",
    "GameNotLive",
    "GameRow",
    "GameStatus",
    "LiveGame",
    "LiveState",
    "LobbyChange",
    "LobbyNotFound",
    "LobbyRow",
    "LobbySeat",
    "MessageRole",
    "NoticeKind",
    "OutboxItem",
    "OutboxKind",
    "ReplayFailed",
    "Restored",
    "RestoredGame",
    "ResultEntry",
    "SeatRow",
    "SeatSpec",
    "StaleSequence",
    "Store",
    "StoreCorrupted",
    "StoreError",
    "StoreFault",
    "StoreForeign",
    "StoreLocked",
    "StoreOpenError",
    "StoreTooNew",
    "StoreUnreadable",
    "TableResultRow",
    "TableRow",
    "TimerChange",
    "TimerRow",
    "TournamentBusy",
    "TournamentClosed",
    "TournamentFull",
    "TournamentRow",
    "TournamentStatus",
    "UserStats",
    "check_path",
    "database_path",
    "entries_from_game",
    "load_live",
    "open_store",
    "rebuild_game",
    "restore",
]
