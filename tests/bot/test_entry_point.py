"""bot.py as a newcomer starts it: a missing or rejected token gives a clear message and exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot

ROOT = Path(__file__).resolve().parents[2]


def run_bot_py(folder: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python bot.py`` in ``folder`` with these settings (the database: folder/x.sqlite3)."""
    env = {**os.environ, "HATS_DB_PATH": str(folder / "x.sqlite3"), **settings}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_exits_2_and_says_how_to_get_one(tmp_path):
    run = run_bot_py(tmp_path, DISCORD_TOKEN="")
    assert run.returncode == 2
    assert "DISCORD_TOKEN" in run.stderr and "discord.com/developers" in run.stderr
    assert not (tmp_path / "x.sqlite3").exists()  # nothing was created


def test_rejected_token_exits_2(tmp_path, monkeypatch, capsys):
    async def refuse(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(bot.HatsBot, "start", refuse)
    settings = bot.Settings(token="nope", db_path=tmp_path / "db.sqlite3")
    import asyncio

    assert asyncio.run(bot._run(settings)) == 2
    assert "rejected DISCORD_TOKEN" in capsys.readouterr().err


def test_corrupted_database_exits_3_and_keeps_the_file(tmp_path, capsys):
    import asyncio

    path = tmp_path / "hats.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    settings = bot.Settings(token="unused", db_path=path)
    assert asyncio.run(bot._run(settings)) == 3
    assert "Cannot open the database" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_bad_setting_is_named():
    try:
        bot.Settings.from_env({"HATS_TURN_TIMER": "soon"})
    except ValueError as exc:
        assert "HATS_TURN_TIMER" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a malformed setting was accepted")


def test_ai_workers_default_to_the_machine_and_a_bad_count_is_named():
    assert bot.Settings.from_env({}).ai_workers is None  # one worker per core
    assert bot.Settings.from_env({"HATS_AI_WORKERS": "3"}).ai_workers == 3
    for bad in ("0", "two", "-1"):
        with pytest.raises(ValueError, match="HATS_AI_WORKERS must be a whole number from 1"):
            bot.Settings.from_env({"HATS_AI_WORKERS": bad})
    assert bot.machine_cores() >= 1


def _closed_port() -> int:
    """A loopback port nobody listens on: connecting is refused at once (no network needed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_network_exits_4_in_one_line_and_leaves_the_database_alone(tmp_path):
    """Discord unreachable (here: its API address refuses connections): one line, exit 4."""
    db = tmp_path / "hats.sqlite3"
    base = f"http://127.0.0.1:{_closed_port()}/api/v10"
    code = (
        "import sys, discord.http; "
        f"discord.http.Route.BASE = {base!r}; "
        "import bot; sys.exit(bot.main())"
    )
    env = {**os.environ, "DISCORD_TOKEN": "a.fake.token", "HATS_DB_PATH": str(db)}
    env["HATS_LOG_LEVEL"] = "WARNING"
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == bot.EXIT_NO_DISCORD == 4
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("Cannot reach Discord") and "127.0.0.1" in lines[0]
    assert "Traceback" not in run.stderr
    assert not db.exists()  # never created: the store opens only after Discord answered


def test_no_network_keeps_an_existing_database_byte_for_byte(tmp_path, monkeypatch, capsys):
    import asyncio
    import sqlite3

    db = tmp_path / "hats.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
    before = db.read_bytes()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{_closed_port()}/api")
    settings = bot.Settings(token="a.fake.token", db_path=db)
    assert asyncio.run(bot._run(settings)) == 4
    assert "Cannot reach Discord" in capsys.readouterr().err
    assert db.read_bytes() == before and not Path(f"{db}-wal").exists()


PG = {"HATS_DATABASE_URL": "postgresql://hats:pw@localhost/hats"}


def test_shard_settings_are_read_as_ids_and_ranges():
    read = bot.Settings.from_env
    assert (read({}).shard_count, read({}).shard_ids) == (None, None)  # Discord recommends
    assert read({"HATS_SHARD_COUNT": "4"}).shard_ids is None  # every shard of the 4
    assert read({"HATS_SHARD_COUNT": "2", "HATS_SHARD_IDS": "0-1"}).shard_ids == (0, 1)
    assert read({**PG, "HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "2-3"}).shard_ids == (2, 3)
    settings = read({**PG, "HATS_SHARD_COUNT": "8", "HATS_SHARD_IDS": " 5, 0-2 "})
    assert (settings.shard_count, settings.shard_ids) == (8, (0, 1, 2, 5))
    assert bot.describe_shards(8, settings.shard_ids) == "shards 0-2,5 of 8"
    assert bot.describe_shards(4, (3,)) == "shard 3 of 4"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"HATS_SHARD_COUNT": "0"}, "HATS_SHARD_COUNT must be a positive whole number"),
        ({"HATS_SHARD_COUNT": "two"}, "HATS_SHARD_COUNT must be a positive whole number"),
        ({"HATS_SHARD_IDS": "0,1"}, "needs HATS_SHARD_COUNT"),
        ({"HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "0;1"}, "e.g. 0,1 or 0-3"),
        ({"HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "-1"}, "e.g. 0,1 or 0-3"),
        ({"HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "3-1"}, "runs backwards"),
        ({"HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "2-4"}, "from 0 to 3"),
        ({"HATS_SHARD_COUNT": "4", "HATS_SHARD_IDS": "0-1"}, "set HATS_DATABASE_URL"),
    ],
)
def test_a_malformed_shard_setting_is_named(env, says):
    with pytest.raises(ValueError, match=says):
        bot.Settings.from_env(env)


def test_a_shard_id_beyond_the_count_exits_2_before_touching_anything(tmp_path):
    settings = {"HATS_SHARD_COUNT": "2", "HATS_SHARD_IDS": "1-2"}
    run = run_bot_py(tmp_path, DISCORD_TOKEN="a.fake.token", **settings)
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "Configuration error: HATS_SHARD_IDS: shard 2 does not exist with "
        "HATS_SHARD_COUNT=2 (shard ids run from 0 to 1)"
    )
    assert not (tmp_path / "x.sqlite3").exists()
