"""The final result's texts (Components V2) and the end picture's alt text (R14–R21)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from render_support import EN, FR, finished_game, game_after, seat_labels

from engine import BLACK_HAT_EMOJI, TieBreak
from texts import card_short
from texts.common import SLOT_KEYCAPS, type_name
from texts.end import end_alt_text, end_texts


def _words(card, tr=EN) -> str:
    return f"{type_name(card.type, tr)} {card.value}"


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_end_totals_match_the_result(seats, seed):
    game = finished_game(seats, seed)
    result = game.result
    obs = game.public_view()
    compact = end_texts(obs, seat_labels(seats), EN, game_id=9, pictures=False)
    alt = end_alt_text(obs, seat_labels(seats), EN, game_id=9)
    assert compact.head.startswith("**Hats: game #9 is over**")
    lines = compact.results.splitlines()
    for seat, score in enumerate(result.scores):
        line = next(x for x in lines if f"<@{1001 + seat}>" in x)
        said = (
            f"Collection {score.collection} + favourite {score.favourite} + "
            f"cookie {score.cookie} = {score.total}"
        )
        assert said in line and said in alt
        assert f"Favourite hat: {card_short(result.favourites[seat])}" in line
        assert f"{BLACK_HAT_EMOJI}×{score.black_hats}" in line
        # R21: favourites and black hats revealed in the picture's words
        assert f"Favourite hat: {_words(result.favourites[seat])}" in alt
        for card in result.black_hats[seat]:
            assert _words(card) in alt
        assert ("🏆" in line) == (seat in result.winners)
    # ranked: winners first, then by total (teams together with 4 seats)
    ranked = [x for x in lines if "<@" in x]
    if seats != 4:
        assert [x.split(".")[0] for x in ranked] == [str(i) for i in range(1, seats + 1)]
        totals = [int(x.split(" = ")[1].split(" ")[0]) for x in ranked[len(result.winners) :]]
        assert totals == sorted(totals, reverse=True)
    # the board after clean-up: turned-down slots struck through (text) and marked (alt)
    for slot, card in enumerate(result.board, start=1):
        up = slot in result.face_up_slots
        shown = card_short(card) if up else f"~~{card_short(card)}~~"
        assert f"{SLOT_KEYCAPS[slot - 1]}\u00a0{shown}" in lines[0]
        assert (f"{slot} {_words(card)} (×)" in alt) != up
    if seats == 4:
        for index, total in enumerate(result.team_totals):
            team = "Team A" if index == 0 else "Team B"
            assert f"**{team}** · {total} point" in compact.results
            assert f"{team}: {total} point" in alt
        winning = "Team A" if 0 in result.winners else "Team B"
        if result.tie_break is not TieBreak.SHARED:
            assert f"🏆 {winning} wins" in compact.head
    elif len(result.winners) == 1:
        best = result.scores[result.winners[0]].total
        assert f"🏆 <@{1001 + result.winners[0]}> wins with {best} point" in compact.head
    # with the picture: no results in text, the alt text the same
    pictured = end_texts(obs, seat_labels(seats), EN, game_id=9)
    assert pictured.results is None and pictured.alt == alt and pictured.head == compact.head


def test_the_alt_text_given_is_used_as_it_is():
    game = finished_game(3, 1)
    texts = end_texts(game.public_view(), seat_labels(3), EN, game_id=1, alt="built once")
    assert texts.alt == "built once"


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
    head = end_texts(obs, seat_labels(3), EN, game_id=1).head
    assert words in head
    if tie_break is TieBreak.SHARED:
        assert "Shared win: <@1001>, <@1003>" in head


def test_team_tie_breaks_speak_of_teams():
    game = finished_game(4, 2)
    result = replace(game.result, tie_break=TieBreak.COOKIE, winners=(1, 3))
    obs = replace(game.public_view(), result=result)
    head = end_texts(obs, seat_labels(4), EN, game_id=1).head
    assert "Team B wins (<@1002> & <@1004>)" in head
    assert "the team holding the cookie wins" in head


def test_end_needs_a_finished_game():
    obs = game_after(2, 1, 3).public_view()
    with pytest.raises(ValueError):
        end_texts(obs, seat_labels(2), EN, game_id=1)
    with pytest.raises(ValueError):
        end_alt_text(obs, seat_labels(2), EN, game_id=1)


def test_french_end():
    game = finished_game(2, 5)
    texts = end_texts(game.public_view(), seat_labels(2), FR, game_id=4, pictures=False)
    assert "Chapeau préféré" in texts.results and "la partie n°\u00a04" in texts.head
