"""Start-up restore: load every open lobby and live game, rebuild games by replaying steps.

A game is its config plus its steps (see engine): replaying the stored steps through
``engine.Game.replay`` gives back the game exactly as it was when its last step was
acknowledged. Times are logged on the ``hats.data`` logger.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from data import jsoncodec
from data.db import Database
from data.errors import ReplayFailed
from data.games import GAME_COLUMNS, SEAT_COLUMNS, game_row, seat_row
from data.lobbies import LOBBY_COLUMNS, lobby_row
from data.messages import MESSAGE_COLUMNS, message_row
from data.rows import GameMessage, GameRow, GameStatus, LiveGame, LobbyRow, SeatRow, TimerRow
from data.steps import AUTO_ACTOR
from data.timers import TIMER_COLUMNS, timer_row
from engine import Game, IllegalMove, Step

if TYPE_CHECKING:
    from data.store import Store

__all__ = [
    "LiveGame",
    "LiveState",
    "Restored",
    "RestoredGame",
    "Snapshot",
    "load_live",
    "rebuild_game",
    "restore",
]

log = logging.getLogger("hats.data")


@dataclass(frozen=True, slots=True)
class LiveState:
    """Everything open at start-up.

    ``games`` holds the live games whose steps decoded; ``broken`` the others, with the error
    (the bot should tell their channel and abandon them). ``seconds``: time the load took.
    """

    lobbies: list[LobbyRow]
    games: list[LiveGame]
    timers: list[TimerRow]
    broken: list[tuple[GameRow, ReplayFailed]]
    seconds: float


@dataclass(frozen=True, slots=True)
class RestoredGame:
    """A live game and its engine game rebuilt by replay.

    When ``game.is_over`` the process stopped between the last step and ``finish_game``: the
    bot should finish it now.
    """

    live: LiveGame
    game: Game


@dataclass(frozen=True, slots=True)
class Restored:
    """The result of :func:`restore`: lobbies, rebuilt games, timers, and the games that failed.

    ``seconds``: load plus replay time; ``load_seconds``: the load alone.
    """

    lobbies: list[LobbyRow]
    games: list[RestoredGame]
    timers: list[TimerRow]
    failed: list[tuple[GameRow, ReplayFailed]]
    seconds: float
    load_seconds: float


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many long-lived objects.

    Every object built here stays alive, so collections would only rescan them again and again
    (about a third of the replay time for 10,000 games). Reference counting still frees garbage.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Snapshot:
    """Queries that read every live row in one read transaction (one consistent snapshot)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def load_live(self) -> LiveState:
        """Every open lobby, live game (seats, decoded steps, messages) and timer."""
        started = time.perf_counter()
        async with self._db.read() as tx:
            game_rows = await tx.all(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'live' ORDER BY id"
            )
            seat_rows = await tx.all(
                f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id IN"
                " (SELECT id FROM games WHERE status = 'live') ORDER BY game_id, seat"
            )
            # One row per live game: its seqs ("0,1,2") and its steps' JSON (one a line), read
            # along the primary key (game_id, seq) of live games only. Both aggregates see the
            # rows in the same order; _decode_steps checks that order against the seqs.
            step_rows = await tx.all(self._db.dialect.live_steps)
            message_rows = await tx.all(
                f"SELECT {MESSAGE_COLUMNS} FROM game_messages"
                " WHERE game_id IN (SELECT id FROM games WHERE status = 'live')"
                " ORDER BY game_id, role, seat"
            )
            auto_rows = await tx.all(
                "SELECT game_id, seq FROM steps WHERE actor = ?"
                " AND game_id IN (SELECT id FROM games WHERE status = 'live')",
                (AUTO_ACTOR,),
            )
            lobbies = await tx.all(f"SELECT {LOBBY_COLUMNS} FROM lobbies ORDER BY id")
            timer_rows = await tx.all(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id")
        with _no_gc_pauses():
            state = _assemble(
                game_rows, seat_rows, step_rows, message_rows, auto_rows, lobbies, timer_rows
            )
        seconds = time.perf_counter() - started
        state = LiveState(state.lobbies, state.games, state.timers, state.broken, seconds)
        log.info(
            "loaded %d open lobbies and %d live games (%d steps) in %.0f ms",
            len(state.lobbies),
            len(state.games) + len(state.broken),
            sum(len(g.steps) for g in state.games),
            seconds * 1000,
        )
        return state


def _assemble(
    game_rows: list[Any],
    seat_rows: list[Any],
    step_rows: list[Any],
    message_rows: list[Any],
    auto_rows: list[Any],
    lobby_rows: list[Any],
    timer_rows: list[Any],
) -> LiveState:
    seats: dict[int, list[SeatRow]] = {}
    for r in seat_rows:
        seats.setdefault(r[0], []).append(seat_row(r))
    messages: dict[int, list[GameMessage]] = {}
    for r in message_rows:
        messages.setdefault(r[0], []).append(message_row(r))
    auto: dict[int, set[int]] = {}
    for game_id, seq in auto_rows:
        auto.setdefault(game_id, set()).add(seq)
    steps: dict[int, tuple[Step, ...]] = {}
    bad: dict[int, ReplayFailed] = {}
    decoded = _StepCache()
    for game_id, seqs, lines in step_rows:
        try:
            steps[game_id] = _decode_steps(game_id, seqs, lines, decoded)
        except ReplayFailed as exc:
            bad[game_id] = exc
    games: list[LiveGame] = []
    broken: list[tuple[GameRow, ReplayFailed]] = []
    for r in game_rows:
        try:
            row = game_row(r)
        except ValueError as exc:  # config or settings JSON damaged
            broken.append((_bare_row(r), ReplayFailed(r[0], None, str(exc))))
            continue
        if row.id in bad:
            broken.append((row, bad[row.id]))
            continue
        games.append(
            LiveGame(
                row,
                tuple(seats.get(row.id, ())),
                steps.get(row.id, ()),
                tuple(messages.get(row.id, ())),
                frozenset(auto.get(row.id, ())),
            )
        )
    return LiveState(
        [lobby_row(r) for r in lobby_rows],
        games,
        [timer_row(r) for r in timer_rows],
        broken,
        0.0,
    )


class _StepCache(dict[str, Step]):
    """Step objects by their JSON text, decoded on first use.

    Games share few distinct step texts and Steps are immutable, so each is decoded once.
    Raises ValueError (from ``__missing__``) for a text that is not an engine step.
    """

    def __missing__(self, text: str) -> Step:
        try:
            step = Step.from_dict(jsoncodec.loads_object(text))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not an engine step: {text!r}") from exc
        self[text] = step
        return step


_SEQ_LISTS: dict[int, str] = {}


def _seq_list(n: int) -> str:
    """``"0,1,…,n-1"``: the seqs of a game with n steps and no gap."""
    text = _SEQ_LISTS.get(n)
    if text is None:
        text = _SEQ_LISTS[n] = ",".join(map(str, range(n)))
    return text


def _decode_steps(game_id: int, seqs: str, lines: str, cache: _StepCache) -> tuple[Step, ...]:
    """A game's steps from its comma-separated seqs and newline-separated step JSON texts.

    Raises ReplayFailed for a gap in the seqs or a text that does not decode.
    """
    texts = lines.split("\n")
    if seqs != _seq_list(len(texts)):  # SQLite does not promise group_concat's order
        numbers = [int(n) for n in seqs.split(",")]
        texts = [t for _, t in sorted(zip(numbers, texts, strict=True))]
        for i, n in enumerate(sorted(numbers)):
            if n != i:
                raise ReplayFailed(game_id, i, f"step {i} is missing")
    try:
        return tuple(map(cache.__getitem__, texts))
    except ValueError:
        for seq, text in enumerate(texts):
            try:
                cache[text]
            except ValueError as exc:
                raise ReplayFailed(game_id, seq, f"undecodable step: {exc}") from exc
        raise


def _bare_row(r: Any) -> GameRow:
    return GameRow(r[0], r[1], r[2], {}, {}, GameStatus(r[5]), r[6], r[7], r[8])


async def load_live(store: Store) -> LiveState:
    """Every open lobby, live game and timer of ``store`` (one snapshot); logs the time taken."""
    return await store.snapshot.load_live()


def rebuild_game(row: GameRow, steps: Iterable[Step | Mapping[str, Any]]) -> Game:
    """The engine game of ``row`` after replaying ``steps`` (Steps or ``Step.to_dict()`` dicts).

    Equals the live game that produced the steps (``snapshot()`` compares equal). Raises
    ReplayFailed (with the failing seq) when the config is invalid, a step does not decode or
    the engine refuses it (IllegalMove).
    """
    try:
        game = Game.new(row.game_config())
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayFailed(row.id, None, f"bad config: {exc}") from exc
    apply = game.apply
    seq = 0
    try:
        for seq, raw in enumerate(steps):  # noqa: B007 (seq names the failing step)
            step = raw if isinstance(raw, Step) else Step.from_dict(dict(raw))
            apply(step.seat, step.action)
    except (IllegalMove, ValueError, KeyError) as exc:
        raise ReplayFailed(row.id, seq, f"{type(exc).__name__}: {exc}") from exc
    return game


async def restore(store: Store) -> Restored:
    """Load everything live and rebuild every game by replay; log the total time.

    Games that fail to replay are returned in ``failed`` (and logged) instead of stopping the
    start-up; the bot decides what to tell their channels.
    """
    started = time.perf_counter()
    state = await load_live(store)
    replay_started = time.perf_counter()
    games: list[RestoredGame] = []
    failed = list(state.broken)
    with _no_gc_pauses():
        for live in state.games:
            try:
                games.append(RestoredGame(live, rebuild_game(live.row, live.steps)))
            except ReplayFailed as exc:
                log.error("%s", exc)
                failed.append((live.row, exc))
    done = time.perf_counter()
    log.info(
        "restored %d live games by replay in %.0f ms (replay %.0f ms); %d failed; %d lobbies",
        len(games),
        (done - started) * 1000,
        (done - replay_started) * 1000,
        len(failed),
        len(state.lobbies),
    )
    return Restored(state.lobbies, games, state.timers, failed, done - started, state.seconds)
