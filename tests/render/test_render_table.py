"""The public table and public event lines: what everyone sees, and nothing more."""

from __future__ import annotations

import pytest
from render_support import (
    EN,
    FR,
    cards_in,
    embed_text,
    embed_texts,
    game_after,
    hidden_kinds,
    public_cards,
    random_game_states,
    seat_labels,
)

from cogs.render import card_short, describe_event, table_embed
from cogs.render.common import SLOT_KEYCAPS
from engine import ALL_CARDS, ActionKind, parse_card


def _field(embed, name):
    matches = [f for f in embed.fields if f.name == name]
    assert matches, [f.name for f in embed.fields]
    return matches[0].value


def test_card_search_finds_every_written_form():
    # The leak tests below rely on this detector; it must see cards however they are written.
    red5 = parse_card("red5")
    for text in ("red5", "🟥5", "🟥 5 · red", "🟥 5 · rouge", "~~🟥5~~", "x🟥5y"):
        assert red5 in cards_in(text)
    assert cards_in("1️⃣ 🟦3  5️⃣ 🟩1 slot 5, ⬛ ×2") == {parse_card("blue3"), parse_card("green1")}


def test_table_shows_board_cookie_turn_and_round():
    game = game_after(3, 4, 25)
    seats = seat_labels(3)
    obs = game.public_view()
    embed = table_embed(obs, seats, EN, game_id=12)
    board = _field(embed, "Tea table")
    for slot, card in enumerate(game.board, start=1):
        assert f"{SLOT_KEYCAPS[slot - 1]} {card_short(card)}" in board
    assert f"<@{1001 + game.active}>" in embed.description
    assert f"Round {obs.round}/8" in embed.description
    cookie = _field(embed, "Cookie")
    if game.cookie is None:
        assert "napkin" in cookie
    else:
        assert f"<@{1001 + game.cookie}>" in cookie
    assert "#12" in embed.title
    piles = _field(embed, "Piles")
    assert f"Draw deck: {len(game.deck)} card" in piles
    assert f"Discard pile: {len(game.discard_pile)} card" in piles


def test_table_shows_collections_black_hats_and_hand_sizes():
    game = game_after(2, 9, 14)
    assert not game.is_over
    seats = seat_labels(2)
    embed = table_embed(game.public_view(), seats, EN, game_id=1)
    for seat in range(2):
        value = next(f.value for f in embed.fields if f.name.endswith(f"Player{seat}"))
        for card in game.collections[seat]:
            assert card_short(card) in value
        n = len(game.black_hats[seat])
        assert (f"⬛ ×{n}" in value) if n else ("Black hats: —" in value)
        n = len(game.hands[seat])
        assert f"\n{n} card in hand" in value if n == 1 else f"\n{n} cards in hand" in value


def test_napkin_before_any_collection():
    game = game_after(3, 1, 0)
    embed = table_embed(game.public_view(), seat_labels(3), EN, game_id=1)
    assert "napkin" in _field(embed, "Cookie")


def test_four_seats_show_teams_and_pending_swap_without_the_card():
    for game in random_game_states(4, 3):
        if game.pending_offer is not None:
            break
    else:
        pytest.fail("no swap offer in this game")
    embed = table_embed(game.public_view(), seat_labels(4), EN, game_id=5)
    teams = _field(embed, "Teams (partners sit opposite)")
    assert "Team A: <@1001> & <@1003>" in teams
    assert "Team B: <@1002> & <@1004>" in teams
    offerer, partner = game.active, (game.active + 2) % 4
    assert f"<@{1001 + offerer}> offered <@{1001 + partner}> a card swap" in embed.description
    assert game.pending_offer not in cards_in(embed_text(embed))


def test_table_refuses_a_private_observation():
    game = game_after(2, 1, 3)
    with pytest.raises(ValueError):
        table_embed(game.observation(0), seat_labels(2), EN, game_id=1)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_public_texts_never_show_hidden_cards(seats):
    """Across whole random games: no hand card, black hat face, deck, discard or swap card."""
    labels = seat_labels(seats, ai=(1,), away=(0,))
    kinds_seen = set()
    checked = 0
    for seed in range(10):
        for game in random_game_states(seats, seed):
            if game.is_over:
                break
            obs = game.public_view()
            allowed = public_cards(game)
            forbidden = set(ALL_CARDS) - allowed
            auto = {e.number for e in game.events if e.seat == 0}
            texts = embed_texts(
                table_embed(obs, labels, EN, game_id=seed, recent=8, auto_played=auto)
            )
            if game.events:
                texts.append(describe_event(obs.events[-1], labels, EN, viewer=None))
                # Even an unredacted event must not leak through the public description.
                texts.append(describe_event(game.events[-1], labels, EN, viewer=None))
            shown = cards_in("\n".join(texts))
            assert not shown & forbidden, (seed, len(game.steps), shown & forbidden)
            checked += 1
            kinds_seen |= hidden_kinds(game)
    assert checked > 250
    # The games did exercise the secret-bearing moves.
    expected = {ActionKind.BLACK_HAT} | (
        {ActionKind.OFFER_SWAP, ActionKind.ANSWER_SWAP} if seats == 4 else {ActionKind.DISCARD}
    )
    assert expected <= kinds_seen


def test_public_event_words():
    labels = seat_labels(3)
    for game in random_game_states(3, 2):
        if len({e.kind for e in game.events}) >= 4:
            break
    for ev in game.events:
        text = describe_event(ev, labels, EN, viewer=None)
        who = f"<@{1001 + ev.seat}>"
        assert text.startswith(who)
        if ev.kind is ActionKind.EXCHANGE:
            assert (
                f"played {card_short(ev.card)} on slot {ev.slot} and took {card_short(ev.took)}"
                in text
            )
        elif ev.kind is ActionKind.BLACK_HAT:
            assert "made a black hat" in text and not cards_in(text)
        elif ev.kind is ActionKind.DISCARD:
            assert "discarded a card and drew one" in text and not cards_in(text)
        elif ev.kind is ActionKind.END_TURN:
            assert "ended their turn" in text


def test_auto_played_events_are_marked():
    game = game_after(2, 5, 12)
    labels = seat_labels(2, away=(0,))
    auto = {e.number for e in game.events if e.seat == 0}
    embed = table_embed(game.public_view(), labels, EN, game_id=1, recent=20, auto_played=auto)
    moves = next(f for f in embed.fields if f.name.startswith("Recent moves"))
    assert "played by the AI" in moves.name
    lines = moves.value.splitlines()
    assert sum(line.startswith("💤 <@1001>") for line in lines) == len(auto)
    assert not any(line.startswith("💤 <@1002>") for line in lines)


def test_recent_limits_the_event_lines():
    game = game_after(3, 6, 30)
    embed = table_embed(game.public_view(), seat_labels(3), EN, game_id=1, recent=3)
    assert len(_field(embed, "Recent moves").splitlines()) == 3


def test_french_table():
    game = game_after(3, 4, 10)
    embed = table_embed(game.public_view(), seat_labels(3), FR, game_id=3)
    text = embed_text(embed)
    assert "Plateau à thé" in text
    assert "Manche " in embed.description and "c’est au tour de <@" in embed.description
    assert "cartes en main" in text
    assert embed.footer.text == "Partie n°\u00a03"  # no-break space after n°
