"""A seat's private hand message texts (Components V2) and its private event lines."""

from __future__ import annotations

import pytest
from render_support import (
    EN,
    FR,
    cards_in,
    game_after,
    known_to,
    random_game_states,
    seat_labels,
)

from engine import ALL_CARDS, ActionKind, Game, GameConfig
from engine.actions import BLACK_HATS, DISCARDS, END_TURN, OFFERS
from texts import card_short, card_token, describe_event
from texts.hand import hand_alt_text, hand_texts
from texts.numbers import slot_list


def texts_of(obs, labels, tr=EN, **kwargs) -> str:
    """Every visible text of the V2 hand message (the picture's text layout included)."""
    t = hand_texts(obs, labels, tr, game_id=1, channel="#hats", **kwargs)
    return "\n".join([t.head, t.recent, t.mine, t.next, t.refused, t.state])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hand_shows_own_cards_and_nothing_of_other_hands(seats):
    labels = seat_labels(seats)
    checked = 0
    for seed in range(4):
        for game in random_game_states(seats, seed):
            if game.is_over:
                break
            for seat in range(seats):
                obs = game.observation(seat)
                text = texts_of(obs, labels)
                shown = cards_in(text)
                for card in game.hands[seat]:
                    assert card_token(card) in text
                assert set(game.black_hats[seat]) <= shown
                unknown = set(ALL_CARDS) - known_to(game, seat)
                assert not shown & unknown, (seed, seat, len(game.steps), shown & unknown)
                # Other hands: only cards this seat itself handled (discarded then drawn by
                # someone after a reshuffle, or given away in a swap) may show.
                handled = set()
                for e in game.events:
                    seen = e.seen_by(seat)
                    if seat in (e.seat, e.partner):
                        handled.update(c for c in (seen.card, seen.drew, seen.received) if c)
                for other in range(seats):
                    if other != seat:
                        assert shown & set(game.hands[other]) <= handled
                checked += 1
    assert checked > 200


def _play(game: Game, seat: int, action) -> None:
    game.apply(seat, action)


def test_own_discard_in_second_person_and_public_without_cards():
    game = Game.new(GameConfig(3, 21))
    seat = game.active
    card = game.hands[seat][0]
    ev = game.apply(seat, DISCARDS[card.id])
    labels = seat_labels(3)
    mine = describe_event(ev, labels, EN, viewer=seat)
    assert mine == f"You discarded {card_short(card)} and drew {card_short(ev.drew)}."
    public = describe_event(ev.seen_by(None), labels, EN, viewer=None)
    assert public == f"<@{1001 + seat}> discarded a card and drew one."
    other = describe_event(ev.seen_by((seat + 1) % 3), labels, EN, viewer=(seat + 1) % 3)
    assert other == public


def test_reshuffle_is_told():
    for game in random_game_states(2, 8):
        if any(e.reshuffled for e in game.events):
            break
    else:
        pytest.fail("no reshuffle happened")
    ev = next(e for e in game.events if e.reshuffled)
    assert "discard pile was shuffled" in describe_event(ev, seat_labels(2), EN, viewer=None)


def test_black_hat_face_only_for_its_owner():
    game = Game.new(GameConfig(2, 3))
    seat = game.active
    card = game.hands[seat][-1]
    ev = game.apply(seat, BLACK_HATS[card.id])
    labels = seat_labels(2)
    assert describe_event(ev, labels, EN, viewer=seat) == (
        f"You played {card_short(card)} face down as a black hat."
    )
    assert describe_event(ev, labels, EN, viewer=1 - seat) == f"<@{1001 + seat}> made a black hat."
    assert card_token(card, black_hat=True) in texts_of(game.observation(seat), labels)
    assert card not in cards_in(texts_of(game.observation(1 - seat), labels))


def _swap_game() -> tuple[Game, int, int]:
    game = Game.new(GameConfig(4, 5))
    offerer = game.active
    return game, offerer, (offerer + 2) % 4


def test_pending_offer_card_shown_to_the_offerer_only():
    game, offerer, partner = _swap_game()
    offered = game.hands[offerer][0]
    event = game.apply(offerer, OFFERS[offered.id])
    labels = seat_labels(4)
    notice = describe_event(event.seen_by(offerer), labels, EN, viewer=offerer)
    mine = texts_of(game.observation(offerer), labels, notice=notice)
    assert mine.count("You offered") == 1  # the offer is said once
    assert f"You offered {card_short(offered)} to your partner <@{1001 + partner}>" in mine
    assert "withdraw" in mine
    theirs = hand_texts(game.observation(partner), labels, EN, game_id=2, channel="#hats")
    assert f"<@{1001 + offerer}> offers you a card swap." in theirs.head
    for seat in range(4):
        if seat != offerer:
            assert offered not in cards_in(texts_of(game.observation(seat), labels))


