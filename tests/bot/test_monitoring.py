"""A host's view: /metrics, /healthz and /readyz over HTTP while the bot plays under simcord."""

from __future__ import annotations

import random
import socket

import aiohttp
import pytest
import simcord
from aiohttp import web
from aiohttp.test_utils import TestServer
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from yarl import URL

from cogs.monitoring import MonitorError, discord_trace, route_template
from tests.bot.faults import inject
from tests.bot.helpers import play_one, session_of


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port():
    return free_port()


@pytest.fixture
def bot_options(port):
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "metrics_port": port}


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``{(sample name, sorted labels): value}`` of one /metrics scrape."""
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


OPS = ("query", "read", "write")


def moved(before, after, name, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


async def test_a_game_moves_the_counters_a_host_scrapes(world, port):
    env, alice = world.env, world.players[0]
    before = await scrape(port)
    result = await alice.slash(world.channel, "hats new")
    lobby = result.response.message
    await alice.slash(world.channel, "hats ai add", level="easy")
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    await alice.click(lobby, label="Start")
    session = await session_of(env, world.channel)
    mid = await scrape(port)
    assert mid[("hats_live_games", ())] >= 1
    assert mid[("hats_ready", ())] == 1
    assert mid[("hats_cached_games", ())] >= 1
    rng = random.Random(4)
    while not session.game.is_over:
        await play_one(world, session, rng)
    after = await scrape(port)

    steps = await env.bot.store.steps.load_steps(session.id)
    human = session.seat_of(alice.user.id)
    mine = sum(1 for s in steps if s["seat"] == human)
    assert moved(before, after, "hats_steps_total", actor="player") == mine
    assert moved(before, after, "hats_steps_total", actor="ai") == len(steps) - mine
    assert moved(before, after, "hats_games_finished_total", seats="2") == 1
    assert moved(before, after, "hats_deadlines_fired_total", kind="ai") >= 1  # the AI's turns
    assert mid[("hats_deadlines_overdue", ())] == 0
    # two slash commands, Start and every click of Alice's answered (a card select and a button
    # per move), each timed from its arrival to its answer
    commands = moved(before, after, "hats_interactions_total", kind="command", outcome="ok")
    clicks = moved(before, after, "hats_interactions_total", kind="component", outcome="ok")
    assert commands == 2 and clicks >= 1 + mine
    assert moved(before, after, "hats_interaction_seconds_count") == commands + clicks
    store_ops = sum(moved(before, after, "hats_store_seconds_count", op=op) for op in OPS)
    assert store_ops >= len(steps)  # each step is committed before anyone is told
    # the client library's process metrics are there, and the GC pauses are timed
    assert ("process_cpu_seconds_total", ()) in after
    assert any(name == "hats_gc_pause_seconds_count" for name, _ in after)


async def test_health_and_readiness(make_bot, port):
    bot = make_bot()
    await bot.monitor.start()  # what setup_hook does first, before the store opens
    assert await get(port, "/healthz") == (200, "ok\n")
    status, text = await get(port, "/readyz")
    assert status == 503 and "READY" in text
    async with simcord.run(bot):
        assert bot.store is not None
        assert await get(port, "/readyz") == (200, "ready\n")
        fault = inject(bot.store, "FROM meta", "io")
        status, text = await get(port, "/readyz")
        assert status == 503 and "store" in text
        fault.clear()
        assert (await get(port, "/readyz"))[0] == 200
        await bot.monitor.stop()
        with pytest.raises(aiohttp.ClientConnectionError):
            await get(port, "/healthz")


async def test_a_taken_port_is_named(make_bot, port):
    bot = make_bot()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        with pytest.raises(MonitorError, match=f"HATS_METRICS_PORT={port}"):
            await bot.monitor.start()


async def test_without_the_setting_nothing_listens(make_bot, port):
    bot = make_bot(metrics_port=None)
    await bot.monitor.start()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(port, "/healthz")


@pytest.mark.parametrize(
    ("method", "url", "route"),
    [
        (
            "PATCH",
            "https://discord.com/api/v10/channels/123/messages/456",
            "PATCH /channels/{id}/messages/{id}",
        ),
        (
            "POST",
            "https://discord.com/api/v10/interactions/99/aW50ZXJhY3Rpb246OTk6WFlaYWJj/callback",
            "POST /interactions/{id}/{param}/callback",
        ),
        (
            "PUT",
            "https://discord.com/api/v10/channels/1/messages/2/reactions/%F0%9F%8E%A9/@me",
            "PUT /channels/{id}/messages/{id}/reactions/{param}/@me",
        ),
        ("GET", "https://cdn.discordapp.com/attachments/1/2/table.png", "GET cdn.discordapp.com"),
    ],
)
def test_discord_routes_are_templates_without_ids(method, url, route):
    assert route_template(method, URL(url)) == route


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_the_trace_counts_discord_answers_and_429s_by_scope():
    async def limited(request):
        scope = request.query.get("scope")
        headers = {"X-RateLimit-Scope": scope} if scope else {}
        return web.json_response({"retry_after": 0.1}, status=429, headers=headers)

    async def ok(request):
        return web.json_response({})

    app = web.Application()
    app.router.add_get("/limited", limited)
    app.router.add_get("/ok", ok)
    requests, limits = "hats_discord_requests_total", "hats_discord_rate_limited_total"
    before = {
        "200": sample(requests, route="GET 127.0.0.1", status="200"),
        "429": sample(requests, route="GET 127.0.0.1", status="429"),
        "user": sample(limits, scope="user"),
        "unknown": sample(limits, scope="unknown"),
    }
    async with (
        TestServer(app, host="127.0.0.1") as server,
        aiohttp.ClientSession(trace_configs=[discord_trace()]) as http,
    ):
        for path in ("/ok", "/limited?scope=user", "/limited?scope=user", "/limited"):
            async with http.get(server.make_url(path)):
                pass
    assert sample(requests, route="GET 127.0.0.1", status="200") == before["200"] + 1
    assert sample(requests, route="GET 127.0.0.1", status="429") == before["429"] + 3
    assert sample(limits, scope="user") == before["user"] + 2
    assert sample(limits, scope="unknown") == before["unknown"] + 1
