"""The hand DM in Components V2 on a phone (issue 18), as data: which components, which buttons
are enabled, the picture at full width with its complete alt text, nothing said twice, the
picture replaced on every edit, the swap offer's deadline, and no hidden card in any DM text or
alt text."""

from __future__ import annotations

import random
import re

import discord
import pytest

from tests.bot.helpers import act_on_hand, components_of, custom_ids, dm_of, open_and_start
from tests.bot.language_support import set_client_locales
from tests.bot.test_hidden_info import PATTERNS, message_text
from tests.render.render_support import known_to
from texts.common import card_short, type_name

TEXT, GALLERY, CONTAINER, ROW = 10, 12, 17, 1


def player_at(world, session, seat):
    return next(p for p in world.players if p.user.id == session.seats[seat].user_id)


def live_dm(world, session, seat):
    stored = session.message("dm", seat)
    history = dm_of(player_at(world, session, seat)).history()
    return next(m for m in history if stored is not None and m.id == stored.message_id)


def gallery_urls(message) -> list[str]:
    """Where the message's media galleries point."""
    return [i.media.url for c in components_of(message) if c.type.value == GALLERY for i in c.items]


def texts(message) -> list[str]:
    """The visible texts of a V2 message (its text displays)."""
    return [c.content for c in components_of(message) if c.type.value == TEXT]


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_hand_dm_is_one_container_picture_at_full_width_nothing_said_twice(
    world, monkeypatch, locale
):
    set_client_locales(monkeypatch, {p.user.id: locale for p in world.players})
    session = await open_and_start(world, 3)
    game = session.game
    seat = game.to_move
    tr = world.env.bot.translator.for_locale(locale)
    dm = live_dm(world, session, seat)
    assert dm.flags.components_v2 and not dm.content and not dm.embeds
    (container,) = dm.components
    assert container.type.value == CONTAINER
    kinds = [c.type.value for c in container.children]
    assert kinds[:3] == [TEXT, GALLERY, TEXT] and set(kinds[3:]) == {ROW}
    # the gallery shows the message's only attachment: the hand picture, with its alt text
    (picture,) = dm.attachments
    (item,) = container.children[1].items
    assert item.media.url == picture.url and picture.filename == "hand.png"
    alt = picture.description
    assert 0 < len(alt) <= 1024
    # the gallery item carries the same whole alt text (Discord allows 1,024 there too)
    assert item.description == alt, f"gallery alt cut: {len(item.description)} of {len(alt)}"
    for card in [*game.board, *game.hands[seat]]:  # complete: every card it shows, in words
        assert f"{type_name(card.type, tr)} {card.value}" in alt
    # whose turn once; the cards of the hand only in the picture (and the card select)
    shown = "\n".join(texts(dm))
    turn = tr("Round {round}/{rounds}: it's your turn.", round=1, rounds=8)
    assert shown.count(turn) == 1
    assert not any(card_short(c) in shown for c in game.hands[seat])
    lines = [line for line in shown.split("\n") if line.strip()]
    assert len(lines) == len(set(lines))
    # only legal actions, all enabled; no toggle besides Auto end turn
    buttons = [c for c in components_of(dm) if c.type.value == 2]
    assert buttons and not any(b.disabled for b in buttons)
    assert any(c.startswith("hats:p:") for c in custom_ids(dm))


