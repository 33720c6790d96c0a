"""Helpers of the cluster tests: games in a store, random legal play through a GameService,
the steps each process acknowledged, and the checks of what the store holds afterwards."""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from data import GameRow, GameStatus, SeatSpec, Store, rebuild_game
from engine import GameConfig, from_record
from service import GameService, OutOfDate

WAIT_S = 20.0
"""Seconds any single wait of these tests may take before it counts as hung."""


class News:
    """Something happened (:meth:`tell`); :meth:`until` waits for a condition, no polling."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def tell(self) -> None:
        self._event.set()

    async def until(self, done: Callable[[], bool], timeout: float = WAIT_S) -> None:
        """Return once ``done()`` is true (checked at each piece of news); TimeoutError."""

        async def arrive() -> None:
            while not done():
                self._event.clear()
                await self._event.wait()

        await asyncio.wait_for(arrive(), timeout)


async def new_games(
    store: Store, count: int, rng: random.Random, *, first_channel: int = 9000
) -> list[GameRow]:
    """``count`` live games of 2 to 4 seats, in channels ``first_channel`` and on (AI seats:
    nobody plays them but the test)."""
    rows = []
    for i in range(count):
        seats = rng.randint(2, 4)
        config = GameConfig(seats, rng.randrange(2**31))
        specs = [SeatSpec(ai_level="easy") for _ in range(seats)]
        rows.append(
            await store.games.create_game(
                1, first_channel + i, config.to_dict(), specs, announce=False, at=0.0
            )
        )
    return rows


@dataclass
class Acks:
    """Every step a service acknowledged (its ``hats_step`` event): (game id, seq, step dict)."""

    steps: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)

    def dispatch(self, name: str, *args: Any) -> None:
        """A GameService ``dispatch``: records each ``hats_step`` (fired after the commit)."""
        if name == "hats_step":
            session, event = args[0], args[1]
            step = session.game.steps[event.number].to_dict()
            self.steps.append((session.id, event.number, step))

    def by_game(self) -> dict[int, list[tuple[int, dict[str, Any]]]]:
        out: dict[int, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for game_id, seq, step in self.steps:
            out[game_id].append((seq, step))
        return out


async def play_once(svc: GameService, game_id: int, rng: random.Random) -> bool | None:
    """One random legal move of game ``game_id`` through ``svc``.

    True: played; False: another process (or task) moved first (OutOfDate, nothing happened);
    None: the game is over (or not live any more).
    """
    session = await svc.session(game_id)
    if session is None or session.game.is_over:
        return None
    seat = session.game.to_move
    assert seat is not None
    action = rng.choice(session.game.legal_actions(seat))
    try:
        await svc.play(session, seat, action, version=session.version, actor="player")
    except OutOfDate:
        return False
    return True


async def check_stored_games(
    store: Store, rows: list[GameRow], acked: dict[int, list[tuple[int, dict[str, Any]]]]
) -> int:
    """Every game finished, holding exactly the acknowledged steps; its record replays.

    ``acked``: per game, (seq, step) in acknowledgement order (several processes: any order).
    Returns the number of stored steps.
    """
    total = 0
    for row in rows:
        stored = await store.steps.load_steps(row.id)
        total += len(stored)
        seqs = [seq for seq, _ in acked.get(row.id, [])]
        doubled = sorted(seq for seq, n in Counter(seqs).items() if n > 1)
        assert not doubled, f"game {row.id}: steps {doubled} of {len(stored)} acknowledged twice"
        by_seq = dict(acked.get(row.id, []))
        for seq, step in by_seq.items():
            assert seq < len(stored), f"game {row.id}: acknowledged step {seq} lost"
            assert stored[seq] == step, f"game {row.id}: step {seq} is not the acknowledged one"
        game_row = await store.games.get_game(row.id)
        assert game_row is not None and game_row.status is GameStatus.FINISHED, row.id
        replayed = rebuild_game(row, stored)
        assert replayed.is_over
        record = await store.results.get_record(row.id)
        assert record is not None, f"game {row.id}: no record"
        from_rec = from_record(record)
        assert from_rec.snapshot() == replayed.snapshot()
        assert record["end"] == replayed.result.to_record()
        results = await store.results.results_for_game(row.id)
        assert [r.total for r in results] == [s.total for s in replayed.result.scores]
    return total
