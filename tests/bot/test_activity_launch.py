"""Launching the Activity: ``/hats play``, Open the table, and the Entry Point command in syncs.

The LAUNCH_ACTIVITY answers (interaction callback type 12) leave the bot over real HTTP to a
local fake of Discord's API (tests/bot/discord_fake.py), since simcord does not know that
type; everything else runs on simcord. The sync tests run the bot's own sync against the fake.
"""

from __future__ import annotations

import contextlib

import discord
import pytest
from simcord.backend.ops import commands as command_ops
from simcord.http.routes import commands as command_routes

from bot import create_bot
from cogs.activity import ENTRY_POINT_NAME
from tests.bot.discord_fake import LAUNCH_ACTIVITY, fake_discord_api, launches_via
from tests.bot.helpers import components_of
from tests.bot.test_full_game import table_message

OFFERED = {"web_port": 0, "client_secret": "s3cret-client-secret"}


def open_buttons(message) -> list:
    return [c for c in components_of(message) if getattr(c, "custom_id", None) == "hats:open"]


def rate_limited(env) -> int:
    return sum(
        1 for r in env.http_requests if not r.path.startswith(("/interactions/", "/webhooks/"))
    )


class TestOffered:
    @pytest.fixture(autouse=True)
    def _simcord_knows_the_entry_point(self, monkeypatch):
        """simcord's command registry refuses the Entry Point's ``handler`` field (Discord
        takes it: "Entry Point command handler types"); let it take it, as Discord does."""
        fields = (*command_ops.COMMAND_FIELDS, "handler")
        monkeypatch.setattr(command_ops, "COMMAND_FIELDS", fields)
        monkeypatch.setattr(command_routes, "COMMAND_FIELDS", fields)

    @pytest.fixture
    def bot_options(self):
        return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, **OFFERED}

    async def test_hats_play_answers_launch_activity(self, world):
        alice = world.players[0]
        async with fake_discord_api() as fake, launches_via(world.env, fake):
            before = rate_limited(world.env)
            await alice.slash(world.channel, "hats play")
            assert fake.callbacks() == [{"type": LAUNCH_ACTIVITY}]
            assert rate_limited(world.env) == before  # an interaction response: free

    async def test_open_the_table_on_the_lobby_and_the_table(self, world):
        alice, bob = world.players[:2]
        lobby = (await alice.slash(world.channel, "hats new")).response.message
        [button] = open_buttons(lobby)
        assert button.label == "Open the table"
        async with fake_discord_api() as fake, launches_via(world.env, fake):
            await bob.click(lobby, custom_id="hats:open")  # anyone, not only the host
            assert fake.callbacks() == [{"type": LAUNCH_ACTIVITY}]
        await bob.click(lobby, label="Join")
        await alice.click(lobby, label="Start")
        session = await world.env.bot.games.session_in_channel(world.channel.id)
        table = table_message(world.env, world.channel, session)
        assert open_buttons(table), "the table carries the button"
        async with fake_discord_api() as fake, launches_via(world.env, fake):
            await bob.click(table, custom_id="hats:open")
            assert fake.callbacks() == [{"type": LAUNCH_ACTIVITY}]

    async def test_the_button_costs_no_rest_call(self, world, monkeypatch):
        """The same lobby, start and first moves with and without the button: same calls."""
        guild = world.guild
        counts = []
        for offered in (True, False):
            loaded = type(world.env.bot.get_cog("ActivityCog"))  # load_extension's own module
            monkeypatch.setattr(loaded, "offered", property(lambda self, o=offered: o))
            channel = guild.create_text_channel(f"hats-{offered}")
            first, second = world.players[:2] if offered else world.players[2:4]
            before = rate_limited(world.env)
            lobby = (await first.slash(channel, "hats new")).response.message
            assert bool(open_buttons(lobby)) is offered
            await second.click(lobby, label="Join")
            await first.click(lobby, label="Start")
            session = await world.env.bot.games.session_in_channel(channel.id)
            assert bool(open_buttons(table_message(world.env, channel, session))) is offered
            counts.append(rate_limited(world.env) - before)
        assert counts[0] == counts[1] > 0

    async def test_in_a_dm_it_launches_the_activity_too(self, world):
        """Issue 34.2: the Activity plays in DMs (it said it "needs a server channel")."""
        alice = world.players[0]
        async with fake_discord_api() as fake, launches_via(world.env, fake):
            await alice.user.slash("hats play")
            assert fake.callbacks() == [{"type": LAUNCH_ACTIVITY}]


