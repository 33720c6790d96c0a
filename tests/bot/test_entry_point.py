"""bot.py as a newcomer starts it: a missing or rejected token gives a clear message and exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import discord

import bot

ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_exits_2_and_says_how_to_get_one(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "", "HATS_DB_PATH": str(tmp_path / "x.sqlite3")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
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
