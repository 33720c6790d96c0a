"""The end of a practice game (``/hats learn``) as one Components V2 message (issue 18).

Under simcord with the real catalogs, in English and in German: the final result as the
table's end screen shows it (the end picture at full width with its complete alt text), the
coach's end notes in a text display of their own, nothing said twice, no embed, no rating,
no record, no Rematch. With the server's pictures off, the compact results list every
player's score, place and favourite hat, so the coach says none of them again: only how the
favourite scored (R17). And :func:`cogs.learn.end_notes` leaves out the final score when the
learner won (the result's head says it).
"""

from __future__ import annotations

import random
from dataclasses import replace

import discord
import pytest

from cogs.learn import COACH_MARK, LEARNER, end_notes
from tests.bot.helpers import act_on_hand, alt_texts, custom_ids, dm_of, v2_texts, walk_components
from tests.bot.language_support import set_client_locales
from tests.render.render_support import TRANSLATOR, finished_game, seat_labels
from texts.common import card_short, type_name


def hand_dm(session, player):
    marker = f"hats:hs:{session.id}:"
    return next(m for m in reversed(list(dm_of(player).history())) if marker in str(custom_ids(m)))


async def play_lesson_to_end(world, player, session, rng):
    while not session.game.is_over:
        legal = session.game.legal_actions(LEARNER)
        kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
        action = rng.choice([a for a in legal if a.kind is kind])
        await act_on_hand(session, player, hand_dm(session, player), action)


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_the_practice_end_is_one_v2_message_with_the_coach_notes(world, monkeypatch, locale):
    env, alice = world.env, world.players[0]
    set_client_locales(monkeypatch, {alice.user.id: locale})
    await alice.slash(world.channel, "hats learn")
    session = await env.bot.games.session_in_channel(dm_of(alice).id)
    await play_lesson_to_end(world, alice, session, random.Random(locale))
    tr = env.bot.get_cog("LearnCog").tr_for(alice.user.id)
    assert tr.locale == locale[:2]
    end_id = session.message("end").message_id
    end = next(m for m in dm_of(alice).history() if m.id == end_id)
    assert end.flags.value & (1 << 15) and not end.embeds and not end.content
    kinds = [type(c).__name__ for c in walk_components(end.components)]
    assert kinds[0] == "Container" and kinds.count("MediaGalleryComponent") == 1
    # no rating, no record, no Rematch: nothing to press, one file (the picture)
    assert not [c for c in walk_components(end.components) if isinstance(c, discord.Button)]
    (picture,) = end.attachments
    (alt,) = alt_texts(end)
    assert picture.description == alt and len(alt) <= 1024
    result = session.game.result
    for slot, card in enumerate(result.board, start=1):
        assert f"{slot} {type_name(card.type, tr)} {card.value}" in alt
    # the coach's end notes: one text display of their own, every line the coach's
    texts = v2_texts(end)
    notes = [t for t in texts if t.startswith(COACH_MARK)]
    assert len(notes) == 1
    assert all(line.startswith(COACH_MARK) for line in notes[0].splitlines())
    assert card_short(result.favourites[LEARNER]) in notes[0]
    assert notes[0].splitlines()[-1].endswith(tr("Another lesson? /hats learn deals a new game."))
    assert tr("Hats: game #{game_id} is over", game_id=session.id) in texts[0]
    unrated = tr("Not rated: a game counts for the ratings with at least two human players.")
    assert unrated not in "\n".join(texts)
    # nothing said twice
    lines = [line for t in texts for line in t.splitlines()]
    assert len(lines) == len(set(lines))
    # the learner's hand DM collapsed to its one line
    assert not [m for m in dm_of(alice).history() if f"hats:hs:{session.id}:" in str(custom_ids(m))]


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_with_pictures_off_the_coach_does_not_repeat_the_results(world, monkeypatch, locale):
    env, guild, alice = world.env, world.guild, world.players[0]
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    assert (await boss.slash(world.channel, "hats settings pictures", on=False)).ephemeral
    set_client_locales(monkeypatch, {alice.user.id: locale})
    await alice.slash(world.channel, "hats learn")
    session = await env.bot.games.session_in_channel(dm_of(alice).id)
    await play_lesson_to_end(world, alice, session, random.Random(f"off {locale}"))
    tr = env.bot.get_cog("LearnCog").tr_for(alice.user.id)
    assert tr.locale == locale[:2]
    end_id = session.message("end").message_id
    end = next(m for m in dm_of(alice).history() if m.id == end_id)
    kinds = [type(c).__name__ for c in walk_components(end.components)]
    assert not end.attachments and "MediaGalleryComponent" not in kinds, "pictures off"
    texts = v2_texts(end)
    (notes,) = [t for t in texts if t.startswith(COACH_MARK)]
    results = "\n".join(t for t in texts if t != notes)
    result = session.game.result
    favourite = result.favourites[LEARNER]
    # the compact results say the learner's favourite hat, its points, total and place ...
    assert tr("Favourite hat: {card}", card=card_short(favourite)) in results
    score = result.scores[LEARNER]
    said = tr(
        "Collection {collection} + favourite {favourite} + cookie {cookie} = **{total}**",
        collection=score.collection,
        favourite=score.favourite,
        cookie=score.cookie,
        total=score.total,
    ).replace("**", "")
    place = result.places[LEARNER]  # the game's one ranking (engine.standings)
    rows = results.splitlines()
    assert any(row.startswith(f"{place}. ") and said in row for row in rows), results
    # ... so the coach says none of them again, only how the favourite scored (R17)
    assert card_short(favourite) not in notes, f"the favourite hat said twice: {notes}"
    how = tr(
        "Your favourite hat is your last card: it scores your {type} collection values "
        "minus its own.",
        type=type_name(favourite.type, tr),
    )
    assert f"{COACH_MARK} {how}" in notes.splitlines()
    for final in (
        tr("Final score: {total}. You win!", total=score.total),
        tr("Final score: {total}, place {place}.", total=score.total, place=place),
    ):
        assert final not in notes, f"the final score said twice: {notes}"
    assert notes.splitlines()[-1].endswith(tr("Another lesson? /hats learn deals a new game."))
    lines = [line for t in texts for line in t.splitlines()]
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_coach_does_not_repeat_a_win_the_result_says(language):
    game = finished_game(3, 4)
    result = game.result
    tr = TRANSLATOR.for_locale(language)
    labels = seat_labels(3)
    lost = replace(result, winners=(1,))
    won = replace(result, winners=(LEARNER,))
    score = result.scores[LEARNER].total
    win_line = tr("Final score: {total}. You win!", total=score)
    assert win_line not in end_notes(won, labels, tr)
    said = end_notes(lost, labels, tr)
    assert win_line not in said and str(score) in said
    # the rest is the same either way: favourite, turned-down slots, another lesson
    assert len(said.splitlines()) == len(end_notes(won, labels, tr).splitlines()) + 1
