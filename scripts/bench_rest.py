"""REST budget benchmark: the Discord API calls the bot makes over whole games, by route.

Usage: python scripts/bench_rest.py [--games N] [--seats 2 3 4] [--via slash dm web]
                                     [--seed N] [--auto-end] [--routes] [--pace MIN MAX]

For each seat count and each way of playing (``slash``: ``/hats exchange`` etc. in the game's
channel; ``dm``: the hand controls of the player's hand DM, card select then action button, as
tests/bot/helpers.py does; ``web``: every human plays in the Activity, one live WebSocket each on
the bot's web server, connected to the channel before the lobby opens, moves sent as ``act``
requests of hats-activity/1, so only the channel's table message is kept up to date and nobody
gets a turn-ping DM) a fresh bot (``bot.create_bot``, temporary SQLite file, no turn timer,
no AI delay) runs ``--games`` whole games under ``simcord.run``, all players human. Every move
is a random legal action of the seat to move (``random.Random(--seed)``: a kind first, then one
action of that kind; with 4 seats that includes partner swap offers, answers, declines and
withdrawals). ``--auto-end``: every player turns on "end my turn after the main action" (the
live hand DM's toggle, once per game, at their first turn; the click counts as an interaction).

The REST calls come from simcord's request log (``env.http_requests``, made timed by
tests/bot/rest_log.py). Each call is counted as *free* (interaction responses
``POST /interactions/{id}/{token}/callback`` and followups / original-response edits
``/webhooks/{app}/{token}/...``: not bound to the global rate limit) or *limited* (everything
else: message posts and edits in channels and DMs, DM channel creation, ``GET /users/{id}``).
Simulated time moves ``--pace`` seconds before each step (``env.advance_time``; drawn
uniformly between MIN and MAX by ``random.Random(--seed + 1)``, default 3 to 10 s as people
play, issue 29), so the per-channel edit budget (5 per 5 s) never holds an edit back here.
Calls are attributed to the step the player's interaction committed (a card select that
commits nothing is counted with the step that follows it); the game's start (lobby, first
table, first DMs) and end (final scores) are reported apart. Each game runs on a fresh bot
(its DM channels are opened anew).

Printed per (seats, via): first the issue-29 count, every limited call from ``/hats new`` to
the end (lobby, first table, DM channels, every step, the final result, and whatever edit was
still waiting, 10 s after the last step) over the game's steps, with the table's edits, DM
posts, DM channels and channel posts apart; then steps and turns per game; limited calls
per game, per step (average) and the most in any single step; interactions per turn (every
player interaction that was part of a turn: selects, buttons, slash commands, a partner's
answer); the limited calls by route;
and the ceiling of one bot token: Discord allows about 50 limited requests/s per bot, so with
one step every 10 s in every game, at most ``50 * 10 / (limited calls per step)`` games can be
live at once.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import discord
import simcord
from bench_bot import SLASH_OF, custom_ids  # scripts/ is sys.path[0] when run as a script
from simcord.env import Env

from bot import create_bot
from cogs.controls import action_custom_id, card_select_custom_id
from engine import ActionKind
from tests.bot import rest_log
from tests.bot.helpers import adopt_web_steps, open_activity

Env._settle_internal.__kwdefaults__["idle"] = 0.001  # see tests/bot/conftest.py

RATE_PER_SECOND = 50
"""Discord's global rate limit per bot token (requests/s), interaction endpoints excepted."""
STEP_EVERY = 10.0
"""Assumed seconds between two steps of one game while people play."""


@dataclass
class Tally:
    """Counts of one (seats, via) run."""

    seats: int
    via: str
    games: int = 0
    steps: int = 0
    turns: int = 0
    interactions: int = 0
    per_step: list[int] = field(default_factory=list)
    free: int = 0
    start_limited: list[int] = field(default_factory=list)
    end_limited: list[int] = field(default_factory=list)
    routes: Counter[str] = field(default_factory=Counter)
    worst: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    whole: list[int] = field(default_factory=list)
    """Limited calls of each game from ``/hats new`` to the end (issue 29's count)."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Those calls by kind: table edits, DM posts, DM channels, channel posts, other."""


def hand_message(player: Any, session: Any) -> Any:
    """The player's live hand DM: the latest bot DM carrying this game's hand controls."""
    prefixes = (f"hats:hs:{session.id}:", f"hats:h:{session.id}:")
    for message in reversed(list(player.user.dm_channel.history())):
        if any(cid.startswith(prefixes) for cid in custom_ids(message)):
            return message
    return player.user.dm_channel.last_message


async def act(env: Any, channel: Any, player: Any, session: Any, action: Any, via: str) -> int:
    """Make ``action`` through the UI; returns the number of interactions it took."""
    kind = action.kind
    card = getattr(action, "card", None)
    if via == "slash":
        options: dict[str, Any] = {}
        if card is not None:
            options["card"] = card.code
        if kind is ActionKind.EXCHANGE:
            options["slot"] = action.slot
        await player.slash(channel, SLASH_OF[kind], **options)
        return 1
    version = session.version
    message = hand_message(player, session)
    n = 0
    if card is not None:
        await player.user.select(
            message, [card.code], custom_id=card_select_custom_id(session.id, version)
        )
        n += 1
        message = next(m for m in player.user.dm_channel.history() if m.id == message.id)
    await player.user.click(message, custom_id=action_custom_id(session.id, version, action))
    return n + 1


