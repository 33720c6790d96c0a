"""Commands in texts: a Discord mention when the synced id is known, else the localized name."""

from __future__ import annotations

from texts.common import command_mention
from texts.i18n import Translator


def test_without_ids_the_command_name_is_localized():
    translator = Translator.load()
    spanish = translator.for_locale("es-ES")
    assert command_mention("hats hand", spanish) == "/hats mano"
    assert command_mention("hats hand", translator.for_locale("en-US")) == "/hats hand"
    # inside a translated sentence too, and words after the command are left alone
    text = spanish("You are not playing any game right now. Join one with /hats lobby join.")
    assert "/hats lobby join" not in text and "/hats " in text


def test_with_ids_every_language_gets_the_same_tappable_mention():
    translator = Translator.load()
    translator.set_command_mentions({"hats hand": 42})
    for locale in ("en-US", "de", "es-ES", "fr", "it"):
        tr = translator.for_locale(locale)
        assert command_mention("hats hand", tr) == "</hats hand:42>"
        assert "</hats hand:42>" in tr("/hats hand shows your hand any time.")
