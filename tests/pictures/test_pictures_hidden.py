"""Pictures show only what their viewer may see ("Who may see what", R21)."""

from __future__ import annotations

import dataclasses

import pytest
from picture_support import EN, SHORT_NAMES, states

from pictures import render_hand, render_table
from pictures.layout import BlackHatCard, CardFace, end_layout, hand_layout, table_layout

SEATS = (2, 3, 4)


def hidden_from_public(game) -> set:
    cards = {c for hand in game.hands for c in hand}
    cards |= {c for hats in game.black_hats for c in hats}
    return cards


@pytest.mark.parametrize("seats", SEATS)
def test_table_shows_no_hand_card_and_no_black_hat_face(seats):
    for game in states(seats, seed=21)[:-1]:
        obs = game.public_view()
        layout = table_layout(obs, SHORT_NAMES[:seats], EN)
        shown = set(layout.cards())
        public = set(obs.board) | {c for col in obs.collections for c in col}
        assert shown <= public
        assert not shown & hidden_from_public(game)
        # A black hat is drawn by a card-less element: there is no face it could show.
        assert [f.name for f in dataclasses.fields(BlackHatCard)] == ["box"]
        assert sum(isinstance(e, BlackHatCard) for e in layout.elements) == seats


@pytest.mark.parametrize("seats", SEATS)
def test_hand_shows_only_the_viewers_own_cards_and_the_board(seats):
    for game in states(seats, seed=22)[:-1]:
        for seat in range(seats):
            obs = game.observation(seat)
            shown = set(hand_layout(obs, SHORT_NAMES[:seats], EN).cards())
            assert shown <= set(obs.hand) | set(obs.board)
            others = {c for s, hand in enumerate(game.hands) if s != seat for c in hand}
            others |= {c for s, hats in enumerate(game.black_hats) if s != seat for c in hats}
            assert not shown & others


def test_renderers_refuse_the_wrong_viewer():
    game = states(3, seed=1)[1]
    with pytest.raises(ValueError):
        table_layout(game.observation(0), SHORT_NAMES, EN)
    with pytest.raises(ValueError):
        render_table(game.observation(1), SHORT_NAMES, EN)
    # A forged "public" view that carries a hand is refused too.
    forged = dataclasses.replace(game.public_view(), hand=tuple(game.hands[0]))
    with pytest.raises(ValueError):
        table_layout(forged, SHORT_NAMES, EN)
    with pytest.raises(ValueError):
        render_hand(game.public_view(), SHORT_NAMES, EN)
    with pytest.raises(ValueError):
        end_layout(game.public_view(), SHORT_NAMES, EN, game_id=1)


def test_table_picture_depends_on_public_information_only():
    """Two games with the same public state but different hidden hands: the same picture."""
    game = states(3, seed=4)[1]
    other = game.copy()
    # Swap two seats' hands and scramble the deck order (the game's card ids, engine.compact):
    # nothing public changes.
    hands = other._hands
    other._hands = (hands[1], hands[0], *hands[2:])
    if len(hands[0]) == len(hands[1]):
        other._deck.reverse()
        assert other.public_view().hand_sizes == game.public_view().hand_sizes
        assert render_table(other.public_view(), SHORT_NAMES, EN) == render_table(
            game.public_view(), SHORT_NAMES, EN
        )
    assert isinstance(CardFace, type)