async def test_not_offered_without_the_activity(world):
    """Default settings (no HATS_WEB_PORT, no client secret): no button, a clear answer."""
    alice = world.players[0]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    assert not open_buttons(lobby)
    answer = await alice.slash(world.channel, "hats play")
    assert answer.ephemeral and "does not offer the live table" in answer.response.content


# ---------------------------------------------------------------- the Entry Point command
@contextlib.asynccontextmanager
async def synced_bot(tmp_path, fake, monkeypatch, **options):
    """A bot whose REST calls go to ``fake`` (discord.py's own HTTP client), store open."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake.base)
    bot = create_bot(tmp_path / "hats.sqlite3", force_sync=True, **options)
    await bot.http.static_login("Bot-token")
    bot._connection.application_id = 555000555000555000
    from data import open_store

    bot.store = await open_store(tmp_path / "hats.sqlite3")
    try:
        await bot.load_features()
        yield bot
    finally:
        for ext in list(bot.extensions):
            await bot.unload_extension(ext)
        await bot.http.close()
        await bot.store.close()


LAUNCH = {
    "id": "1000000000000000042",
    "name": "launch",
    "description": "",
    "type": 4,
    "handler": 2,
    "contexts": [0, 1, 2],
    "integration_types": [0, 1],
}


async def test_a_sync_keeps_the_entry_point_discord_made(tmp_path, monkeypatch):
    """Without the Activity here, the app's existing Entry Point is sent back as it is."""
    async with fake_discord_api() as fake:
        fake.commands = [dict(LAUNCH)]
        async with synced_bot(tmp_path, fake, monkeypatch) as bot:
            await bot.sync_commands()
        puts = [b for m, p, b in fake.calls if m == "PUT"]
        assert len(puts) == 1
        names = {(c["name"], c.get("type", 1)) for c in puts[0]}
        assert names == {("hats", 1), ("launch", 4)}
        kept = next(c for c in fake.commands if c["type"] == 4)
        assert kept["id"] == LAUNCH["id"] and kept["handler"] == 2  # the same command


async def test_where_the_bot_runs_the_activity_its_entry_point_is_synced_translated(
    tmp_path, monkeypatch
):
    async with fake_discord_api() as fake:
        fake.commands = [dict(LAUNCH)]
        async with synced_bot(tmp_path, fake, monkeypatch, **OFFERED) as bot:
            await bot.sync_commands()
            payload = await bot.command_payload()
        [entry] = [c for c in payload if c.get("type") == 4]
        assert entry["name"] == ENTRY_POINT_NAME and entry["handler"] == 2
        # offered to user installs in DMs and group DMs too (issue 34.2)
        assert entry["contexts"] == [0, 1, 2] and entry["integration_types"] == [0, 1]
        assert entry["name_localizations"]["de"] == "starten"
        assert entry["description_localizations"]["fr"].startswith("Ouvre la table")
        [put] = [b for m, p, b in fake.calls if m == "PUT"]
        assert sum(1 for c in put if c.get("type") == 4) == 1
        kept = next(c for c in fake.commands if c["type"] == 4)
        assert kept["id"] == LAUNCH["id"]  # updated in place, not a second entry point


async def test_a_renamed_entry_point_keeps_its_name(tmp_path, monkeypatch):
    async with fake_discord_api() as fake:
        fake.commands = [dict(LAUNCH, name="table")]
        async with synced_bot(tmp_path, fake, monkeypatch, **OFFERED) as bot:
            await bot.sync_commands()
        [put] = [b for m, p, b in fake.calls if m == "PUT"]
        [entry] = [c for c in put if c.get("type") == 4]
        assert entry["name"] == "table" and "name_localizations" not in entry
