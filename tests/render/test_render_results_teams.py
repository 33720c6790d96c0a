"""Teams in results (issue 18): /hats history ranks the teams of a 4-player game first, marks
every member of the winning team, and shows each player's score inside the team; the
leaderboard says what a rating means and marks provisional ones. English and French."""

from __future__ import annotations

import pytest

from cogs.render.history import leaderboard_embed, players_text
from data.history import BoardRow, SeatSummary
from tests.render.render_support import EN, FR


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
    embed = leaderboard_embed(rows, 2, 0, 1, tr, seats=0, days=None)
    text = "\n".join(f.value for f in embed.fields)
    line_7, line_8 = (next(x for x in text.splitlines() if f"<@{u}>" in x) for u in (7, 8))
    assert "\\*" not in line_7 and "\\*" in line_8  # 1 rated game: provisional
    meaning = [x for x in text.splitlines() if x.startswith("-# ")]
    assert len(meaning) == 1 and "5" in meaning[0]
    if tr is FR:
        assert "Cote" in meaning[0]
