"""Phone fit: how tall the bot's messages are on a 360 px wide phone screen (issue 18).

Usage: python scripts/phone_fit.py [--langs en de] [--out docs/images/phone] [--seed N]

Plays one 4-player game under simcord (a fresh bot, ``bot.create_bot`` on a temporary SQLite
file, no turn timer, all players human, random legal moves from ``random.Random(--seed)``),
in each language of ``--langs`` (every player's client and the server speak it). At five
moments it opens simcord's preview (``env.preview``: the real message as Discord shows it,
focused alone, ``display="fixed"``, 360 CSS px wide) in headless Chromium (Debian's
``chromium``, driven over the DevTools protocol with aiohttp) and measures the message's
height in CSS pixels, from the top of the author line to the bottom of its last component:

- ``lobby``: the lobby with 4 players joined, before the start (only usable controls);
- ``hand start``: the live hand DM of the player to move at the start of a turn, mid-game;
- ``hand chosen``: the same message after a card was chosen in its card select;
- ``table``: the public table message, mid-game (4 players);
- ``end``: the end screen (the final scores message, 4 players).

Prints one row per surface and language with the height and the issue's limit, and saves the
screenshots (device scale 2) as ``<out>/<surface>-<lang>.png``. Not a test: it needs Chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import logging
import random
import re
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import simcord
import simcord.interactions
from bench_bot import custom_ids  # scripts/ is sys.path[0] when run as a script
from bench_rest import act
from simcord.env import Env

from bot import create_bot

Env._settle_internal.__kwdefaults__["idle"] = 0.001  # see tests/bot/conftest.py

WIDTH = 360
"""The phone's width in CSS pixels (issue 18)."""
PAGE_HEIGHT = 3000
"""The preview's and the browser's height: tall enough that no message is cut."""
LIMITS = {"hand start": 640, "hand chosen": 640, "table": 640, "end": 1000}
"""The issue's height limits in CSS pixels at 360 px wide."""
MEASURED_ONLY = ("lobby",)
"""Surfaces measured without a limit of their own."""
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
)
MEASURE_JS = """
(() => {
  const root = document.querySelector('article.message-surface');
  if (!root || !root.querySelector('.message-header')) return null;
  const imgs = [...root.querySelectorAll('img')];
  if (imgs.some(i => !i.complete || i.naturalWidth === 0)) return null;
  const r = root.getBoundingClientRect();
  let top = Infinity, bottom = -Infinity;
  for (const child of root.children) {
    const c = child.getBoundingClientRect();
    if (c.height === 0) continue;
    top = Math.min(top, c.top);
    bottom = Math.max(bottom, c.bottom);
  }
  if (bottom < top) return null;
  return {top: top + window.scrollY, left: r.left, width: r.width, height: bottom - top,
          images: imgs.length};
})()
"""


