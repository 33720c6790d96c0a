"""The translations keep the style a native review asked for (issue 18), in every catalog.

``test_catalog_follows_the_style_rules[<lang>]`` checks French typography (U+202F), double
periods and the terms of :mod:`tests.i18n.style_checks`; the self-tests below feed the
mistakes the review found, so each rule is known to fail when it should.
"""

from __future__ import annotations

import pytest

from tests.i18n.catalog_checks import LANGUAGES, placeholders, read_catalog
from tests.i18n.style_checks import NNBSP, catalog_style_problems, style_problems
from texts.common import duration_text
from texts.i18n import LOCALES_DIR, Translator


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_follows_the_style_rules(lang):
    problems = catalog_style_problems(LOCALES_DIR, lang)
    assert not problems, f"{lang}: {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_duration_before_a_period_makes_no_double_period(lang):
    """ "Du hast noch 1 Min. 30 Sek.. Wenn du …" was shown once: every text with a ``{time}``."""
    tr = Translator.load().for_locale(lang)
    with_time = [
        m.id
        for m in read_catalog(LOCALES_DIR / "messages.pot")
        if isinstance(m.id, str) and "time" in placeholders(m.id)
    ]
    assert len(with_time) >= 4
    for msgid in with_time:
        others = dict.fromkeys(placeholders(msgid) - {"time"}, "X")
        for seconds in (1, 45, 60, 90, 150, 3600, 3661, 5400):
            text = tr(msgid, time=duration_text(seconds, tr), **others)
            assert ".." not in text, text


# ---------------------------------------------------------------- the checks can fail

MISTAKES = [  # (language, msgctxt, msgid, translation) as the review found them
    ("fr", None, "Favourite hat: {card}", "Chapeau favori : {card}"),
    ("fr", None, "Favourite hat: {card}", "Chapeau préféré : {card}"),  # plain space
    ("fr", None, "Favourite hat: {card}", "Chapeau préféré: {card}"),  # no space
    ("fr", None, "x", "appuie sur «\u202fVoir ma main »"),
    ("fr", None, "x", "appuie sur « Voir ma main\u202f»"),
    ("fr", None, "You made a black hat.", "Tu as fait un chapeau noir."),
    ("fr", "command name", "replay", "rediffusion"),
    ("fr", None, "Favourite hat", "Chapeau favori"),
    ("de", None, "{minutes} min {seconds} s", "{minutes} Min. {seconds} Sek."),
    ("de", None, "x", "Zeitlimit auf 1 Min. 30 Sek.. gesetzt."),
    ("de", None, "all time", "seit jeher"),
    (
        "de",
        None,
        "Slot {slots} was turned face down: a lower slot has the same colour.",
        "Feld {slots} wurde umgedreht: Ein niedrigeres Feld hat dieselbe Farbe.",
    ),
    ("es", None, "x", "Ahora llegan la mesa y vuestras manos."),
    ("es", None, "x", "Hablad con libertad, pero no digáis nunca el color."),
    ("es", None, "Seat {number}", "Asiento {number}"),
    ("es", None, "Join", "Unirme"),
    ("it", None, "x", "Questa lobby è chiusa."),
    ("it", None, "x", "Solo l'host ({host}) può farlo."),
    ("it", None, "x", "Round {round}/{rounds}: tocca a te."),
    ("it", None, "x", "Replay della partita #{game}"),
    ("it", None, "x", "{mark} Privacy"),
    ("it", None, "Join", "Partecipa"),
    ("it", None, "x", "I miei messaggi pubblici qui sono ora in {language}."),
]

FINE = [  # what the rules must let through
    ("fr", None, "x", f"Ta main{NNBSP}: {{cards}}. Réessaie{NNBSP}!"),
    ("fr", None, "x", f"appuie sur «{NNBSP}Voir ma main{NNBSP}» ou utilise /hats hand"),
    ("fr", None, "x", f"**#{{game}}** <t:{{at}}:d> · {{players}} {{n:>3}} Quoi{NNBSP}?!"),
    ("fr", "command name", "blackhat", "chapeau-noir"),
    ("de", None, "{minutes} min {seconds} s", "{minutes} min {seconds} s"),
    ("es", None, "x.", "Parece que {player} se ha ausentado: la IA juega en su lugar."),
    ("it", None, "x.", "Per rivedere una partita usa /hats replay con il suo numero (#)."),
    ("it", None, "Hosted by {host}.", "Organizzata da {host}."),
]


@pytest.mark.parametrize(("lang", "context", "msgid", "text"), MISTAKES)
def test_the_style_check_finds_a_known_mistake(lang, context, msgid, text):
    assert style_problems(lang, context, msgid, text)


@pytest.mark.parametrize(("lang", "context", "msgid", "text"), FINE)
def test_the_style_check_lets_good_text_through(lang, context, msgid, text):
    assert style_problems(lang, context, msgid, text) == []