async def set_auto_end(player: Any, session: Any) -> bool:
    """Turn on "end my turn after the main action" by the hand DM's toggle, if it exists."""
    message = hand_message(player, session)
    for cid in custom_ids(message):
        if cid.startswith(f"hats:p:{session.id}:"):
            await player.user.click(message, custom_id=cid)
            return True
    return False


class WebPlayer:
    """One player's WebSocket on the bot's web server: reads every frame, answers by id."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.view: dict[str, Any] | None = None
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            if frame["t"] == "view":
                self.view = frame
            future = self.waiting.pop(frame.get("id") or 0, None)
            if future is not None and frame["t"] in ("ack", "error"):
                future.set_result(frame)

    async def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        await self.ws.send_json(frame | {"id": request_id})
        return await asyncio.wait_for(future, 30)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def connect_web(env: Any, http: aiohttp.ClientSession, player: Any, channel: Any) -> Any:
    """``player``'s Activity on ``channel``: a WebSocket after hello."""
    return WebPlayer(await open_activity(http, env.bot, player, player.user.name, channel))


def kind_of(call: Any, dm_channels: set[str]) -> str:
    """What a limited call is, for issue 29's count: ``table edit`` (a message edit in a
    game channel), ``DM post``, ``DM edit``, ``DM channel``, ``post`` (a channel message) or
    its route."""
    if call.route == "POST /users/@me/channels":
        return "DM channel"
    channel = call.channel
    if channel is not None and call.route.endswith("/messages/{id}") and call.method == "PATCH":
        return "DM edit" if channel in dm_channels else "table edit"
    if channel is not None and call.route.endswith("/messages") and call.method == "POST":
        return "DM post" if channel in dm_channels else "post"
    return call.route


async def run_games(
    seats: int,
    via: str,
    games: int,
    seed: int,
    auto_end: bool,
    pace: tuple[float, float] = (3.0, 10.0),
) -> Tally:
    """Play ``games`` whole games, each on a fresh bot; count their REST calls.

    ``pace``: the seconds of simulated time before each step, drawn uniformly (min, max).
    """
    tally = Tally(seats, via)
    rng = random.Random(seed)
    clock = random.Random(seed + 1)
    seeds = itertools.count(seed * 1_000_003 + 1)
    for _ in range(games):  # each game on a fresh bot: its DM channels opened anew
        await _one_game(tally, rng, clock, seeds, auto_end, pace)
    return tally


async def _one_game(
    tally: Tally,
    rng: random.Random,
    clock: random.Random,
    seeds: Any,
    auto_end: bool,
    pace: tuple[float, float],
) -> None:
    """One whole game on a fresh bot, counted into ``tally``."""
    seats, via, games = tally.seats, tally.via, 1
    with tempfile.TemporaryDirectory(prefix="bench_rest_") as tmp:
        bot = create_bot(
            Path(tmp) / "hats.sqlite3",
            turn_timer=None,
            ai_delay=0.0,
            seed_source=lambda: next(seeds),
            web_port=0 if via == "web" else None,
        )
        http = aiohttp.ClientSession()
        try:
            async with simcord.run(bot, settle_timeout=10.0, check_errors=False) as env:
                if via == "web":
                    adopt_web_steps(env)
                log = rest_log.install(env)
                guild = env.create_guild("Budget")
                players = [guild.add_member(env.create_user(f"p{s}")) for s in range(seats)]
                actors = {p.id: p for p in players}
                for _g in range(games):
                    channel = guild.create_text_channel("hats")
                    sockets = {}
                    if via == "web":  # they open the Activity in the channel first
                        for p in players:
                            sockets[p.id] = await connect_web(env, http, p, channel)
                    mark = first = len(log.calls)
                    result = await players[0].slash(channel, "hats new")
                    lobby = result.response.message
                    for p in players[1:]:
                        await p.click(lobby, label="Join")
                    await players[0].click(lobby, label="Start")
                    session = await bot.games.session_in_channel(channel.id)
                    await env.settle()
                    toggled: set[int] = set()
                    tally.start_limited.append(sum(not c.free for c in log.calls[mark:]))
                    mark = len(log.calls)
                    game = session.game
                    while not game.is_over:
                        seat = game.to_move
                        player = actors[session.seats[seat].user_id]
                        legal = game.legal_actions(seat)
                        kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
                        kind = rng.choice(kinds)
                        action = rng.choice([a for a in legal if a.kind is kind])
                        before = session.version
                        await env.advance_time(clock.uniform(*pace))  # as people play
                        if auto_end and seat not in toggled and await set_auto_end(player, session):
                            toggled.add(seat)  # once per player and game, counted
                            tally.interactions += 1
                            game = session.game
                            if session.version != before:
                                continue
                        if via == "web":
                            answer = await sockets[player.id].request(
                                {
                                    "t": "act",
                                    "game_id": str(session.id),
                                    "step": session.version,
                                    "action": action.to_dict(),
                                }
                            )
                            if answer["t"] != "ack":
                                tally.errors.append(f"refused: {answer}")
                            await env.settle()
                            tally.interactions += 1  # a WebSocket request, not an interaction
                        else:
                            tally.interactions += await act(
                                env, channel, player, session, action, via
                            )
                        game = session.game
                        done = session.version - before
                        if done <= 0:
                            tally.errors.append(f"move not applied: {action} {env.errors[-1:]}")
                            break
                        for e in game.events[before:]:
                            tally.turns += e.turn_ended
                        calls = log.calls[mark:]
                        mark = len(log.calls)
                        if game.is_over:  # the final scores are counted apart
                            end = [
                                c
                                for c in calls
                                if c.route.startswith("POST /channels/{id}/messages")
                            ]
                            tally.end_limited.append(len(end))
                            calls = [c for c in calls if c not in end]
                        limited = [c for c in calls if not c.free]
                        tally.free += len(calls) - len(limited)
                        tally.routes.update(c.route for c in limited)
                        # a step the bot added by itself (auto end) shares the calls
                        if len(limited) > max(tally.per_step, default=-1):
                            tally.worst = [f"{action.kind.value}: "] + [c.route for c in limited]
                        tally.per_step.append(len(limited))
                        tally.per_step.extend([0] * (done - 1))
                        tally.steps += done
                    await env.advance_time(10)  # an edit still held back goes out
                    whole = [c for c in log.calls[first:] if not c.free]
                    dms = {
                        str(p.user.dm_channel.id) for p in players if p.user.dm_channel is not None
                    }
                    tally.whole.append(len(whole))
                    tally.kinds.update(kind_of(c, dms) for c in whole)
                    tally.games += 1
                    for client in sockets.values():
                        await client.close()
                tally.errors.extend(repr(e)[:200] for e in env.errors)
        finally:
            await http.close()
            if bot.store is not None:
                await bot.store.close()


