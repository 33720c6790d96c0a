"""Timers shared by several processes: written with their step, claimed once, completed.

(issue 13: a deadline fires once even with several processes, and still fires when the
process that claimed it died: its lease runs out.)
"""

from __future__ import annotations

import asyncio
import random

import pytest
from storetest_util import new_game, raw_query

from data import GameNotLive, StaleSequence, Store, TimerChange, open_store

END = {"seat": 0, "kind": "end_turn"}


def due_kinds(rows) -> list[tuple[str, float]]:
    return [(t.kind, t.due_at) for t in rows]


# --------------------------------------------------------------------------- with a step
async def test_a_step_and_its_timers_are_written_together(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    await store.timers.set_timer("reminder", 50.0, game_id=row.id, seat=0)
    changes = [
        TimerChange("turn", 120.0, seat=1, payload={"round": 1}),
        TimerChange("reminder", None),
        TimerChange("ai", 3.5),
    ]
    assert await store.steps.append_step(row.id, 0, END, at=1.0, timers=changes) == 0
    assert await store.steps.step_count(row.id) == 1
    timers = {t.kind: t for t in await store.timers.list_all()}
    assert sorted(timers) == ["ai", "turn"]
    assert (timers["turn"].seat, timers["turn"].due_at) == (1, 120.0)
    assert timers["turn"].payload == {"round": 1} and timers["turn"].game_id == row.id
    assert timers["ai"].due_at == 3.5


async def test_a_stale_append_with_timers_writes_no_timer(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    await store.timers.set_timer("turn", 50.0, game_id=row.id, seat=0)
    await store.steps.append_step(row.id, 0, END, at=1.0)
    changes = [TimerChange("turn", 999.0, seat=1), TimerChange("ai", 5.0)]
    with pytest.raises(StaleSequence):
        await store.steps.append_step(row.id, 0, END, at=2.0, timers=changes)
    with pytest.raises(StaleSequence):  # a gap
        await store.steps.append_step(row.id, 5, END, at=2.0, timers=changes)
    assert due_kinds(await store.timers.list_all()) == [("turn", 50.0)]
    assert await store.steps.step_count(row.id) == 1


async def test_an_append_with_timers_to_an_ended_game_writes_nothing(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    await store.games.abandon_game(row.id)
    with pytest.raises(GameNotLive):
        await store.steps.append_step(row.id, 0, END, at=1.0, timers=[TimerChange("ai", 5.0)])
    assert await store.timers.list_all() == []
    assert await store.steps.step_count(row.id) == 0


async def test_a_malformed_timer_change_writes_no_step(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    for bad in (TimerChange("", 5.0), TimerChange("turn", "soon")):  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            await store.steps.append_step(row.id, 0, END, at=1.0, timers=[bad])
    assert await store.steps.step_count(row.id) == 0
    assert await store.timers.list_all() == []


async def test_racing_appends_with_timers_keep_only_the_winners_timer(target):
    async with await open_store(target) as a, await open_store(target) as b:
        row, _ = await new_game(a, 10, seats=2)
        for seq in range(6):
            outcomes = await asyncio.gather(
                *(
                    s.steps.append_step(
                        row.id, seq, END, at=1.0, timers=[TimerChange("turn", 100.0 + i, seat=i)]
                    )
                    for i, s in enumerate((a, b, a, b))
                ),
                return_exceptions=True,
            )
            assert outcomes.count(seq) == 1, outcomes
            assert all(isinstance(o, StaleSequence) for o in outcomes if o != seq)
            winner = outcomes.index(seq)
            (turn,) = await a.timers.list_all()
            assert (turn.seat, turn.due_at) == (winner, 100.0 + winner)


# --------------------------------------------------------------------------- claims
async def test_claim_due_gives_due_timers_earliest_first_and_only_once(store: Store, target):
    row, _ = await new_game(store, 10, seats=2)
    lobby = await store.lobbies.create_lobby(1, 20, 100)
    await store.timers.set_timer("turn", 20.0, game_id=row.id)
    await store.timers.set_timer("reminder", 10.0, game_id=row.id)
    await store.timers.set_timer("ai", 30.0, game_id=row.id)
    await store.timers.set_timer("expiry", 15.0, lobby_id=lobby.id)
    got = await store.timers.claim_due(25.0, "a", 60.0)
    assert due_kinds(got) == [("reminder", 10.0), ("expiry", 15.0), ("turn", 20.0)]
    assert await store.timers.claim_due(25.0, "b", 60.0) == []
    assert due_kinds(await store.timers.claim_due(30.0, "b", 60.0)) == [("ai", 30.0)]
    claims = await raw_query(
        target, "SELECT kind, claimed_by, claimed_until FROM timers ORDER BY due_at"
    )
    assert claims == [
        ("reminder", "a", 85.0),
        ("expiry", "a", 85.0),
        ("turn", "a", 85.0),
        ("ai", "b", 90.0),
    ]


async def test_claim_due_takes_at_most_limit_rows(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    for i in range(5):
        await store.timers.set_timer(f"k{i}", float(i), game_id=row.id)
    first = await store.timers.claim_due(10.0, "a", 5.0, limit=2)
    assert [t.kind for t in first] == ["k0", "k1"]
    rest = await store.timers.claim_due(10.0, "a", 5.0, limit=50)
    assert [t.kind for t in rest] == ["k2", "k3", "k4"]
    with pytest.raises(ValueError):
        await store.timers.claim_due(10.0, "a", 0.0)
    with pytest.raises(ValueError):
        await store.timers.claim_due(10.0, "a", 5.0, limit=0)


async def test_a_claim_whose_lease_ended_can_be_claimed_by_another(store: Store):
    """The claimer died before completing: another process fires the timer after the lease."""
    row, _ = await new_game(store, 10, seats=2)
    await store.timers.set_timer("turn", 100.0, game_id=row.id, seat=1)
    (mine,) = await store.timers.claim_due(100.0, "dead", 60.0)
    assert await store.timers.claim_due(159.9, "alive", 60.0) == []
    (theirs,) = await store.timers.claim_due(160.0, "alive", 60.0)
    assert theirs.id == mine.id and theirs.seat == 1
    assert not await store.timers.complete(mine, "dead")  # it is no longer the dead one's
    assert await store.timers.complete(theirs, "alive")
    assert await store.timers.list_all() == []


async def claimed_turn(store: Store):
    """A new game whose "turn" timer (due at 100) claimer "a" claimed for 60 s."""
    row, _ = await new_game(store, 10, seats=2)
    await store.timers.set_timer("turn", 100.0, game_id=row.id)
    (claimed,) = await store.timers.claim_due(100.0, "a", 60.0)
    return row, claimed


async def test_complete_keeps_a_timer_that_was_set_again_meanwhile(store: Store):
    row, claimed = await claimed_turn(store)
    await store.timers.set_timer("turn", 300.0, game_id=row.id)  # the next turn's deadline
    assert not await store.timers.complete(claimed, "a")
    assert due_kinds(await store.timers.list_all()) == [("turn", 300.0)]
    assert await store.timers.claim_due(299.0, "b", 60.0) == []
    (again,) = await store.timers.claim_due(300.0, "b", 60.0)
    assert await store.timers.complete(again, "b")
    assert await store.timers.list_all() == []


async def test_a_timer_set_again_with_its_step_loses_its_claim(store: Store):
    row, claimed = await claimed_turn(store)
    # Same deadline, set again by a step: it must fire again, not be deleted by the old claim.
    await store.steps.append_step(row.id, 0, END, at=1.0, timers=[TimerChange("turn", 100.0)])
    assert not await store.timers.complete(claimed, "a")
    assert [t.id for t in await store.timers.claim_due(100.0, "b", 60.0)] == [claimed.id]


async def test_complete_of_a_cleared_timer_is_false(store: Store):
    row, claimed = await claimed_turn(store)
    assert await store.timers.clear_timer("turn", game_id=row.id)
    assert not await store.timers.complete(claimed, "a")


async def test_next_wake_is_when_a_claim_could_next_succeed(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    assert await store.timers.next_wake() is None
    await store.timers.set_timer("turn", 50.0, game_id=row.id)
    await store.timers.set_timer("ai", 80.0, game_id=row.id)
    assert await store.timers.next_wake() == 50.0
    (turn,) = await store.timers.claim_due(60.0, "a", 30.0)  # claimed until 90
    assert await store.timers.next_wake() == 80.0
    (ai,) = await store.timers.claim_due(85.0, "a", 30.0)  # claimed until 115
    assert await store.timers.next_wake() == 90.0  # the turn timer's lease ends first
    assert await store.timers.complete(turn, "a")
    assert await store.timers.next_wake() == 115.0
    assert await store.timers.complete(ai, "a")
    assert await store.timers.next_wake() is None


async def test_a_claimer_of_some_kinds_claims_and_waits_for_those_only(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    await store.timers.set_timer("turn", 50.0, game_id=row.id)
    await store.timers.set_timer("ai", 80.0, game_id=row.id)
    await store.timers.set_timer("ai_retry", 90.0, game_id=row.id)
    assert await store.timers.next_wake(("ai", "ai_retry")) == 80.0  # the turn is not its
    claimed = await store.timers.claim_due(100.0, "a", 30.0, kinds=("ai", "ai_retry"))
    assert due_kinds(claimed) == [("ai", 80.0), ("ai_retry", 90.0)]
    assert await store.timers.next_wake(("ai", "ai_retry")) == 130.0  # their leases
    assert due_kinds(await store.timers.claim_due(100.0, "b", 30.0)) == [("turn", 50.0)]


async def test_two_stores_claiming_at_once_never_get_the_same_timer(target):
    """Two processes (stores), three claiming loops each, 300 due timers: each claimed once."""
    async with await open_store(target) as a, await open_store(target) as b:
        row, _ = await new_game(a, 10, seats=2)
        rng = random.Random(5)
        async with a._db.write() as tx:
            await tx.many(
                "INSERT INTO timers (game_id, kind, due_at) VALUES (?, ?, ?)",
                [(row.id, f"k{i}", rng.uniform(0, 100)) for i in range(300)],
            )
        claimed: dict[str, list[int]] = {"a": [], "b": []}

        async def claimer(store: Store, name: str) -> None:
            while rows := await store.timers.claim_due(100.0, name, 600.0, limit=7):
                claimed[name].extend(t.id for t in rows)

        await asyncio.gather(*(claimer(s, n) for s, n in ((a, "a"), (b, "b")) for _ in range(3)))
        everything = claimed["a"] + claimed["b"]
        assert len(everything) == len(set(everything)) == 300
        owners = dict(await raw_query(target, "SELECT id, claimed_by FROM timers"))
        assert all(owners[i] == "a" for i in claimed["a"])
        assert all(owners[i] == "b" for i in claimed["b"])
