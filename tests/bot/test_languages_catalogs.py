"""The real catalogs in a real game: each player's DMs and answers are rendered in their own
language, the table in the server's, and differ from English wherever the catalog translates.

(tests/bot/test_languages.py checks where every word comes from with tagged catalogs; this
one checks the shipped catalogs reach the players.)
"""

from __future__ import annotations

import random

from tests.bot.helpers import (
    act_on_hand,
    alt_texts,
    bot_messages,
    components_of,
    custom_ids,
    dm_of,
    session_of,
    v2_texts,
)
from tests.bot.language_support import set_client_locales
from texts.replies import labels_for
from texts.table import table_texts

CLIENTS = [("anna", "de"), ("bruno", "es-ES"), ("chloe", "fr"), ("dario", "it")]


def _entry(item) -> tuple | None:
    """A component as a reader sees it: its text, or its label/placeholder/options."""
    inner = getattr(item, "item", item)
    content = getattr(inner, "content", None)
    if isinstance(content, str):
        return ("text", content)
    label, placeholder = getattr(inner, "label", None), getattr(inner, "placeholder", None)
    if label is None and placeholder is None:
        return None  # containers, rows, the picture's gallery (test_pictures.py checks it)
    options = tuple(o.label for o in getattr(inner, "options", ()) or ())
    return (label, placeholder, options)


def _shown(message) -> tuple:
    """What a player sees of a message: embeds, texts and every control's label/placeholder."""
    embeds = tuple({k: v for k, v in e.to_dict().items() if k != "image"} for e in message.embeds)
    entries = (_entry(c) for c in components_of(message))
    return embeds, tuple(e for e in entries if e is not None)


def _view_shown(message) -> tuple:
    entries = (_entry(item) for item in message.view(picture=True).walk_children())
    return (), tuple(e for e in entries if e is not None)


async def test_each_player_gets_their_own_catalog_and_the_table_the_servers(
    simcord_env, monkeypatch
):
    env = simcord_env
    bot = env.bot
    guild = env.create_guild("Tea room", preferred_locale="en-US")
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(n)) for n, _ in CLIENTS]
    locales = {p.user.id: loc for p, (_, loc) in zip(players, CLIENTS, strict=True)}
    set_client_locales(monkeypatch, locales)

    lobby = (await players[0].slash(channel, "hats new")).response.message
    lobby_id = next(int(c.split(":")[2]) for c in custom_ids(lobby))
    for p in players[1:]:
        await p.click(lobby, custom_id=f"hats:l:{lobby_id}:join")
    await players[0].click(lobby, custom_id=f"hats:l:{lobby_id}:start")
    session = await session_of(env, channel)
    play = bot.get_cog("PlayCog")
    english = bot.translator.for_locale("en-US")
    rng = random.Random(3)
    translated = dict.fromkeys(locales.values(), 0)
    last_actor = None
    for _step in range(12):
        for p in players:
            seat = session.seat_of(p.user.id)
            if seat == last_actor:
                continue  # its DM shows the notice of its own move
            tr = bot.translator.for_locale(locales[p.user.id])
            stored = session.message("dm", seat)
            if stored is None or stored.message_id is None:
                continue  # no live hand DM while it is not their turn (one line only)
            dm = next(m for m in dm_of(p).history() if m.id == stored.message_id)
            due = await play.swap_deadline(session, seat)
            mine = _view_shown(play.hand_message(session, seat, tr, deadline=due))
            assert _shown(dm) == mine, p.user.name
            if mine != _view_shown(play.hand_message(session, seat, english, deadline=due)):
                translated[locales[p.user.id]] += 1
        # the public table: the server's language (English here), whoever moved
        table = next(
            m for m in bot_messages(env, channel) if m.id == session.message("table").message_id
        )
        public = table_texts(
            session.game.public_view(),
            labels_for(session, bot.names, english),
            english,
            game_id=session.id,
            auto_played=session.auto_played,
        )
        shown = v2_texts(table)
        assert shown[0] == public.head and public.alt in alt_texts(table)
        assert public.recent in shown if public.recent else len(shown) == 1
        seat = session.game.to_move
        player = next(p for p in players if p.user.id == session.seats[seat].user_id)
        legal = [a for a in session.game.legal_actions(seat) if a.kind.name != "OFFER_SWAP"]
        stored = session.message("dm", seat)
        dm = next(m for m in dm_of(player).history() if m.id == stored.message_id)
        await act_on_hand(session, player, dm, rng.choice(legal))
        last_actor = seat
    # a language whose catalog translates the hand shows it translated, never in English
    for lang, count in translated.items():
        tr = bot.translator.for_locale(lang)
        if tr("Choose a card") != "Choose a card":
            assert count > 0, lang
    # private answers: /hats hand in the caller's language
    for p in players:
        tr = bot.translator.for_locale(locales[p.user.id])
        r = await p.slash(channel, "hats hand")
        assert r.ephemeral
        seat = session.seat_of(p.user.id)
        due = await play.swap_deadline(session, seat)
        shown = _view_shown(play.hand_message(session, seat, tr, deadline=due))
        assert _shown(r.response.message) == shown
