"""Rebuild ``texts/locales/commands.pot`` from the bot's command tree (after changing a command).

Usage: ``python scripts/extract_commands.py [OUT]`` (default: the template beside the catalogs).
It builds the bot on a throwaway SQLite file, loads every cog, and writes every command, option
and choice string with its context (:func:`cogs.command_i18n.command_strings`).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from bot import create_bot
from cogs.activity import entry_point_strings
from cogs.command_i18n import DOMAIN, command_strings, write_template
from data import open_store
from texts.i18n import LOCALES_DIR


async def _main(out: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Path(tmp) / "extract.sqlite3")
        bot.store = await open_store(bot.settings.db_path)
        try:
            await bot.load_features()
            strings = await command_strings(bot.tree.get_commands(), bot.tree)
            strings.update(entry_point_strings())  # not a discord.py command (cogs.activity)
        finally:
            for ext in list(bot.extensions):  # stops the deadline runner before the store
                await bot.unload_extension(ext)
            await bot.store.close()
    write_template(strings, out)
    print(f"{len(strings)} command strings written to {out}")
    return 0


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else LOCALES_DIR / f"{DOMAIN}.pot"
    sys.exit(asyncio.run(_main(target)))
