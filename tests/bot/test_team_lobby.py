"""The 4-player lobby lists its players by team, each once, and its team buttons name who
picked them (issue 29.13)."""

from __future__ import annotations

import re

from tests.bot.helpers import custom_ids, message_text


def current(world, message):
    return next(m for m in world.channel.history() if m.id == message.id)


def button_labels(message) -> dict[str, str]:
    """Team buttons by op (``teama``/``teamb``): their labels."""
    from tests.bot.helpers import walk_components

    out = {}
    for c in walk_components(message.components):
        cid = getattr(c, "custom_id", None) or ""
        if cid.endswith((":teama", ":teamb")):
            out[cid.rsplit(":", 1)[1]] = c.label
    return out


async def test_a_full_lobby_lists_players_by_team_and_the_buttons_show_each_pick(world):
    alice, bob, carol, dave = world.players[:4]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    for p in (bob, carol, dave):
        await p.click(lobby, label="Join")
    lobby = current(world, lobby)
    team_b = next(c for c in custom_ids(lobby) if c.endswith(":teamb"))
    team_a = next(c for c in custom_ids(lobby) if c.endswith(":teama"))
    assert button_labels(lobby) == {"teama": "Team A", "teamb": "Team B"}  # nobody picked yet
    await bob.click(lobby, custom_id=team_b)
    await carol.click(current(world, lobby), custom_id=team_a)
    lobby = current(world, lobby)
    # each team button names the players who picked it themselves
    assert button_labels(lobby) == {"teama": "Team A: carol", "teamb": "Team B: bob"}
    text = message_text(lobby)
    # every player named once, under their team (no numbered list of places before it)
    for p in (alice, bob, carol, dave):
        assert text.count(f"<@{p.user.id}>") == 1 + (p is alice) * text.count("Hosted by"), text
    assert not re.search(r"^\d\. ", text, re.M), text
    lines = text.splitlines()
    a = next(line for line in lines if line.startswith("Team A: "))
    b = next(line for line in lines if line.startswith("Team B: "))
    # carol picked A, bob picked B; alice and dave fill the free places in lobby order
    assert f"<@{carol.user.id}>" in a and f"<@{alice.user.id}>" in a
    assert f"<@{bob.user.id}>" in b and f"<@{dave.user.id}>" in b
