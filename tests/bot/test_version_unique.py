"""Issue 29.6: a move number never stands for two states, under simcord on SQLite.

A step whose commit fails (an injected disk I/O error on the step's INSERT) used to be
applied to the shared game first: whatever was drawn while the store was committing carried
the uncommitted state under the next number, and after the rollback a different move took
that number. Here every state readers can see during the failed commit, and after each
committed move, is recorded with its number: one number, one state.
"""

from __future__ import annotations

from tests.bot.faults import inject
from tests.bot.helpers import open_and_start


async def test_a_failed_commit_never_shows_its_state_under_a_number(world):
    env = world.env
    session = await open_and_start(world, 2)
    game_id = session.id
    seen: dict[int, set] = {}

    def look() -> None:
        """What a drawer reading the cached game sees now."""
        live = env.bot.games.cached(game_id)
        seen.setdefault(live.version, set()).add(repr(live.game.snapshot()))

    look()
    steps = env.bot.store.steps
    original = steps.append_step

    async def append_step(*args, **kwargs):
        look()  # a table or hand drawn while the store commits
        return await original(*args, **kwargs)

    steps.append_step = append_step
    seat = session.game.to_move
    mover = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    first, second = session.game.hands[seat][:2]
    fault = inject(env.bot.store, r"INSERT INTO steps", "io")
    refused = await mover.slash(world.channel, "hats blackhat", card=first.code)
    fault.clear()
    assert refused.ephemeral and fault.hits
    live = env.bot.games.cached(game_id)
    assert first in live.game.hands[seat]  # the failed move did not happen
    look()
    await mover.slash(world.channel, "hats blackhat", card=second.code)  # another move
    live = env.bot.games.cached(game_id)
    assert second in live.game.black_hats[seat]
    look()
    assert all(len(states) == 1 for states in seen.values()), {v: len(s) for v, s in seen.items()}
