"""Teams in results (issue 18): /hats history ranks the teams of a 4-player game first, marks
every member of the winning team, and shows each player's score inside the team; the
leaderboard says what a rating means and marks provisional ones. English and French."""

from __future__ import annotations

import pytest

from data.history import BoardRow, SeatSummary
from tests.render.render_support import EN, FR, TRANSLATOR, finished_game, seat_labels
from texts.end import end_texts
from texts.history import leaderboard_texts, players_text


@pytest.mark.parametrize("tr", [EN, FR], ids=["en", "fr"])
def test_a_four_player_game_lists_its_teams_winning_team_first(tr):
    seats = (
        SeatSummary(0, 10, None, 19, False),  # team A: 19 + 4 = 23, lost
        SeatSummary(1, 11, None, 12, True),  # team B: 12 + 14 = 26, won
        SeatSummary(2, 12, None, 4, False),
        SeatSummary(3, None, "hard", 14, True),
    )
    text = players_text(seats, tr)
    team_a, team_b = tr("Team A"), tr("Team B")
    assert text.index(team_b) < text.index(team_a)  # the winners first, though 19 is the top
    assert f"🏆 **{team_b} 26**" in text and f"**{team_a} 23**" in text
    assert text.count("🏆") == 3  # the team and both its members
    assert text.index("<@10>: 19") < text.index("<@12>: 4")  # by score inside the team


@pytest.mark.parametrize("tr", [EN, FR], ids=["en", "fr"])
def test_leaderboard_explains_the_number_and_marks_provisional_ratings(tr):
    rows = [BoardRow(1, 7, 12.5, 9, 6), BoardRow(2, 8, 3.0, 1, 1)]
    text = "\n".join(leaderboard_texts(rows, 2, 0, 1, tr, seats=0, days=None))
    line_7, line_8 = (next(x for x in text.splitlines() if f"<@{u}>" in x) for u in (7, 8))
    assert "\\*" not in line_7 and "\\*" in line_8  # 1 rated game: provisional
    small = [x for x in text.splitlines() if x.startswith("-# ")]  # the meaning, the page
    meaning = [x for x in small if "\\*" in x]
    assert len(meaning) == 1 and "5" in meaning[0]
    assert small[-1] == "-# " + tr.plural(
        "Page {page}/{pages} · {n} player", "Page {page}/{pages} · {n} players", 2, page=1, pages=1
    )
    if tr is FR:
        assert "Cote" in meaning[0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_compact_end_groups_teams_and_says_each_fact_once(lang):
    """Pictures off: the clean-up and the scores in text, teams first, every winner 🏆."""
    tr = TRANSLATOR.for_locale(lang)
    game = finished_game(4, seed=4)
    obs = game.public_view()
    result = obs.result
    texts = end_texts(obs, seat_labels(4), tr, game_id=9, pictures=False, humans=4)
    lines = texts.results.splitlines()
    assert len(lines) == len(set(lines))
    team_lines = [i for i, line in enumerate(lines) if line.lstrip("🏆 ").startswith("**")]
    assert len(team_lines) == 2 and team_lines[0] == 1  # after the board line
    winners_team = lines[1 : team_lines[1]]
    assert all(line.startswith(("🏆", "- 🏆")) for line in winners_team)
    assert sum("🏆" in line for line in lines) == 1 + len(result.winners)
    assert texts.unrated is None and len(texts.alt) <= 1024
    unrated = end_texts(obs, seat_labels(4), tr, game_id=9, humans=1).unrated
    assert unrated == tr(
        "Not rated: a game counts for the ratings with at least two human players."
    )
