"""A phone screenshot of a tournament's final standings (docs/players.md, "Tournaments").

Usage: python scripts/tournament_shot.py [--lang en] [--out docs/images/phone]

Runs a 7-player, 3-round Swiss tournament under simcord (a fresh bot on a temporary SQLite
file; every player lets the turn timer run out, so the AI plays the games), posts the final
standings with ``/hats tournament standings share:True`` and shoots that message in
simcord's preview, 360 CSS px wide, in headless Chromium (``scripts/phone_fit.py``'s
:class:`Browser`). Saves ``<out>/tournament-standings-<lang>.png`` and prints its height.
Not a test: it needs Chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord
from phone_fit import PAGE_HEIGHT, WIDTH, Browser, set_locale  # scripts/ is sys.path[0]

from bot import create_bot
from data import TournamentStatus

NAMES = ("Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta")


async def run(lang: str, out: Path) -> int:
    """Play the tournament, shoot the shared standings; the message's height in CSS px."""
    set_locale(lang if lang != "en" else "en-US")
    seeds = itertools.count(4242)
    with tempfile.TemporaryDirectory(prefix="tournament_shot_") as tmp:
        bot = create_bot(
            Path(tmp) / "hats.sqlite3",
            turn_timer=None,
            ai_delay=0.0,
            seed_source=lambda: next(seeds),
        )
        async with simcord.run(bot, settle_timeout=60.0, check_errors=False) as env:
            bot.pictures.enabled = False  # the games' pictures are not what is shown
            locale = lang if lang != "en" else "en-US"
            users = [env.create_user(n.lower(), global_name=n) for n in NAMES]
            guild = env.create_guild("Phone", owner=users[0], preferred_locale=locale)
            members = [guild.add_member(u) for u in users]
            channel = guild.create_text_channel("game-night")
            opened = await members[0].slash(
                channel, "hats tournament new", name="Friday night", rounds=3, timer=10
            )
            message = opened.response.message
            for m in members[1:]:
                await m.click(message, label="Join")
                message = next(x for x in channel.history() if x.id == message.id)
            await members[0].click(message, label="Start")
            cog = bot.get_cog("TournamentCog")
            row = await bot.store.tournaments.active_in_channel(channel.id)
            while (await cog.service.view(row.id)).tournament.status is TournamentStatus.RUNNING:
                await env.advance_time(11)  # nobody moves: the AI plays every seat
            shared = await members[1].slash(channel, "hats tournament standings", share=True)
            async with Browser() as browser:

                async def tick() -> None:
                    await asyncio.sleep(0.05)

                async with env.preview(
                    channel,
                    viewers=[members[1]],
                    layout="message",
                    display="fixed",
                    width=WIDTH,
                    height=PAGE_HEIGHT,
                ) as preview:
                    await preview.show(shared.response.message)
                    path = out / f"tournament-standings-{lang}.png"
                    return await browser.shoot(preview.url, path, tick)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", default="en")
    parser.add_argument("--out", type=Path, default=Path("docs/images/phone"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    height = asyncio.run(run(args.lang, args.out))
    print(f"tournament standings ({args.lang}): {height} CSS px tall at {WIDTH} px wide")


if __name__ == "__main__":
    main()