class Browser:
    """One headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.profile = tempfile.TemporaryDirectory(prefix="phone_fit_chromium_")
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._drainer: asyncio.Future[None] | None = None

    async def __aenter__(self) -> Browser:
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if exe is None:
            raise SystemExit("phone_fit needs Chromium: apt-get install -y chromium")
        self.proc = await asyncio.create_subprocess_exec(
            exe,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={self.profile.name}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stderr is not None
        port = None
        while port is None:
            line = (await asyncio.wait_for(self.proc.stderr.readline(), 30)).decode()
            if not line:
                raise SystemExit("chromium exited before its DevTools endpoint was up")
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m[1])
        self._drainer = asyncio.ensure_future(self._drain(self.proc.stderr))
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json(content_type=None)
        page = next(t for t in targets if t["type"] == "page")
        self.ws = await self.http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    @staticmethod
    async def _drain(stream: asyncio.StreamReader) -> None:
        while await stream.readline():
            pass

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 10)
        self.profile.cleanup()

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and wait for its answer (events in between are ignored)."""
        assert self.ws is not None
        ident = next(self._ids)
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), 30)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"DevTools connection closed: {msg}")
            data = json.loads(msg.data)
            if data.get("id") == ident:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def shoot(self, url: str, path: Path, tick: Callable[[], Awaitable[None]]) -> int:
        """Open ``url`` 360 px wide; save the message's screenshot to ``path``; its height.

        ``tick`` lets the bot's event loop run (the preview is served from it) while waiting.
        """
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=WIDTH,
            height=PAGE_HEIGHT,
            deviceScaleFactor=2,
            mobile=True,
        )
        await self.call("Page.enable")
        await self.call("Page.navigate", url=url)
        box = None
        for _ in range(400):
            await tick()
            box = await self.evaluate(MEASURE_JS)
            if box:
                break
        if not box:
            raise RuntimeError(f"the preview of {url} never showed its message")
        await tick()
        box = await self.evaluate(MEASURE_JS)  # after fonts and images settled
        shot = await self.call(
            "Page.captureScreenshot",
            format="png",
            captureBeyondViewport=True,
            clip={
                "x": box["left"],
                "y": max(0, box["top"] - 8),
                "width": box["width"],
                "height": box["height"] + 16,
                "scale": 1,
            },
        )
        path.write_bytes(base64.b64decode(shot["data"]))
        return round(box["height"])


def set_locale(locale: str) -> None:
    """Every interaction carries ``locale`` as the user's and the server's language."""
    real = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = real(backend, **kwargs)
        payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = locale
        return record, payload

    simcord.interactions.base_payload = base_payload


def hand_dm(player: Any, game_id: int) -> Any:
    """The player's live hand DM of game ``game_id`` (the newest DM with its card select)."""
    for message in reversed(list(player.user.dm_channel.history())):
        if any(c.startswith(f"hats:hs:{game_id}:") for c in custom_ids(message)):
            return message
    return None


async def play_until(
    channel: Any, session: Any, players: dict[int, Any], rng: random.Random, done: Any
) -> None:
    """Random legal moves by slash command in ``channel`` until ``done(game)``."""
    game = session.game
    while not done(game):
        seat = game.to_move
        player = players[session.seats[seat].user_id]
        legal = game.legal_actions(seat)
        kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
        kind = rng.choice(kinds)
        action = rng.choice([a for a in legal if a.kind is kind])
        await act(None, channel, player, session, action, "slash")
        game = session.game