def report(t: Tally, routes: bool) -> str:
    """The figures of one run, as text."""
    limited = sum(t.per_step)
    per_step = limited / t.steps
    ceiling = RATE_PER_SECOND * STEP_EVERY / per_step if per_step else float("inf")
    whole = sum(t.whole)
    kinds = ", ".join(f"{n / t.games:.1f} {k}" for k, n in t.kinds.most_common())
    lines = [
        f"seats={t.seats} via={t.via}: {t.games} games, {t.steps / t.games:.1f} steps and "
        f"{t.turns / t.games:.1f} turns per game",
        f"  from /hats new to the end: {whole / t.steps:.2f} limited calls per step "
        f"({whole / t.games:.1f} per game: {kinds})",
        f"  limited calls per step: avg {per_step:.2f}, max {max(t.per_step)} "
        f"(median {statistics.median(t.per_step):.0f}); per game {limited / t.games:.1f} "
        f"+ start {statistics.mean(t.start_limited):.1f} "
        f"+ end {statistics.mean(t.end_limited):.1f}",
        f"  free calls (interaction responses, followups) per step {t.free / t.steps:.2f}",
        f"  interactions per turn {t.interactions / t.turns:.2f}",
        f"  ceiling for one bot token (50 req/s, a step every {STEP_EVERY:.0f} s per game): "
        f"{ceiling:.0f} games in play",
    ]
    if routes:
        lines.append(f"    the costliest step: {' '.join(t.worst[:1])}{', '.join(t.worst[1:])}")
        for route, n in t.routes.most_common():
            lines.append(f"    {n / t.games:7.1f}/game  {route}")
    if t.errors:
        lines.append(f"  errors: {len(t.errors)}: {t.errors[:3]}")
    return "\n".join(lines)


def main() -> None:
    """Parse the options, run every (seats, via), print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="whole games per (seats, via)")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    parser.add_argument("--via", nargs="+", default=["slash", "dm"], choices=("slash", "dm", "web"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--auto-end", action="store_true", help="players end turns by preference")
    parser.add_argument("--routes", action="store_true", help="list limited calls by route")
    parser.add_argument(
        "--pace",
        type=float,
        nargs=2,
        default=[3.0, 10.0],
        metavar=("MIN", "MAX"),
        help="seconds between two steps, drawn uniformly (default 3 10)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(
        f"bench_rest: games={args.games} seed={args.seed} auto_end={args.auto_end} "
        f"pace={args.pace[0]:g}-{args.pace[1]:g} s "
        f"discord.py {discord.__version__}",
        flush=True,
    )
    for seats in args.seats:
        for via in args.via:
            tally = asyncio.run(
                run_games(seats, via, args.games, args.seed, args.auto_end, tuple(args.pace))
            )
            print(report(tally, args.routes), flush=True)


if __name__ == "__main__":
    main()
