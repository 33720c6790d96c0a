"""Phone fit: how tall the bot's messages are on a 360 px wide phone screen (issues 18, 29).

Usage: python scripts/phone_fit.py [--langs en de es fr it] [--out docs/images/phone]
                                   [--save-langs en de] [--seed N] [--surfaces lobby stats ...]

For each language of ``--langs`` (every player's client and the server speak it) a fresh bot
(``bot.create_bot`` on a temporary SQLite file, no edit budget so every edit shows at once,
no AI delay) runs under simcord, with four players whose display names have 20 characters
(issue 29's worst realistic state), random legal moves from ``random.Random(--seed)``. It
opens simcord's preview (``env.preview``: the real message as Discord shows it, focused alone,
``display="fixed"``, 360 CSS px wide) in headless Chromium (Debian's ``chromium``, driven over
the DevTools protocol with aiohttp) and measures the message's height in CSS pixels, from the
top of the author line to the bottom of its last component. Surfaces, each the tallest of
several points where it has them:

- ``lobby``: 4 players joined, a turn timer of 2 minutes chosen and hints allowed;
- ``hand start``: the live hand DM of the player to move at the start of a turn (rounds 3, 5
  and 7 of a 4-player game, and in a 3-player game the turns whose "what just happened"
  holds a discard that reshuffled the discard pile into the draw deck);
- ``hand chosen``: the same message after a card was chosen in its card select;
- ``table``: the public table message of the 4-player game (same points);
- ``end``: the 4-player game's final result;
- ``coached``: the coached hand DM of ``/hats learn`` at the start of rounds 1 to 8 (the
  tallest is at turns 2–8, issue 36.9);
- ``stats``: ``/hats stats`` (private answer) after three games of the host: a 2-player, a
  3-player and the 4-player team game (issue 36.9);
- ``replay``: ``/hats replay`` of the finished 4-player team game at turns 0, 1, 2, 3, 8, 16,
  24 and 32 (steps 1–3 are the tallest, issue 36.9).

``--surfaces`` measures only the named surfaces (and skips the games that only they need):
quicker while iterating on one of them. Prints one row per surface with its height in every
language and the limit, and saves the screenshots (device scale 2) of the ``--save-langs`` as
``<out>/<surface>-<lang>.png``. Not a test: it needs Chromium.
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
from simcord.backend.errors import SetupError
from simcord.env import Env

from bot import create_bot

Env._settle_internal.__kwdefaults__["idle"] = 0.001  # see tests/bot/conftest.py

WIDTH = 360
"""The phone's width in CSS pixels (issue 18)."""
PAGE_HEIGHT = 3000
"""The preview's and the browser's height: tall enough that no message is cut."""
LIMITS = {
    "hand start": 640,
    "hand chosen": 640,
    "table": 640,
    "end": 1000,
    "lobby": 640,
    "coached": 640,
    "stats": 640,
    "replay": 800,
}
"""The issues' height limits in CSS pixels at 360 px wide (issue 29's table)."""
NAMES = (
    "Marianne Dupont-Leys",
    "Bruno Bertolucci Vay",
    "Chiara Fontanellina",
    "Dmitri Ivanovich Pav",
)
"""Four display names of 20 characters (issue 29)."""
POINTS = (3, 5, 7)
"""The rounds at whose turn start the hand DM and the table are measured."""
COACHED_POINTS = tuple(range(1, 9))
"""The rounds at whose turn start the coached practice DM is measured (issue 36.9: 2–8)."""
REPLAY_STEPS = (0, 1, 2, 3, 8, 16, 24, 32)
"""The replay's steps measured (issue 36.9: steps 1–3 of a 4-player team game)."""
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


class Shooter:
    """Shoots messages of one bot in one language; keeps each surface's tallest."""

    def __init__(
        self, env: Any, browser: Browser, lang: str, out: Path | None, only: set[str]
    ) -> None:
        self.env, self.browser, self.lang, self.out = env, browser, lang, out
        self.only = only
        self.heights: dict[str, int] = {}

    def wants(self, *names: str) -> bool:
        """Whether any of the surfaces ``names`` is measured in this run."""
        return any(n in self.only for n in names)

    async def __call__(self, name: str, target: Any, where: Any, viewer: Any) -> None:
        if name not in self.only:
            return

        async def tick() -> None:
            await asyncio.sleep(0.05)

        async with self.env.preview(
            where,
            viewers=[viewer],
            layout="message",
            display="fixed",
            width=WIDTH,
            height=PAGE_HEIGHT,
        ) as preview:
            await preview.show(target)
            print(f"  {self.lang} {name}", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                shot = Path(tmp) / "shot.png"
                height = await self.browser.shoot(preview.url, shot, tick)
                if height > self.heights.get(name, 0):
                    self.heights[name] = height
                    if self.out is not None:
                        target_path = self.out / f"{name.replace(' ', '-')}-{self.lang}.png"
                        shutil.copyfile(shot, target_path)


def fresh(channel: Any, message: Any) -> Any:
    """The current state of ``message`` in ``channel``."""
    return next(m for m in channel.history() if m.id == message.id)


def turn_start(game: Any) -> bool:
    """A human's turn has just started: nothing played yet, no swap waiting."""
    return not game.main_done and not game.optional_used and game.pending_offer is None


async def shoot_turn(
    shoot: Shooter, bot: Any, session: Any, players: dict[int, Any], table: Any = None
) -> None:
    """The live hand DM of the player to move, then with a card chosen, then the table."""
    from engine import ActionKind

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
        a.card for a in legal if a.kind is ActionKind.EXCHANGE or a.kind is ActionKind.BLACK_HAT
    )
    select = next(c for c in custom_ids(dm) if c.startswith("hats:hs:"))
    await player.user.select(dm, [card.code], custom_id=select)
    dm = fresh(player.user.dm_channel, dm)
    await shoot("hand chosen", dm, player.user.dm_channel, player.user)
    if table is not None:  # the game's channel: its table too
        viewer = players[session.seats[0].user_id]
        await shoot("table", _table_message(table, session), table, viewer)


