"""Wording as a native reader says it (issue 29 point 16), from the real catalogs.

The review's quotes in German, Italian and Spanish, word for word, and the same care in French:
a slot list joins with the language's own conjunction ("1, 2, 4 oder 5", "1 e 5"), an answered
swap reads "Tausch erledigt:", the optional action after the main one has no "before or after",
the privacy note is one sentence (lower case after its colon), the coach's final place is a
sentence with an ordinal, and the "Auto end turn" toggle fits beside "End turn" on a phone.
"""

from __future__ import annotations

import pytest

from coach import Note, NoteKind
from engine import ActionKind, Exchange, Game, GameConfig
from tests.render.render_support import LANGUAGES, seat_labels
from texts.coach import coach_lines
from texts.hand import hand_texts
from texts.i18n import Translator
from texts.lobby import LobbyInfo, lobby_texts
from texts.numbers import slot_list

TRANSLATOR = Translator.load()
REFUSED = (
    "Not slot {slots}: it needs the same type or a higher value.",
    "Not slots {slots}: they need the same type or a higher value.",
)


def refused(lang: str, slots: list[int]) -> str:
    tr = TRANSLATOR.for_locale(lang)
    return tr.plural(*REFUSED, len(slots), slots=slot_list(slots, tr, negated=True))


@pytest.mark.parametrize(
    ("lang", "slots", "text"),
    [
        (
            "de",
            [1, 2, 4, 5],
            "Nicht auf Feld 1, 2, 4 oder 5: "
            "Dafür brauchst du dieselbe Farbe oder eine höhere Zahl.",
        ),
        ("it", [1, 5], "Non nelle posizioni 1 e 5: serve lo stesso colore o un numero più alto."),
        ("it", [3], "Non nella posizione 3: serve lo stesso colore o un numero più alto."),
        ("es", [2, 6], "No en las posiciones 2 o 6: hace falta el mismo color o un número mayor."),
        (
            "fr",
            [1, 5],
            "Pas sur les emplacements 1 ou 5\u202f: "
            "il faut la même couleur ou une valeur plus haute.",
        ),
        ("en", [1, 2, 5], "Not slots 1, 2, or 5: they need the same type or a higher value."),
    ],
)
def test_the_slots_a_card_may_not_take_read_naturally(lang, slots, text):
    assert refused(lang, slots) == text


def test_an_answered_swap_reads_swap_done():
    de = TRANSLATOR.for_locale("de")
    assert de("Swap done: {move}", move="Du hast 🟥2 gegeben.") == (
        "Tausch erledigt: Du hast 🟥2 gegeben."
    )


def _after_main_action(seats: int) -> Game:
    """A game whose player to move has made their main action and kept the optional one."""
    game = Game.new(GameConfig(seats, 11))
    seat = game.to_move
    assert seat is not None
    exchange = next(a for a in game.legal_actions(seat) if isinstance(a, Exchange))
    game.apply(seat, exchange)
    assert game.to_move == seat and not game.observation(seat).optional_used
    return game


@pytest.mark.parametrize("seats", [3, 4])
def test_after_the_main_action_the_optional_one_has_no_before_or_after(seats):
    game = _after_main_action(seats)
    seat = game.to_move
    de = TRANSLATOR.for_locale("de")
    texts = hand_texts(game.observation(seat), seat_labels(seats), de, game_id=1, channel="#hats")
    wanted = (
        "Optional: Biete deinem Partner noch einen Tausch an."
        if seats == 4
        else "Optional: Wirf noch eine Karte ab und zieh eine nach."
    )
    assert wanted in texts.next.splitlines()
    assert "davor oder danach" not in texts.next
    # before the main action, "before or after" is right
    fresh = Game.new(GameConfig(seats, 11))
    first = hand_texts(
        fresh.observation(fresh.to_move), seat_labels(seats), de, game_id=1, channel="#hats"
    )
    assert "davor oder danach" in first.next
    assert any(a.kind is ActionKind.END_TURN for a in game.legal_actions(seat))


def test_italian_partner_gives_a_card_in_exchange_and_privacy_reads_as_one_sentence():
    it = TRANSLATOR.for_locale("it")
    assert it("Choose a card to give back, or decline.") == (
        "Scegli una carta da dare in cambio, oppure rifiuta."
    )
    lobby = LobbyInfo(host_id=1001, seats=tuple(seat_labels(4)), lobby_id=1)
    text = "\n".join(lobby_texts(lobby, it))
    assert "⚠️ I moderatori possono leggere i thread privati delle squadre." in text
    fr = "\n".join(lobby_texts(lobby, TRANSLATOR.for_locale("fr")))
    assert "⚠️ Les modérateurs" in fr


@pytest.mark.parametrize(
    ("lang", "total", "place", "text"),
    [
        ("es", 21, 3, "Terminas en tercer lugar con 21 puntos."),
        ("es", 1, 2, "Terminas en segundo lugar con 1 punto."),
        ("de", 21, 3, "Du landest auf Platz 3 mit 21 Punkten."),
        ("it", 21, 2, "Finisci al secondo posto con 21 punti."),
        ("fr", 21, 3, "Tu finis troisième avec 21 points."),
        ("en", 21, 3, "You finish third with 21 points."),
        ("en", 30, 1, "You win with 30 points!"),
    ],
)
def test_the_coach_says_the_final_place_as_a_sentence(lang, total, place, text):
    tr = TRANSLATOR.for_locale(lang)
    (line,) = coach_lines([Note(NoteKind.FINAL, value=total, total=place)], [], tr)
    assert line == text


TOGGLE_ROW_CHARACTERS = 29
"""The "Auto end turn" toggle shares its row with "End turn" (cogs.controls.hand_rows).
On a 360 px phone a Components V2 message leaves about 300 px for a row of buttons; two
secondary/success buttons take 2 x 32 px of padding, the toggle's emoji about 22 px and the gap
8 px, and Discord's 14 px font averages about 7 px a character: 29 characters of labels in all
before the toggle wraps to a line of its own ("Fin de turno automático: no" did, in every
phone's width)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_auto_end_toggle_fits_beside_end_turn(lang):
    tr = TRANSLATOR.for_locale(lang)
    end = tr("End turn")
    for label in (tr("Auto end turn: on"), tr("Auto end turn: off")):
        assert len(end) + len(label) <= TOGGLE_ROW_CHARACTERS, (lang, end, label)
