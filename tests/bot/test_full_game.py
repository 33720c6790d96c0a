"""Whole games played only through clicks by simulated players, checked against the engine."""

from __future__ import annotations

import random

from engine import Game, Step
from tests.bot.helpers import (
    alt_texts,
    bot_messages,
    card_words,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    v2_texts,
)
from tests.bot.helpers import message_text as text_of
from tests.bot.helpers import text_of as hand_text


def table_message(env, channel, session):
    table = session.message("table")
    return next(m for m in bot_messages(env, channel) if m.id == table.message_id)


async def test_two_player_game_to_the_end_by_dm_controls(world):
    env = world.env
    session = await open_and_start(world, 2)
    assert session is not None and session.game.seats == 2
    rng = random.Random(5)
    players = {p.user.id: p for p in world.players}
    while not session.game.is_over:
        before = session.version
        await play_one(world, session, rng)
        assert session.version == before + 1
        game = session.game
        # the public table's picture shows the engine's board, slot by slot (its alt text
        # says so), and its text whose turn it is; once over, it is the final result
        message = table_message(env, world.channel, session)
        (alt,) = alt_texts(message)
        for slot, card in enumerate(game.board, start=1):
            assert f"{slot} {card_words(card)}" in alt
        if not game.is_over:
            mover = session.seats[game.to_move].user_id
            assert f"<@{mover}>" in "\n".join(v2_texts(message))
        # the player to move has one live hand DM showing exactly their own hand; every other
        # DM of the game is collapsed to a line without controls (no stale "Your move")
        for seat in session.seats:
            dms = list(dm_of(players[seat.user_id]).history())
            live = [m for m in dms if custom_ids(m)]
            if not game.is_over and game.to_move == seat.seat:
                assert live == [dms[-1]]
                dm = hand_text(dms[-1])  # its texts, buttons and card menu
                for card in game.hands[seat.seat]:
                    assert f"{card.type.emoji} {card.value}" in dm
            else:
                assert not live and not dms[-1].attachments
    # the stored steps replay to the engine's final state, and the scores are announced
    stored = await env.bot.store.steps.load_steps(session.id)
    replayed = Game.replay(session.game.config, [Step.from_dict(s) for s in stored])
    assert replayed.snapshot() == session.game.snapshot()
    await env.advance_time(1)
    final = table_message(env, world.channel, session)  # the table became the final result
    assert session.message("end").message_id == final.id
    assert final.attachments and final.attachments[0].filename.endswith(".json")
    final_text = text_of(final)
    for score in session.game.result.scores:
        assert str(score.total) in final_text
    for winner in session.game.result.winners:
        assert f"<@{session.seats[winner].user_id}>" in final_text
