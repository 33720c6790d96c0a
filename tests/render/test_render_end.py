"""The final scores embed (R14–R21)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from render_support import EN, FR, embed_text, finished_game, game_after, seat_labels

from cogs.render import card_short, card_token, end_embed
from cogs.render.common import SLOT_KEYCAPS
from engine import TieBreak


def _player_value(embed, seat):
    return next(f.value for f in embed.fields if f"Player{seat}" in f.name)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_end_totals_match_the_result(seats, seed):
    game = finished_game(seats, seed)
    result = game.result
    embed = end_embed(game.public_view(), seat_labels(seats), EN, game_id=9)
    assert embed.title == "Hats: game #9 is over"
    for seat, score in enumerate(result.scores):
        value = _player_value(embed, seat)
        assert (
            f"Collection {score.collection} + favourite {score.favourite} + "
            f"cookie {score.cookie} = **{score.total}**"
        ) in value
        assert f"Favourite hat: {card_short(result.favourites[seat])}" in value
        for card in result.black_hats[seat]:
            assert card_token(card, black_hat=True) in value  # R21: black hats revealed
        for card in result.collections[seat]:
            assert card_short(card) in value
        hats = score.black_hats
        assert (f"{hats} black hat:" if hats == 1 else f"{hats} black hats:") in value
    winners = [f for f in embed.fields if "🏆" in f.name]
    assert len(winners) == len(result.winners)
    # players are listed by rank, numbered: winners first, then by total
    ranked = [f for f in embed.fields if f.name[:1].isdigit()]
    assert [f.name.split(".")[0] for f in ranked] == [str(i) for i in range(1, seats + 1)]
    assert all("🏆" in f.name for f in ranked[: len(result.winners)])
    totals = [int(f.value.split("**")[1]) for f in ranked[len(result.winners) :]]
    if seats != 4:
        assert totals == sorted(totals, reverse=True)
    board = next(f.value for f in embed.fields if f.name == "Tea table after clean-up")
    for slot, card in enumerate(result.board, start=1):
        shown = card_short(card) if slot in result.face_up_slots else f"~~{card_short(card)}~~"
        assert f"{SLOT_KEYCAPS[slot - 1]} {shown}" in board
    if seats == 4:
        totals = next(f.value for f in embed.fields if f.name == "Team totals")
        for index, total in enumerate(result.team_totals):
            team = "Team A" if index == 0 else "Team B"
            assert f"{team} (" in totals and f"): {total} point" in totals
        assert sum(result.scores[s].total for s in (0, 2)) == result.team_totals[0]
        winning = "Team A" if 0 in result.winners else "Team B"
        if result.tie_break is not TieBreak.SHARED:
            assert embed.description.startswith(f"🏆 {winning} wins")
    elif len(result.winners) == 1:
        best = result.scores[result.winners[0]].total
        assert f"🏆 <@{1001 + result.winners[0]}> wins with {best} point" in embed.description


def test_turned_down_slots_are_listed():
    for seed in range(20):
        game = finished_game(3, seed)
        down = [s for s in range(1, 7) if s not in game.result.face_up_slots]
        if down:
            break
    embed = end_embed(game.public_view(), seat_labels(3), EN, game_id=1)
    board = next(f.value for f in embed.fields if f.name == "Tea table after clean-up")
    slots = ", ".join(map(str, down))
    assert f"Slot {slots} was" in board or f"Slots {slots} were" in board
    assert "turned face down" in board


@pytest.mark.parametrize(
    ("tie_break", "words"),
    [
        (TieBreak.SCORE, "highest total"),
        (TieBreak.BLACK_HATS, "more black hats"),
        (TieBreak.COOKIE, "cookie holder wins"),
        (TieBreak.SHARED, "the win is shared"),
    ],
)
def test_tie_break_is_explained(tie_break, words):
    game = finished_game(3, 4)
    winners = (0, 2) if tie_break is TieBreak.SHARED else (1,)
    result = replace(game.result, tie_break=tie_break, winners=winners)
    obs = replace(game.public_view(), result=result)
    embed = end_embed(obs, seat_labels(3), EN, game_id=1)
    assert words in embed.description
    if tie_break is TieBreak.SHARED:
        assert "Shared win: <@1001>, <@1003>" in embed.description


def test_team_tie_breaks_speak_of_teams():
    game = finished_game(4, 2)
    result = replace(game.result, tie_break=TieBreak.COOKIE, winners=(1, 3))
    embed = end_embed(replace(game.public_view(), result=result), seat_labels(4), EN, game_id=1)
    assert "Team B wins (<@1002> & <@1004>)" in embed.description
    assert "the team holding the cookie wins" in embed.description


def test_end_needs_a_finished_game():
    with pytest.raises(ValueError):
        end_embed(game_after(2, 1, 3).public_view(), seat_labels(2), EN, game_id=1)


def test_french_end():
    game = finished_game(2, 5)
    text = embed_text(end_embed(game.public_view(), seat_labels(2), FR, game_id=4))
    assert "Chapeau préféré" in text and "Partie n°\u00a04" in text