async def run(lang: str, seed: int, out: Path, browser: Browser) -> dict[str, int]:
    """Play the surfaces in ``lang``; measure and save them; heights by surface."""
    from engine import ActionKind

    set_locale(lang if lang != "en" else "en-US")
    heights: dict[str, int] = {}
    seeds = itertools.count(seed * 1_000_003 + 1)
    with tempfile.TemporaryDirectory(prefix="phone_fit_") as tmp:
        bot = create_bot(
            Path(tmp) / "hats.sqlite3",
            turn_timer=None,
            ai_delay=0.0,
            seed_source=lambda: next(seeds),
        )
        async with simcord.run(bot, settle_timeout=10.0, check_errors=False) as env:
            guild = env.create_guild("Phone", preferred_locale=lang if lang != "en" else "en-US")
            names = ("Alice", "Bruno", "Chiara", "Dmitri")
            members = [guild.add_member(env.create_user(n.lower(), global_name=n)) for n in names]
            players = {m.id: m for m in members}
            channel = guild.create_text_channel("hats")
            lobby = (await members[0].slash(channel, "hats new")).response.message
            for m in members[1:]:
                await m.click(lobby, custom_id=_join_id(lobby))
                lobby = next(x for x in channel.history() if x.id == lobby.id)
            rng = random.Random(seed)

            async def tick() -> None:
                await asyncio.sleep(0.05)

            async def shoot(name: str, target: Any, where: Any, viewer: Any) -> None:
                async with env.preview(
                    where,
                    viewers=[viewer],
                    layout="message",
                    display="fixed",
                    width=WIDTH,
                    height=PAGE_HEIGHT,
                ) as preview:
                    await preview.show(target)
                    path = out / f"{name.replace(' ', '-')}-{lang}.png"
                    heights[name] = await browser.shoot(preview.url, path, tick)

            # the full lobby before the start: only usable controls (no Join, no Add AI)
            await shoot("lobby", lobby, channel, members[0])
            await members[0].click(lobby, custom_id=_start_id(lobby))
            session = await bot.games.session_in_channel(channel.id)

            # mid-game, a human to move at the start of their turn, no swap pending
            def turn_start(game: Any) -> bool:
                fresh = not game.main_done and not game.optional_used
                return game.round >= 4 and fresh and game.pending_offer is None

            await play_until(channel, session, players, rng, turn_start)
            # the DM of the player to move: make sure they play by the controls
            seat = session.game.to_move
            player = players[session.seats[seat].user_id]
            play = bot.get_cog("PlayCog")
            play._by_slash.discard(player.id)  # as if their last move was by the controls
            play._by_controls.add(player.id)
            await play.send_hand_dm(session, seat)
            dm = hand_dm(player, session.id)
            await shoot("hand start", dm, player.user.dm_channel, player.user)
            legal = session.game.legal_actions(seat)
            card = next(
                a.card
                for a in legal
                if a.kind is ActionKind.EXCHANGE or a.kind is ActionKind.BLACK_HAT
            )
            select = next(c for c in custom_ids(dm) if c.startswith("hats:hs:"))
            await player.user.select(dm, [card.code], custom_id=select)
            dm = next(m for m in player.user.dm_channel.history() if m.id == dm.id)
            await shoot("hand chosen", dm, player.user.dm_channel, player.user)
            table = _table_message(env, channel, session)
            await shoot("table", table, channel, members[0])
            await play_until(channel, session, players, rng, lambda g: g.is_over)
            end = [m for m in channel.history() if m.author.id == env.bot.user.id][-1]
            end = _end_message(env, channel) or end
            await shoot("end", end, channel, members[0])
    return heights


def _lobby_id(lobby: Any, op: str) -> str:
    return next(c for c in custom_ids(lobby) if c.endswith(f":{op}"))


def _join_id(lobby: Any) -> str:
    return _lobby_id(lobby, "join")


def _start_id(lobby: Any) -> str:
    return _lobby_id(lobby, "start")


def _table_message(env: Any, channel: Any, session: Any) -> Any:
    """The live table message of the game (the TableCog's stored message)."""
    row = session.message("table")
    return next(m for m in channel.history() if m.id == row.message_id)


def _end_message(env: Any, channel: Any) -> Any:
    """The end screen: the newest bot message in the channel with the end picture."""
    for message in reversed(list(channel.history())):
        if message.author.id != env.bot.user.id:
            continue
        names = [a.filename for a in message.attachments]
        if "end.png" in names:
            return message
    return None


def main() -> None:
    """Parse the options, measure, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--langs", nargs="+", default=["en", "de"])
    parser.add_argument("--out", type=Path, default=Path("docs/images/phone"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    args.out.mkdir(parents=True, exist_ok=True)

    async def go() -> dict[str, dict[str, int]]:
        async with Browser() as browser:
            return {lang: await run(lang, args.seed, args.out, browser) for lang in args.langs}

    results = asyncio.run(go())
    print(f"{'surface':<12} " + " ".join(f"{lang:>6}" for lang in args.langs) + "  limit")
    for name, limit in LIMITS.items():
        row = " ".join(f"{results[lang].get(name, 0):>6}" for lang in args.langs)
        ok = all(results[lang].get(name, 0) <= limit for lang in args.langs)
        print(f"{name:<12} {row}  {limit:>5} {'ok' if ok else 'TOO TALL'}")
    for name in MEASURED_ONLY:
        row = " ".join(f"{results[lang].get(name, 0):>6}" for lang in args.langs)
        print(f"{name:<12} {row}      -")


if __name__ == "__main__":
    main()
