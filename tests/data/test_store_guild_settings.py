"""Per-server settings (migration 0006): the public language set with /hats settings language."""

from __future__ import annotations

from data import open_store


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
