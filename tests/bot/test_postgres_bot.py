"""The whole bot over PostgreSQL (``HATS_DATABASE_URL``): a full game, restarts, exit code 3.

The simcord tests imported below run here a second time with the ``db_path`` fixture pointing
at a fresh PostgreSQL schema instead of an SQLite file (``create_bot`` accepts the URL as
``HATS_DATABASE_URL``), so the same assertions hold on both backends.
"""

from __future__ import annotations

import asyncio
import json
import socket

import asyncpg
import pytest

import bot
from tests.bot.helpers import play_to_end
from tests.bot.test_full_game import test_two_player_game_to_the_end_by_dm_controls  # noqa: F401
from tests.bot.test_outbox_crash import (  # noqa: F401
    test_killed_after_last_step_commit_restored_bot_posts_the_end_once,
)
from tests.bot.test_restart_and_dms import (  # noqa: F401
    test_record_and_rematch_after_the_end,
    test_restart_keeps_open_lobby_and_its_buttons,
    test_restart_mid_game_old_buttons_work_and_game_finishes,
)
from tests.bot.test_tournament import (  # noqa: F401
    night,
    test_seven_players_three_rounds_to_the_end,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
def db_path(pg_url):
    """The bot's database for the imported tests: a PostgreSQL URL, not a file."""
    return pg_url


@pytest.fixture
def rounds():
    """The game night on PostgreSQL plays 2 rounds, not 3 (a third of its games).

    Which pairs meet over three rounds is the SQLite run's point, and the service's on both
    stores (tests/service/test_service_tournaments.py); here it is that the surface keeps the
    night on this store: threads, a restart between two rounds and one inside the last with an
    absent player and a drop, the standings, the record.
    """
    return 2


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_url_setting_is_read_and_a_bad_one_is_named():
    url = "postgresql://hats:pw@localhost/hats"
    assert bot.Settings.from_env({"HATS_DATABASE_URL": url}).database_url == url
    with pytest.raises(ValueError, match="HATS_DATABASE_URL"):
        bot.Settings.from_env({"HATS_DATABASE_URL": "hats.sqlite3"})


def test_an_unreachable_database_server_exits_3_with_one_clear_message(monkeypatch, capsys):
    """Discord accepted the token (start runs setup_hook), then the server refuses: exit 3."""

    async def accepted(self, token, *, reconnect=True):
        await self.setup_hook()

    monkeypatch.setattr(bot.HatsBot, "start", accepted)
    url = f"postgresql://hats:secret@127.0.0.1:{_closed_port()}/hats"
    settings = bot.Settings(token="unused", database_url=url)
    assert asyncio.run(bot._run(settings)) == bot.EXIT_DATABASE == 3
    err = capsys.readouterr().err
    assert "Cannot open the database postgresql://hats:***@127.0.0.1" in err
    assert "unreachable" in err and "secret" not in err


async def test_a_finished_game_and_its_record_are_stored_in_postgres(world, pg_url):
    await play_to_end(world, 2, seed=3)
    conn = await asyncpg.connect(pg_url)  # another connection: the rows are committed
    try:
        status = await conn.fetch("SELECT status FROM games")
        record = await conn.fetchval("SELECT record FROM records")
    finally:
        await conn.close()
    assert [r["status"] for r in status] == ["finished"]
    assert json.loads(record)["format"] == "hats-record/1"
