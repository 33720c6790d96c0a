"""Outbox claims (migration 0009): one process at a time shows an owed table or end screen."""

from __future__ import annotations

import asyncio

from data import open_store
from tests.data.storetest_util import new_game


async def test_an_item_is_claimed_by_one_process_until_its_lease_ends(store):
    row, _ = await new_game(store, 70)
    (item,) = await store.outbox.pending(row.id)
    assert await store.outbox.claim(item.id, "a", now=100.0, lease=30.0)
    assert not await store.outbox.claim(item.id, "b", now=110.0, lease=30.0)  # a shows it
    assert await store.outbox.claim(item.id, "a", now=115.0, lease=30.0)  # its own retry
    assert await store.outbox.claim(item.id, "b", now=145.0, lease=30.0)  # a's lease ended
    assert await store.outbox.mark_delivered(item.id, at=146.0)
    assert not await store.outbox.claim(item.id, "a", now=500.0, lease=30.0)  # shown already


async def test_two_stores_claiming_at_once_never_both_win(target):
    async with await open_store(target) as one, await open_store(target) as two:
        rows = [(await new_game(one, 80 + i))[0] for i in range(20)]
        items = [(await one.outbox.pending(r.id))[0] for r in rows]
        won = await asyncio.gather(
            *(
                s.outbox.claim(i.id, s.origin, now=1.0, lease=30.0)
                for i in items
                for s in (one, two)
            )
        )
        pairs = list(zip(won[::2], won[1::2], strict=True))
        assert all(a != b for a, b in pairs)  # exactly one of each pair
