"""The cost of verifying Activity instances with Discord (issue 34.1): Discord calls per
connection and per game.

A real web server over SQLite and a fake Discord serving the Activity Instance API over
HTTP (tests/web/conftest.py). Three ways a game's players arrive, each a whole 4-player game
played to the end over WebSockets with one spectator, then every client reconnecting once
(a network blip), counted:

- ``together``: all five are in the Activity before the first connects (launched together);
- ``one by one``: each joins the Activity just before connecting (the worst case: each is a
  newcomer the cached answer does not list);
- ``blip after TTL``: as ``together``, the reconnects come after the cache's TTL.

Prints the calls to ``activity-instances`` and the permission checks (``may_post``, each at
most one ``GET /guilds/{g}/members/{u}`` in the bot, kept 60 s) per connection and per game.
Run: ``.venv/bin/python scripts/bench_instances.py`` (about 10 s).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.conftest import FakeDiscord, open_web_world

PLAYERS = [7101, 7102, 7103, 7104]
WATCHER = 7199


async def scenario(name: str, *, one_by_one: bool, blip_after_ttl: bool) -> None:
    fake = FakeDiscord()
    async with TestServer(fake.app(), host="127.0.0.1") as api:
        fake.url = str(api.make_url("/api/v10"))
        with tempfile.TemporaryDirectory() as where:
            async with open_web_world(
                Path(where), fake.url, discord=fake, rate_per_s=1e6, rate_burst=1e6
            ) as world:
                if not one_by_one:
                    fake.users["server"] |= {*PLAYERS, WATCHER}
                clients = []
                for n, user in enumerate([*PLAYERS, WATCHER]):
                    clients.append(await world.connect(user, f"P{n}"))
                    await clients[-1].until(lambda f: f["t"] == "lobby")
                connections = len(clients)
                host = clients[0]
                rid = await host.request({"t": "lobby", "op": "open"})
                await host.answer(rid)
                for client in clients[1:4]:
                    await client.until(lambda f: f["t"] == "lobby" and f["lobby"] is not None)
                    rid = await client.request({"t": "lobby", "op": "join"})
                    await client.answer(rid)
                rid = await host.request({"t": "lobby", "op": "start"})
                await host.answer(rid)
                view = await host.view_at(0)
                session = world.games.cached(int(view["game_id"]))
                by_user = dict(zip(PLAYERS, clients[:4], strict=True))
                rng = random.Random(7)
                while not session.game.is_over:
                    mover = by_user[session.seats[session.game.to_move].user_id]
                    view = await mover.view_at(session.version)
                    rid = await mover.request(
                        {
                            "t": "act",
                            "game_id": view["game_id"],
                            "step": view["step"],
                            "action": rng.choice(view["legal"]),
                        }
                    )
                    await mover.answer(rid)
                if blip_after_ttl:
                    world.server.instances.ttl = 0.0  # the answer is older than the TTL
                for n, user in enumerate([*PLAYERS, WATCHER]):
                    await clients[n].ws.close()
                    again = await world.connect(user, f"P{n}")
                    await again.until(lambda f: f["t"] in ("view", "lobby"))
                    connections += 1
                calls = fake.hits["instance"]
                checks = world.access.calls
                print(
                    f"{name:15} connections={connections} steps={session.version} "
                    f"instance calls={calls} ({calls / connections:.2f}/connection, "
                    f"{calls}/game) permission checks={checks} ({checks}/game)",
                    flush=True,
                )


async def main() -> None:
    await scenario("together", one_by_one=False, blip_after_ttl=False)
    await scenario("one by one", one_by_one=True, blip_after_ttl=False)
    await scenario("blip after TTL", one_by_one=False, blip_after_ttl=True)


if __name__ == "__main__":
    asyncio.run(main())
