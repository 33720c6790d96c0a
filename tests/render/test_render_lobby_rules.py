"""The lobby's texts (Components V2) and the rules pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_support import EN, FR, TRANSLATOR

from cogs.rules_layout import rules_views
from texts import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo, SeatLabel
from texts.lobby import lobby_texts

SEEDS = Path("/work/shared/seeds")


def _lobby(n: int, **kw) -> LobbyInfo:
    seats = [SeatLabel(0, 500, None, "Host")]
    seats += [SeatLabel(i, 500 + i, None, f"P{i}") for i in range(1, n)]
    return LobbyInfo(host_id=500, seats=tuple(seats), **kw)


def _text(lobby: LobbyInfo, tr=EN) -> str:
    return "\n".join(lobby_texts(lobby, tr))


def test_one_player_waits_and_shows_open_places():
    blocks = lobby_texts(_lobby(1, settings={TURN_TIMER: None}), EN)
    assert "Hosted by <@500>." in blocks[0]
    assert "Waiting for 1 more player to start." in blocks[0]
    players = blocks[1]
    assert players.splitlines()[0] == "1. <@500> 👑"
    assert players.count("open place") == 3
    # the turn timer is the lobby's timer menu's (its chosen option), not said twice
    assert "Turn timer" not in "\n".join(blocks)
    assert "Teams" not in "\n".join(blocks) and "moderators" not in "\n".join(blocks)


def test_three_players_ready_with_timers():
    lobby = _lobby(3, settings={TURN_TIMER: 90, SWAP_TIMEOUT: 300}, status="Starting soon")
    blocks = lobby_texts(lobby, EN)
    assert "Ready to start; 1 place is still open." in blocks[0]
    assert "Starting soon" in blocks[0]
    assert "-# Time to answer a partner swap (4 players): 5 minutes" in blocks[-1]


def test_four_players_show_teams_ai_and_the_moderator_warning():
    seats = (
        SeatLabel(0, 500, None, "Host"),
        SeatLabel(1, None, "hard", "Robo"),
        SeatLabel(2, 502, None, "C"),
        SeatLabel(3, 503, None, "D"),
    )
    blocks = lobby_texts(LobbyInfo(host_id=500, seats=seats), EN)
    assert "The table is full." in blocks[0]
    teams = blocks[1]  # each player once, by team (issue 29): no numbered places before
    assert teams.startswith("**Teams (partners sit opposite)**")
    assert "Team A: <@500> 👑 & <@502>" in teams
    assert "Team B: 🤖 Robo · hard & <@503>" in teams
    assert len(blocks) == 3 and "Moderators can read the teams' private threads." in blocks[-1]


def test_explicit_teams_are_used():
    assert "Team A: <@500> 👑 & <@501>" in _text(_lobby(4, teams=((0, 1), (2, 3))))


def test_french_lobby():
    blocks = lobby_texts(_lobby(4), FR)
    assert blocks[0].startswith("**Hats\u202f: nouvelle partie**")
    assert "La table est complète." in blocks[0]


def _rules_text(tr) -> str:
    (view,) = rules_views(tr)
    return "\n".join(i.content for i in view.walk_children() if hasattr(i, "content"))


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr", "it"])
def test_rules_are_one_v2_message(lang):
    tr = TRANSLATOR.for_locale(lang)
    (view,) = rules_views(tr)
    kinds = [type(i).__name__ for i in view.walk_children()]
    assert kinds[0] == "Container" and kinds.count("Separator") == 2  # three parts
    text = _rules_text(tr)
    if lang == "en":
        for words in ("exchange", "black hat", "discard", "partner", "cookie", "favourite"):
            assert words in text.lower()
    # Components V2: at most 4,000 characters of text in one message
    assert len(text) <= 4000


def _shingles(text: str, n: int) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not (SEEDS / "rulebook-en.txt").exists(), reason="rulebook not available")
def test_rules_are_in_our_own_words():
    ours = _shingles(_rules_text(EN), 6)
    book = _shingles((SEEDS / "rulebook-en.txt").read_text(encoding="utf-8"), 6)
    assert not ours & book
