"""The public table's texts (Components V2) and public event lines: what everyone sees, and
nothing more.

``table_texts`` gives the head (the game, the round, whose turn), the last events, the compact
state (pictures off) and the picture's alt text; ``table_alt_text`` is the alt text alone.
"""

from __future__ import annotations

import pytest
from render_support import (
    EN,
    FR,
    cards_in,
    game_after,
    hidden_kinds,
    public_cards,
    random_game_states,
    seat_labels,
)

from engine import ALL_CARDS, ActionKind, parse_card
from texts import card_short, describe_event, type_name
from texts.common import COOKIE, SLOT_KEYCAPS
from texts.table import RECENT_LINES, TableTexts, table_alt_text, table_texts


def every_text(texts: TableTexts) -> list[str]:
    """All the texts the table message shows: head, recent, state (pictures off), alt text."""
    return [texts.head, texts.recent, texts.state or "", texts.alt]


def seat_line(state: str, mention: str) -> str:
    """The compact state's line of the seat shown as ``mention``."""
    (line,) = [x for x in state.splitlines() if mention in x]
    return line


def test_card_search_finds_every_written_form():
    # The leak tests below rely on this detector; it must see cards however they are written.
    red5 = parse_card("red5")
    for text in ("red5", "🟥5", "🟥 5 · red", "🟥 5 · rouge", "~~🟥5~~", "x🟥5y", "1 red 5, 2"):
        assert red5 in cards_in(text)
    assert cards_in("1️⃣ 🟦3  5️⃣ 🟩1 slot 5, ⬛ ×2") == {parse_card("blue3"), parse_card("green1")}
    assert cards_in("discarded 5 cards, red 55") == set()


def test_table_shows_board_turn_round_and_piles():
    game = game_after(3, 4, 25)
    obs = game.public_view()
    texts = table_texts(obs, seat_labels(3), EN, game_id=12, pictures=False)
    assert texts.state is not None
    board = texts.state.splitlines()[0]
    for slot, card in enumerate(game.board, start=1):
        assert f"{SLOT_KEYCAPS[slot - 1]}\u00a0{card_short(card)}" in board
        assert f"{slot} {card.type.value} {card.value}" in texts.alt  # read out slot by slot
    assert "#12" in texts.head
    assert f"<@{1001 + game.active}>" in texts.head
    assert f"Round {obs.round}/8" in texts.head and f"Round {obs.round}/8" in texts.alt
    for text in (texts.state, texts.alt):
        assert f"Draw deck: {len(game.deck)} card" in text
        assert f"Discard pile: {len(game.discard_pile)} card" in text


def test_pictures_on_leave_the_board_to_the_picture_and_its_alt_text():
    game = game_after(3, 4, 25)
    obs = game.public_view()
    texts = table_texts(obs, seat_labels(3), EN, game_id=12)
    assert texts.state is None
    assert not cards_in(texts.head)  # nothing said twice: the picture shows the cards
    assert texts.alt == table_alt_text(obs, seat_labels(3), EN)
    assert cards_in(texts.alt) == public_cards(game)  # the picture in words, fully


def test_table_shows_collections_black_hats_hand_sizes_and_the_cookie():
    game = game_after(2, 9, 14)
    assert not game.is_over
    texts = table_texts(game.public_view(), seat_labels(2), EN, game_id=1, pictures=False)
    for seat in range(2):
        line = seat_line(texts.state, f"<@{1001 + seat}>")
        (said,) = [x for x in texts.alt.splitlines() if x.startswith(f"Player{seat}:")]
        for card in game.collections[seat]:
            assert card_short(card) in line
            assert f"{card.type.value} {card.value}" in said
        n = len(game.black_hats[seat])
        assert (f"⬛ ×{n}" in line) if n else ("⬛" not in line)
        assert f"Black hats: {n}" in said
        n = len(game.hands[seat])
        assert f"{n} card in hand" in line if n == 1 else f"{n} cards in hand" in line
        assert (COOKIE in line) == (game.cookie == seat)
        assert ("holds the cookie" in said) == (game.cookie == seat)