def test_completed_swap_seen_by_both_partners():
    game, offerer, partner = _swap_game()
    offered = game.hands[offerer][0]
    given = game.hands[partner][0]
    game.apply(offerer, OFFERS[offered.id])
    from engine.actions import ANSWERS

    ev = game.apply(partner, ANSWERS[given.id])
    labels = seat_labels(4)
    by_partner = describe_event(ev, labels, EN, viewer=partner)
    by_offerer = describe_event(ev, labels, EN, viewer=offerer)
    assert by_partner == (
        f"You gave {card_short(given)} to <@{1001 + offerer}> and received {card_short(offered)}."
    )
    assert by_offerer == (
        f"You gave {card_short(offered)} to <@{1001 + partner}> and received {card_short(given)}."
    )
    public = describe_event(ev, labels, EN, viewer=None)
    assert public == f"<@{1001 + offerer}> and <@{1001 + partner}> swapped cards."
    opponent = (offerer + 1) % 4
    assert describe_event(ev.seen_by(opponent), labels, EN, viewer=opponent) == public


def test_turn_lines_follow_the_turn():
    game = Game.new(GameConfig(3, 2))
    seat = game.active
    labels = seat_labels(3)

    def texts(viewer):
        return hand_texts(game.observation(viewer), labels, EN, game_id=1, channel="#hats")

    start = texts(seat)
    assert "it's your turn" in start.head
    # the card select ("Choose a card") says the first step: the text adds the optional one
    assert start.next == "Optional, before or after: discard a card and draw one."
    assert "end your turn" not in start.next
    assert f"it's <@{1001 + seat}>'s turn" in texts((seat + 1) % 3).head
    exchange = next(a for a in game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
    game.apply(seat, exchange)
    assert "You can end your turn now." in texts(seat).next
    game.apply(seat, END_TURN)
    later = texts(seat)
    assert "it's your turn" not in later.head
    assert later.next == "A new message comes when it is your turn."


def test_a_chosen_card_says_in_one_line_which_slots_it_may_not_take():
    game = Game.new(GameConfig(3, 11))
    seat = game.active
    labels = seat_labels(3)
    for card in game.hands[seat]:
        allowed = {
            a.slot
            for a in game.legal_actions(seat)
            if a.kind is ActionKind.EXCHANGE and a.card is card
        }
        t = hand_texts(
            game.observation(seat),
            labels,
            EN,
            game_id=1,
            channel="#hats",
            selected=card,
            notice="Done!",
        )
        assert t.recent == "Done!"  # the notice is what just happened
        refused = [s for s in range(1, len(game.board) + 1) if s not in allowed]
        if refused:
            assert len(t.refused.splitlines()) == 1 and not t.next
            assert slot_list(refused, EN, negated=True) in t.refused  # "1, 2, or 5"
        else:
            assert not t.refused and t.next


def test_hand_refuses_the_public_observation():
    game = game_after(2, 1, 2)
    with pytest.raises(ValueError):
        hand_texts(game.public_view(), seat_labels(2), EN, game_id=1, channel="#hats")
    with pytest.raises(ValueError):
        hand_alt_text(game.public_view(), EN)


def test_french_hand():
    game = game_after(3, 4, 6)
    seat = game.to_move
    t = hand_texts(game.observation(seat), seat_labels(3), FR, game_id=3, channel="#hats")
    assert t.mine.startswith("Ta collection\u202f:") or t.mine.startswith("Ta collection :")
    assert "Plateau à thé" in t.state and "c’est ton tour" in t.head
    alt = hand_alt_text(game.observation(seat), FR)
    assert any(f"{colour} " in alt for colour in ("rouge", "bleu", "vert", "jaune"))


def test_card_tokens_are_unbreakable():
    # issue 18: a line never breaks between a card's symbol and its value (UAX #14 WJ)
    from engine import BLACK_HAT_EMOJI, parse_card
    from texts.common import WORD_JOINER

    red5 = parse_card("red5")
    assert card_token(red5) == f"🟥{WORD_JOINER}5" == card_short(red5)
    assert card_token(red5, black_hat=True) == f"{BLACK_HAT_EMOJI}{WORD_JOINER}🟥{WORD_JOINER}5"
    assert parse_card(card_token(red5)) is red5  # pasted back into a command, it still reads
    assert not any(ch.isspace() for ch in card_token(red5, black_hat=True))


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_v2_hand_texts_and_alt_text_show_only_what_the_seat_may_see(seats, lang):
    # issue 18: the visible texts and the picture's alt text of the V2 hand DM, every state
    from texts.common import type_name
    from texts.hand import ALT_MAX, hand_alt_text, hand_texts
    from texts.i18n import Translator

    tr = Translator.load().for_locale(lang)
    labels = seat_labels(seats)
    for game in random_game_states(seats, 5):
        if game.is_over:
            break
        for seat in range(seats):
            obs = game.observation(seat)
            known = known_to(game, seat)
            t = hand_texts(obs, labels, tr, game_id=1, channel="#hats", selected=obs.hand[0])
            shown = "\n".join([t.head, t.recent, t.mine, t.next, t.refused, t.state])
            assert cards_in(shown) <= known
            lines = [line for line in shown.split("\n") if line]
            assert len(lines) == len(set(lines))  # nothing said twice
            alt = hand_alt_text(obs, tr)
            assert len(alt) <= ALT_MAX
            for card in ALL_CARDS:
                words = f"{type_name(card.type, tr)} {card.value}"
                assert (words in alt) == (card in obs.hand or card in obs.board), (card, alt)
