"""Operating settings (metrics port, log format, cache idle) and the JSON log lines."""

from __future__ import annotations

import json
import logging
import random

import pytest

import bot
from tests.bot.helpers import play_one, session_of


def test_operating_settings_are_read():
    settings = bot.Settings.from_env(
        {
            "HATS_METRICS_PORT": "9464",
            "HATS_METRICS_ADDR": "0.0.0.0",
            "HATS_LOG_FORMAT": "JSON",
            "HATS_CACHE_IDLE": "off",
        }
    )
    assert (settings.metrics_port, settings.metrics_addr) == (9464, "0.0.0.0")
    assert (settings.log_format, settings.cache_idle) == ("json", None)
    default = bot.Settings.from_env({})
    assert (default.metrics_port, default.metrics_addr) == (None, "127.0.0.1")
    assert (default.log_format, default.cache_idle) == ("text", 900.0)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"HATS_METRICS_PORT": "metrics"}, "HATS_METRICS_PORT must be a port number"),
        ({"HATS_METRICS_PORT": "0"}, "from 1 to 65535"),
        ({"HATS_METRICS_PORT": "70000"}, "from 1 to 65535"),
        ({"HATS_LOG_FORMAT": "xml"}, "HATS_LOG_FORMAT must be 'text' or 'json'"),
        ({"HATS_CACHE_IDLE": "a while"}, "HATS_CACHE_IDLE must be a number of seconds"),
        ({"HATS_CACHE_IDLE": "-60"}, "HATS_CACHE_IDLE must be a positive number"),
    ],
)
def test_a_malformed_operating_setting_is_named(env, says):
    with pytest.raises(ValueError, match=says):
        bot.Settings.from_env(env)


async def test_json_logs_one_object_a_line_with_the_game_and_guild(world, capsys):
    handler = bot.log_handler(bot.Settings(log_format="json"))
    hats = logging.getLogger("hats")
    hats.addHandler(handler)
    test_log = logging.getLogger("hats.test")
    old_level = hats.level
    hats.setLevel(logging.INFO)

    async def on_hats_step(session, event, actor, origin):
        test_log.info("step %d by %s", event.number, actor)

    world.env.bot.add_listener(on_hats_step)
    try:
        alice = world.players[0]
        await alice.slash(world.channel, "hats new")
        await alice.slash(world.channel, "hats ai add", level="easy")
        lobby = next(m for m in world.channel.history() if m.components)
        await alice.click(lobby, label="Start")
        session = await session_of(world.env, world.channel)
        await play_one(world, session, random.Random(1))
        test_log.warning("a line\nin two parts", extra={"game_id": 7})
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            test_log.exception("failed")
    finally:
        world.env.bot.remove_listener(on_hats_step)
        hats.removeHandler(handler)
        hats.setLevel(old_level)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    steps = [line for line in lines if line["message"].startswith("step ")]
    assert steps and all(
        (line["game_id"], line["guild_id"]) == (session.id, world.guild.id) for line in steps
    )
    two_parts = next(line for line in lines if line["message"] == "a line\nin two parts")
    assert two_parts["game_id"] == 7 and two_parts["level"] == "WARNING"
    failed = next(line for line in lines if line["message"] == "failed")
    assert "RuntimeError: boom" in failed["exception"]
    assert failed["time"].endswith("+00:00")
