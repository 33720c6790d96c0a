"""Per-server settings (migration 0006): the public language set with /hats settings language."""

from __future__ import annotations

from data import open_store
from data.guild_settings import GuildOptions


async def test_a_server_language_is_stored_reset_and_survives_a_reopen(store, target):
    assert await store.guild_settings.language(7) is None
    await store.guild_settings.set_language(7, "de", at=1.0)
    await store.guild_settings.set_language(8, "it", at=1.0)
    await store.guild_settings.set_language(7, "fr", at=2.0)
    assert await store.guild_settings.language(7) == "fr"
    assert await store.guild_settings.languages() == {7: "fr", 8: "it"}
    await store.guild_settings.set_language(8, None, at=3.0)
    assert await store.guild_settings.languages() == {7: "fr"}
    await store.close()
    async with await open_store(target) as again:
        assert await again.guild_settings.language(7) == "fr"
        assert await again.guild_settings.language(8) is None


async def test_pictures_and_the_default_timer_are_stored_per_server(store, target):
    """Migration 0010 (SQLite and PostgreSQL): pictures on/off, the new lobbies' turn timer."""
    assert await store.guild_settings.options() == {}
    await store.guild_settings.set_language(7, "de", at=1.0)
    await store.guild_settings.set_pictures(7, False, at=2.0)
    await store.guild_settings.set_turn_timer(8, 0.0, at=2.0)  # no timer
    await store.guild_settings.set_turn_timer(9, 90.0, at=2.0)
    options = await store.guild_settings.options()
    assert options == {
        7: GuildOptions(pictures=False, turn_timer=None),
        8: GuildOptions(pictures=True, turn_timer=0.0),
        9: GuildOptions(pictures=True, turn_timer=90.0),
    }
    assert await store.guild_settings.language(7) == "de"  # the other columns stay
    await store.guild_settings.set_pictures(7, True, at=3.0)
    await store.close()
    async with await open_store(target) as again:
        assert 7 not in await again.guild_settings.options()
        assert (await again.guild_settings.options())[9].turn_timer == 90.0