async def play_steps(
    channel: Any, session: Any, players: dict[int, Any], rng: random.Random, n: int
) -> None:
    """``n`` random legal steps by slash command in ``channel``."""
    target = len(session.game.steps) + n
    await play_until(channel, session, players, rng, lambda g: len(g.steps) >= target)


async def run(
    lang: str, seed: int, out: Path | None, browser: Browser, only: set[str]
) -> dict[str, int]:
    """Play the surfaces in ``lang``; measure (and save) them; the tallest height by surface."""
    set_locale(lang if lang != "en" else "en-US")
    seeds = itertools.count(seed * 1_000_003 + 1)
    with tempfile.TemporaryDirectory(prefix="phone_fit_") as tmp:
        bot = create_bot(
            Path(tmp) / "hats.sqlite3",
            turn_timer=None,
            ai_delay=0.0,
            edit_limit=None,
            seed_source=lambda: next(seeds),
        )
        try:
            async with simcord.run(bot, settle_timeout=10.0, check_errors=False) as env:
                shoot = Shooter(env, browser, lang, out, only)
                guild = env.create_guild(
                    "Phone", preferred_locale=lang if lang != "en" else "en-US"
                )
                members = [
                    guild.add_member(env.create_user(f"p{i}", global_name=n))
                    for i, n in enumerate(NAMES)
                ]
                players = {m.id: m for m in members}
                host = members[0]
                rng = random.Random(seed)

                # the 4-player game: lobby with a 2-minute timer and hints, then rounds 3, 5, 7
                channel = guild.create_text_channel("hats")
                lobby = (await host.slash(channel, "hats new")).response.message
                for m in members[1:]:
                    await m.click(lobby, custom_id=_join_id(lobby))
                    lobby = fresh(channel, lobby)
                timer = next(c for c in custom_ids(lobby) if c.startswith("hats:lt:"))
                await host.select(lobby, ["120"], custom_id=timer)
                lobby = fresh(channel, lobby)
                await host.click(lobby, custom_id=_lobby_id(lobby, "hints"))
                lobby = fresh(channel, lobby)
                await shoot("lobby", lobby, channel, host)
                await host.click(lobby, custom_id=_start_id(lobby))
                session = await bot.games.session_in_channel(channel.id)
                for round_ in POINTS:
                    await play_until(
                        channel,
                        session,
                        players,
                        rng,
                        lambda g, r=round_: g.round >= r and turn_start(g),
                    )
                    await shoot_turn(shoot, bot, session, players, channel)
                await play_until(channel, session, players, rng, lambda g: g.is_over)
                await shoot("end", _end_message(env, channel), channel, host)
                game_id = session.id

                # /hats stats after three games of the host (2, 3 and 4 players, issue 36.9)
                if shoot.wants("stats"):
                    for size in (2, 3):
                        extra = guild.create_text_channel(f"hats-{size}p")
                        lobby = (await host.slash(extra, "hats new")).response.message
                        for m in members[1:size]:
                            await m.click(lobby, custom_id=_join_id(lobby))
                            lobby = fresh(extra, lobby)
                        await host.click(lobby, custom_id=_start_id(lobby))
                        other = await bot.games.session_in_channel(extra.id)
                        await play_until(extra, other, players, rng, lambda g: g.is_over)
                    stats = await host.slash(channel, "hats stats")
                    await shoot("stats", _answer(stats), channel, host)
                # /hats replay of the finished 4-player team game
                if shoot.wants("replay"):
                    replay = await host.slash(channel, "hats replay", game=game_id)
                    message = _answer(replay)
                    at = 0
                    for step in REPLAY_STEPS:
                        for _ in range(step - at):
                            ids = custom_ids(fresh(channel, message))
                            nxt = next((c for c in ids if c.endswith(":n")), None)
                            try:
                                await host.click(fresh(channel, message), custom_id=nxt)
                            except SetupError:  # ▶ is disabled at the end
                                break
                        at = step
                        await shoot("replay", fresh(channel, message), channel, host)

                # a 3-player game: turn starts right after a reshuffle of the discard pile (R9)
                if shoot.wants("hand start", "hand chosen"):
                    channel3 = guild.create_text_channel("hats-3")
                    lobby = (await host.slash(channel3, "hats new")).response.message
                    for m in members[1:3]:
                        await m.click(lobby, custom_id=_join_id(lobby))
                        lobby = fresh(channel3, lobby)
                    await host.click(lobby, custom_id=_start_id(lobby))
                    session3 = await bot.games.session_in_channel(channel3.id)
                    shot = 0
                    while not session3.game.is_over and shot < 2:
                        game = session3.game
                        seat = game.to_move
                        recent = game.events[-6:]
                        if turn_start(game) and any(
                            e.reshuffled and e.seat != seat for e in recent
                        ):
                            await shoot_turn(shoot, bot, session3, players)
                            shot += 1
                        await play_steps(channel3, session3, players, rng, 1)

                # the coached practice game (/hats learn, in the learner's DMs)
                if shoot.wants("coached"):
                    learner = members[3]
                    await learner.slash(channel, "hats learn")
                    practice = bot.get_cog("LearnCog")
                    lesson = await practice.practice_of(learner.id)
                    dm_channel = learner.user.dm_channel
                    await env.advance_time(1)
                    for turn in COACHED_POINTS:
                        try:
                            while not lesson.game.is_over and not (
                                lesson.game.round >= turn
                                and lesson.game.to_move == 0
                                and turn_start(lesson.game)
                            ):
                                lesson = await practice.practice_of(learner.id)
                                game = lesson.game
                                if game.to_move != 0:
                                    await env.advance_time(1)  # the AI players move
                                    continue
                                legal = game.legal_actions(0)
                                kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
                                kind = rng.choice(kinds)
                                action = rng.choice([a for a in legal if a.kind is kind])
                                await _dm_slash(learner, action)
                                await env.advance_time(1)
                        except SetupError as exc:  # the coached DM's controls differ
                            print(f"  coached: stopped at round {lesson.game.round}: {exc}")
                            break
                        lesson = await practice.practice_of(learner.id)
                        if lesson is None or lesson.game.is_over:
                            break
                        # the learner plays by slash here: as if by the DM's controls, so
                        # the turn's ping is the live coached hand DM (cogs.play)
                        play = bot.get_cog("PlayCog")
                        play._by_slash.discard(learner.id)
                        play._by_controls.add(learner.id)
                        await play.send_hand_dm(lesson, 0)
                        message = hand_dm(learner, lesson.id)
                        await shoot("coached", message, dm_channel, learner.user)
        finally:
            await bot.monitor.stop()
            if bot.store is not None:
                await bot.store.close()
    return shoot.heights


