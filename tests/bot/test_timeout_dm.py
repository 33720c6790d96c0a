"""Issue 29.7: a turn that timed out reads as such in its player's DM, in every language.

When the turn timer runs out the AI plays the turn for the absent player; their hand DM then
says that time ran out and lists what was played for them, in order, each marked 💤, never
"You played …" as if they had played it themselves (simcord, the real catalogs).
"""

from __future__ import annotations

import pytest

from tests.bot.helpers import dm_of, open_and_start, v2_texts
from tests.bot.language_support import set_client_locales
from texts.common import card_short

TURN = 60
LOCALES = {"en": "en-US", "de": "de", "es": "es-ES", "fr": "fr", "it": "it"}
HEAD = "Time ran out for your turn (round {round}), so the AI played it for you:"


@pytest.fixture
def bot_options():
    return {"turn_timer": TURN, "ai_delay": 0.0, "edit_limit": None}


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_the_dm_of_a_timed_out_turn_says_time_ran_out_and_what_was_played(
    world, monkeypatch, lang
):
    env = world.env
    set_client_locales(monkeypatch, {p.user.id: LOCALES[lang] for p in world.players})
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    absent = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    live = session.message("dm", seat).message_id
    await env.advance_time(TURN + 1)
    assert session.game.to_move != seat and session.auto_played
    dm = next(m for m in dm_of(absent).history() if m.id == live)
    (text,) = v2_texts(dm)
    tr = env.bot.translator.for_locale(LOCALES[lang])
    lines = text.splitlines()
    assert lines[0] == tr(HEAD, round=1)
    mine = [ev for ev in session.game.events if ev.seat == seat]
    assert mine and all(ev.number in session.auto_played for ev in mine)
    assert len(lines) == 1 + len(mine)  # every move made for them, one line each
    assert all(line.startswith("💤") for line in lines[1:])
    for line, ev in zip(lines[1:], mine, strict=True):  # in the order they were played
        assert card_short(ev.card) in line, (line, ev)
    if lang == "en":
        assert "Your turn is over" not in text