async def test_every_edit_replaces_the_picture_and_the_gallery_follows(world):
    session = await open_and_start(world, 2)
    game = session.game
    seat = game.to_move
    player = player_at(world, session, seat)
    dm = live_dm(world, session, seat)
    seen = {dm.attachments[0].url}
    for card in game.hands[seat][:3]:  # each choice redraws the message (the response: free)
        select = next(c for c in custom_ids(dm) if c.startswith("hats:hs:"))
        await player.user.select(dm, [card.code], custom_id=select)
        dm = live_dm(world, session, seat)
        (picture,) = dm.attachments
        gallery = [
            i.media.url for c in components_of(dm) if c.type.value == GALLERY for i in c.items
        ]
        assert gallery == [picture.url]
    move = next(a for a in game.legal_actions(seat) if a.kind.is_main)
    await act_on_hand(session, player, dm, move)  # a new state: a new picture
    dm = next(m for m in dm_of(player).history() if m.id == dm.id)
    if custom_ids(dm):  # still live (the optional action is open)
        (picture,) = dm.attachments
        assert picture.url not in seen
        gallery = [
            i.media.url for c in components_of(dm) if c.type.value == GALLERY for i in c.items
        ]
        assert gallery == [picture.url]


async def test_four_players_dms_and_alt_texts_keep_hidden_cards_and_show_the_swap_deadline(world):
    session = await open_and_start(world, 4)
    game = session.game
    rng = random.Random(11)
    offers = 0
    for _ in range(40):
        if game.is_over:
            break
        seat = game.to_move
        if game.pending_offer is not None:  # the partner's swap-answer DM
            offers += 1
            dm = live_dm(world, session, seat)
            assert re.search(r"<t:\d+:R>", "\n".join(texts(dm)))
            assert not any(c.startswith("hats:p:") for c in custom_ids(dm))  # no Auto end turn
        for other in range(4):
            known = known_to(game, other)
            history = dm_of(player_at(world, session, other)).history()
            for message in history[-2:]:
                text = message_text(message)  # visible text and alt texts
                leaked = [c for c, pat in PATTERNS.items() if pat.search(text) and c not in known]
                assert not leaked, (other, leaked)
        legal = game.legal_actions(seat)
        offer = [a for a in legal if a.kind.value == "offer_swap"]
        action = rng.choice(offer) if offer and rng.random() < 0.5 else rng.choice(legal)
        player = player_at(world, session, seat)
        stored = session.message("dm", seat)
        message = next(m for m in dm_of(player).history() if m.id == stored.message_id)
        await act_on_hand(session, player, message, action)
    assert offers >= 1


async def test_a_hand_dm_sent_before_v2_is_redrawn_as_v2(world):
    # a live hand DM of an older version (content + embed) after an upgrade: edited to V2
    session = await open_and_start(world, 3)
    game = session.game
    seat = game.to_move
    waiting = next(s for s in range(3) if s != seat)
    player = player_at(world, session, waiting)
    bot = world.env.bot
    channel = await bot.create_dm(player.user)
    old = await channel.send(content="Your move", embed=discord.Embed(title="Your hand"))
    await bot.games.remember_message(session, "dm", channel.id, old.id, seat=waiting)
    await bot.get_cog("PlayCog").edit_dm(session, waiting)
    await world.env.settle()
    now = next(m for m in dm_of(player).history() if m.id == old.id)
    assert now.flags.components_v2 and not now.content and not now.embeds
    assert gallery_urls(now) == [now.attachments[0].url]


async def test_an_oversized_notice_is_cut_and_the_hand_dm_still_goes_out(world):
    # Components V2: at most 4,000 characters of text in a whole message (simcord rejects
    # more); a 6,000-character notice is cut, the rest of the hand DM stays whole
    session = await open_and_start(world, 3)
    seat = session.game.to_move
    before = live_dm(world, session, seat)
    await world.env.bot.get_cog("PlayCog").edit_dm(session, seat, notice="⚠️" * 3000)
    await world.env.settle()
    dm = live_dm(world, session, seat)
    shown = texts(dm)
    assert "⚠️" in shown[0] and shown[0].endswith("…"), "the notice, cut, in the top text"
    assert sum(len(t) for t in shown) <= 4000
    # the rest as before: whose turn, the picture with its alt text, collection, controls
    assert shown[0].split("\n")[0] == texts(before)[0].split("\n")[0]
    assert shown[1:] == texts(before)[1:]
    assert gallery_urls(dm) == [dm.attachments[0].url]
    assert custom_ids(dm) == custom_ids(before)
