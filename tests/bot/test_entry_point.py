"""bot.py as a newcomer starts it: a missing or rejected token gives a clear message and exit 2."""

from __future__ import annotations

import os
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
