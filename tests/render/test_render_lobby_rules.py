"""The lobby embed and the rules pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_support import EN, FR, embed_text

from cogs.render import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo, SeatLabel, lobby_embed, rules_embeds
from cogs.render.limits import TOTAL_MAX, embed_size

SEEDS = Path("/work/shared/seeds")


def _lobby(n: int, **kw) -> LobbyInfo:
    seats = [SeatLabel(0, 500, None, "Host")]
    seats += [SeatLabel(i, 500 + i, None, f"P{i}") for i in range(1, n)]
    return LobbyInfo(host_id=500, seats=tuple(seats), **kw)


def _field(embed, name):
    return next(f.value for f in embed.fields if f.name == name)


def test_one_player_waits_and_shows_open_places():
    embed = lobby_embed(_lobby(1, settings={TURN_TIMER: None}), EN)
    assert "Hosted by <@500>." in embed.description
    assert "Waiting for 1 more player to start." in embed.description
    players = _field(embed, "Players (1/4)")
    assert players.splitlines()[0] == "1. <@500> 👑"
    assert players.count("open place") == 3
    assert "Turn timer: none" in _field(embed, "Settings")
    assert "Teams" not in embed_text(embed) and "moderators" not in embed_text(embed)


def test_three_players_ready_with_timers():
    lobby = _lobby(3, settings={TURN_TIMER: 90, SWAP_TIMEOUT: 300}, status="Starting soon")
    embed = lobby_embed(lobby, EN)
    assert "Ready to start; 1 place is still open." in embed.description
    assert "Starting soon" in embed.description
    settings = _field(embed, "Settings")
    assert "Turn timer: 1 min 30 s" in settings
    assert "5 minutes" in settings


def test_four_players_show_teams_ai_and_the_moderator_warning():
    seats = (
        SeatLabel(0, 500, None, "Host"),
        SeatLabel(1, None, "hard", "Robo"),
        SeatLabel(2, 502, None, "C"),
        SeatLabel(3, 503, None, "D"),
    )
    embed = lobby_embed(LobbyInfo(host_id=500, seats=seats), EN)
    assert "The table is full." in embed.description
    assert "🤖 Robo · hard" in _field(embed, "Players (4/4)")
    teams = _field(embed, "Teams (partners sit opposite)")
    assert "Team A: <@500> & <@502>" in teams
    assert "Team B: 🤖 Robo & <@503>" in teams
    assert "moderators can read private threads" in embed_text(embed)


def test_explicit_teams_are_used():
    lobby = _lobby(4, teams=((0, 1), (2, 3)))
    teams = _field(lobby_embed(lobby, EN), "Teams (partners sit opposite)")
    assert "Team A: <@500> & <@501>" in teams


def test_french_lobby():
    embed = lobby_embed(_lobby(4), FR)
    assert embed.title == "Hats\u202f: une nouvelle partie se prépare"  # narrow no-break space
    assert "La table est complète." in embed.description


def test_rules_pages():
    pages = rules_embeds(EN)
    assert len(pages) == 3
    text = "\n".join(embed_text(e) for e in pages)
    for words in ("exchange", "black hat", "discard", "partner", "cookie", "favourite", "napkin"):
        assert words in text.lower()
    # Sent together in one message: Discord caps the sum of all embeds at 6000.
    assert sum(embed_size(e) for e in pages) <= TOTAL_MAX


def _shingles(text: str, n: int) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not (SEEDS / "rulebook-en.txt").exists(), reason="rulebook not available")
def test_rules_are_in_our_own_words():
    ours = _shingles("\n".join(embed_text(e) for e in rules_embeds(EN)), 6)
    book = _shingles((SEEDS / "rulebook-en.txt").read_text(encoding="utf-8"), 6)
    assert not ours & book