def test_napkin_before_any_collection():
    game = game_after(3, 1, 0)
    assert game.cookie is None
    texts = table_texts(game.public_view(), seat_labels(3), EN, game_id=1, pictures=False)
    assert COOKIE not in texts.state and "holds the cookie" not in texts.alt


def test_four_seats_show_teams_and_pending_swap_without_the_card():
    for game in random_game_states(4, 3):
        if game.pending_offer is not None:
            break
    else:
        pytest.fail("no swap offer in this game")
    texts = table_texts(game.public_view(), seat_labels(4), EN, game_id=5, pictures=False)
    for seat, team in enumerate("ABAB"):
        assert f"<@{1001 + seat}> (Team {team})" in texts.state
        assert f"Player{seat} (Team {team}):" in texts.alt
    offerer, partner = game.active, (game.active + 2) % 4
    assert f"<@{1001 + offerer}> offered <@{1001 + partner}> a card swap" in texts.head
    assert f"Player{offerer} offered Player{partner} a card swap" in texts.alt
    assert game.pending_offer not in cards_in("\n".join(every_text(texts)))


def test_table_refuses_a_private_observation():
    game = game_after(2, 1, 3)
    with pytest.raises(ValueError):
        table_texts(game.observation(0), seat_labels(2), EN, game_id=1)
    with pytest.raises(ValueError):
        table_alt_text(game.observation(0), seat_labels(2), EN)


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
            forbidden = set(ALL_CARDS) - public_cards(game)
            auto = {e.number for e in game.events if e.seat == 0}
            texts = []
            for pictures in (True, False):
                shown = table_texts(
                    obs, labels, EN, game_id=seed, pictures=pictures, auto_played=auto
                )
                texts += every_text(shown)
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
    labels = seat_labels(2, away=(0,))
    for game in random_game_states(2, 5):  # the last events: one of each seat
        last = game.events[-RECENT_LINES:]
        if len({e.seat for e in last}) == 2:
            break
    auto = {e.number for e in game.events if e.seat == 0}
    texts = table_texts(game.public_view(), labels, EN, game_id=1, auto_played=auto)
    head, *lines = texts.recent.splitlines()
    assert "played by the AI" in head
    assert sum(line.startswith("-# 💤 <@1001>") for line in lines) == 1
    assert not any(line.startswith("-# 💤 <@1002>") for line in lines)
    assert "Away: the AI (normal) plays for them" in seat_line(texts.head, "<@1001>")
    # nobody played for: no explanation line, no mark
    plain = table_texts(game.public_view(), seat_labels(2), EN, game_id=1)
    assert "💤" not in plain.recent + plain.head and "played by the AI" not in plain.recent


def test_recent_shows_only_the_last_events():
    game = game_after(3, 6, 30)
    assert len(game.events) > RECENT_LINES
    texts = table_texts(game.public_view(), seat_labels(3), EN, game_id=1)
    lines = texts.recent.splitlines()
    assert len(lines) == RECENT_LINES <= 3  # issue 18: at most 3 lines
    newest = describe_event(game.public_view().events[-1], seat_labels(3), EN, viewer=None)
    assert newest in lines[-1]
    assert all(line.startswith("-# ") for line in lines)  # small print
    fresh = table_texts(game_after(3, 6, 0).public_view(), seat_labels(3), EN, game_id=1)
    assert fresh.recent == ""  # before the first move


def test_french_table():
    game = game_after(3, 4, 10)
    texts = table_texts(game.public_view(), seat_labels(3), FR, game_id=3, pictures=False)
    assert "partie n°\u00a03" in texts.head  # a no-break space after n°
    assert "Manche " in texts.head and "c’est au tour de <@" in texts.head
    assert "cartes en main" in texts.state
    assert "Plateau à thé" in texts.alt
    for card in game.board:  # the alt text reads the cards in French too
        assert f"{type_name(card.type, FR)} {card.value}" in texts.alt