async def _dm_slash(player: Any, action: Any) -> None:
    """Make ``action`` by slash command in the player's DMs (a practice game is there)."""
    from bench_rest import SLASH_OF

    from engine import ActionKind

    options: dict[str, Any] = {}
    card = getattr(action, "card", None)
    if card is not None:
        options["card"] = card.code
    if action.kind is ActionKind.EXCHANGE:
        options["slot"] = action.slot
    await player.user.slash(SLASH_OF[action.kind], **options)


def _answer(result: Any) -> Any:
    """The message a slash command answered with (its last followup, else its response)."""
    return result.followups[-1] if result.followups else result.response.message


def _lobby_id(lobby: Any, op: str) -> str:
    return next(c for c in custom_ids(lobby) if c.endswith(f":{op}"))


def _join_id(lobby: Any) -> str:
    return _lobby_id(lobby, "join")


def _start_id(lobby: Any) -> str:
    return _lobby_id(lobby, "start")


def _table_message(channel: Any, session: Any) -> Any:
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
    parser.add_argument("--langs", nargs="+", default=["en", "de", "es", "fr", "it"])
    parser.add_argument("--out", type=Path, default=Path("docs/images/phone"))
    parser.add_argument("--save-langs", nargs="*", default=["en", "de"])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--surfaces", nargs="+", choices=list(LIMITS), default=list(LIMITS))
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    args.out.mkdir(parents=True, exist_ok=True)

    async def go() -> dict[str, dict[str, int]]:
        results = {}
        async with Browser() as browser:
            for lang in args.langs:
                out = args.out if lang in args.save_langs else None
                results[lang] = await run(lang, args.seed, out, browser, set(args.surfaces))
                print(lang, results[lang], file=sys.stderr, flush=True)
        return results

    results = asyncio.run(go())
    print(f"| px at 360 px | {' | '.join(args.langs)} | limit |")
    print(f"|---|{'---|' * len(args.langs)}---|")
    for name, limit in LIMITS.items():
        if name not in args.surfaces:
            continue
        row = " | ".join(
            f"**{h}**" if (h := results[lang].get(name, 0)) > limit else str(h)
            for lang in args.langs
        )
        ok = all(0 < results[lang].get(name, 0) <= limit for lang in args.langs)
        print(f"| {name} | {row} | {limit:,} {'ok' if ok else 'TOO TALL'} |")


if __name__ == "__main__":
    main()
