"""``/hats learn`` (a coached practice game) and ``/hats hint`` under simcord.

A learner plays whole practice games in their DMs with random legal moves, in each of the
five languages (tagged catalogs: every text says which catalog it came from), with a coach
line after every move of theirs and the end notes at the end; a restart mid-lesson; practice
games stay out of history, stats and leaderboards; hints answer only where allowed, the same
for the same state, and never depend on cards the asker may not see.
"""

from __future__ import annotations

import random

import pytest
from simcord.results import ResponseMessage

from coach import LESSON_SEEDS, explain_step, lesson_config, suggest
from cogs.controls import action_custom_id, card_select_custom_id
from cogs.learn import COACH_MARK
from engine import ActionKind, Game
from tests.ai.ai_support import twin_game
from tests.bot.conftest import TEST_EXPERT
from tests.bot.helpers import (
    act_on_hand,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    v2_texts,
)
from tests.bot.language_support import set_client_locales, tagged_translator, tags_of
from texts.coach import coach_lines as words
from texts.coach import hint_line
from texts.common import SeatLabel, card_short
from texts.i18n import Tr

LOCALES = {"en": "en-US", "de": "de", "es": "es-ES", "fr": "fr", "it": "it"}


@pytest.fixture
def simcord_bot(make_bot, tmp_path):
    bot = make_bot()
    bot.translator = tagged_translator(tmp_path / "locales")
    return bot


async def start_lesson(world, player):
    """``/hats learn`` by ``player``: the answer and the practice game (in their DMs)."""
    result = await player.slash(world.channel, "hats learn")
    session = await world.env.bot.games.session_in_channel(dm_of(player).id)
    return result, session


def close_dms(env, player):
    """``player`` accepts no DMs from the bot (Discord answers 403, code 50007)."""
    env.inject_error(
        "POST",
        f"/channels/{dm_of(player).id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def hand_dm(session, player):
    """The learner's live hand DM (the newest message with hand controls)."""
    marker = f"hats:hs:{session.id}:"
    return next(m for m in reversed(list(dm_of(player).history())) if marker in str(custom_ids(m)))


def coach_lines(message) -> list[str]:
    """The coach's lines of a message (its content or V2 text displays)."""
    texts = [message.content or "", *v2_texts(message)]
    return [line for t in texts for line in t.splitlines() if line.startswith(COACH_MARK)]


async def learner_move(world, session, player, rng) -> list[str]:
    """One random legal move of the learner through the hand DM; the coach lines it got."""
    game = session.game
    legal = game.legal_actions(0)
    kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
    kind = rng.choice(kinds)
    action = rng.choice([a for a in legal if a.kind is kind])
    message = hand_dm(session, player)
    result = await act_on_hand(session, player, message, action)
    redrawn = result.response.message if result.response is not None else None
    drawn = next(m for m in dm_of(player).history() if m.id == message.id)
    lines = coach_lines(drawn) or (coach_lines(redrawn) if redrawn is not None else [])
    return action.kind, lines


async def play_lesson(world, player, session, rng, *, stop_after: int | None = None):
    """Play the learner's moves until the end (or ``stop_after`` moves); check the coach."""
    moves = 0
    while not session.game.is_over and (stop_after is None or moves < stop_after):
        assert session.game.to_move == 0, "the AI players move by themselves"
        # the cards the learner may not see now (3 seats: no swap can show them one)
        hidden = [c for seat in (1, 2) for c in session.game.hands[seat]]
        hidden += [c for seat in (1, 2) for c in session.game.black_hats[seat]]
        kind, lines = await learner_move(world, session, player, rng)
        moves += 1
        assert not [c for c in hidden if any(card_short(c) in line for line in lines)]
        if kind not in (ActionKind.END_TURN, ActionKind.DISCARD):
            assert 1 <= len(lines) <= 3, (kind, lines)
        assert len(lines) <= 3, (kind, lines)  # a known discard: its move line says it all
    return moves


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_a_whole_coached_practice_game_in_each_language(world, monkeypatch, lang):
    env, alice = world.env, world.players[0]
    set_client_locales(monkeypatch, {alice.user.id: LOCALES[lang]})
    result, session = await start_lesson(world, alice)
    assert result.response.ephemeral
    answer = " ".join(m.content or "" for m in [result.response, *result.followups] if m)
    assert "in your DMs" in answer
    assert session.practice and [s.ai_level for s in session.seats] == [None, "normal", "normal"]
    assert not [m for m in world.channel.history() if m.author.id == env.bot.user.id]
    await play_lesson(world, alice, session, random.Random(lang))
    end = dm_of(alice).last_message
    lines = coach_lines(end)
    # favourite, turned-down slots, the final score (unless the learner won: the result's head
    # says so), another lesson
    assert len(lines) >= 3
    if lang != "en":
        assert tags_of(end) == {lang}
        assert all(f"‹{lang}›" in line for line in lines)


async def test_restart_mid_lesson_continues_with_the_coach(world, make_bot):
    env, alice = world.env, world.players[0]
    _, session = await start_lesson(world, alice)
    rng = random.Random(7)
    await play_lesson(world, alice, session, rng, stop_after=6)
    await env.restart_bot(make_bot())
    session = await env.bot.games.session_in_channel(dm_of(alice).id)
    assert session is not None and session.practice
    await play_lesson(world, alice, session, rng)
    assert coach_lines(dm_of(alice).last_message)


async def test_practice_is_unrated_and_out_of_history_stats_and_leaderboard(world):
    env, alice = world.env, world.players[0]
    _, session = await start_lesson(world, alice)
    await play_lesson(world, alice, session, random.Random(3))
    store = env.bot.store
    await store.history.process_pending()
    assert await store.history.player_games(alice.user.id, None) == []
    assert await store.history.recent_games(world.guild.id) == []
    assert await store.history.rating(alice.user.id, 0) is None
    assert await store.history.outcomes() == []
    r = await alice.slash(world.channel, "hats stats")
    assert r.response.ephemeral or r.response is not None


async def test_second_learn_points_to_the_running_game_and_can_give_it_up(world):
    env, alice = world.env, world.players[0]
    _, session = await start_lesson(world, alice)
    again = await alice.slash(world.channel, "hats learn")
    assert f"#{session.id}" in again.response.content
    assert await env.bot.games.session_in_channel(dm_of(alice).id) is session
    await alice.click(again.response.message, label="Give up this practice game")
    assert await env.bot.games.session_in_channel(dm_of(alice).id) is None
    _, fresh = await start_lesson(world, alice)
    assert fresh is not None and fresh.id != session.id


@pytest.mark.parametrize(
    "bot_options", [{"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "max_games": 1}]
)
async def test_a_learner_can_join_a_real_game_meanwhile(world):
    """A practice game counts toward no limit: with HATS_MAX_GAMES=1 the learner still plays."""
    alice = world.players[0]
    _, practice = await start_lesson(world, alice)
    real = await open_and_start(world, 2)
    assert real is not None and real.seat_of(alice.user.id) is not None
    assert practice.practice and not real.practice
    # both go on: a move in each
    await play_one(world, real, random.Random(1))
    await play_lesson(world, alice, practice, random.Random(2), stop_after=1)


async def test_hint_answers_in_practice_and_refuses_elsewhere(world):
    alice = world.players[0]
    _, practice = await start_lesson(world, alice)
    first = await alice.user.slash("hats hint")  # in the DM with the bot
    again = await alice.user.slash("hats hint")
    assert first.response.ephemeral and first.response.content.startswith("Hint: ")
    assert first.response.content == again.response.content
    assert practice.version == 0  # a hint never changes the game
    # the button of the hand DM gives the same hint
    clicked = await alice.user.click(hand_dm(practice, alice), label="What should I do?")
    assert clicked.response.content == first.response.content
    # a real game without hints: refused, with the reason
    real = await open_and_start(world, 2)
    seat = real.game.to_move
    player = next(p for p in world.players if p.user.id == real.seats[seat].user_id)
    r = await player.slash(world.channel, "hats hint")
    assert r.response.ephemeral and "Hints are off" in r.response.content


async def test_hints_allowed_lobby_hint_and_unrated(world):
    env, alice, bob = world.env, world.players[0], world.players[1]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    r = await bob.click(lobby, label="Hints: off (turn on)")
    assert "Only the host" in r.response.content
    await alice.click(lobby, label="Hints: off (turn on)")
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    assert "· not rated" in " ".join(v2_texts(lobby))
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    session = await env.bot.games.session_in_channel(world.channel.id)
    table_id = session.message("table").message_id
    table = next(m for m in world.channel.history() if m.id == table_id)
    hints = [t for t in v2_texts(table) if "· not rated" in t]
    assert len(hints) == 1 and hints[0].startswith("-# 💡 </hats hint:"), hints
    assert hints[0].count("💡") == 1, hints  # one bulb, one short line (issue 29.17)
    seat = session.game.to_move
    player = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    r = await player.slash(world.channel, "hats hint")
    assert r.response.content.startswith("Hint: ")
    rng = random.Random(5)
    while not session.game.is_over:
        await play_one(world, session, rng)
    await env.bot.store.history.process_pending()
    assert await env.bot.store.history.rating(alice.user.id, world.guild.id) is None
    assert [g.game_id for g in await env.bot.store.history.recent_games(world.guild.id)] == [
        session.id
    ]


async def test_hint_and_coach_never_depend_on_hidden_cards():
    """Two lessons whose learner sees the same but whose hidden cards differ: same words."""
    tr = Tr.english()
    labels = [SeatLabel(0, 1, None, "me"), SeatLabel(1, None, "normal", "AI 1")]
    labels.append(SeatLabel(2, None, "normal", "AI 2"))
    for seed in LESSON_SEEDS[:3]:
        game = Game.new(lesson_config(seed))
        twin = twin_game(game, 0, seed + 1)
        assert twin.observation(0) == game.observation(0) and twin.setup != game.setup
        rng = random.Random(seed)
        while game.to_move == 0:  # the learner's whole first turn, on both games
            number = len(game.steps)
            a = suggest(game.observation(0), game.legal_actions(0), number * 4, TEST_EXPERT)
            b = suggest(twin.observation(0), twin.legal_actions(0), number * 4, TEST_EXPERT)
            assert hint_line(a, tr) == hint_line(b, tr)
            # (a discard draws from the deck, which the twin deals differently: seen by the
            # learner once drawn, so not compared here)
            legal = [a for a in game.legal_actions(0) if a.kind is not ActionKind.DISCARD]
            action = rng.choice(legal)
            said = []
            for g in (game, twin):
                before = g.observation(0)
                event = g.apply(0, action)
                notes = explain_step(before, event.seen_by(0), g.observation(0))
                said.append(words(notes, labels, tr))
            assert said[0] == said[1]


async def test_closed_dms_put_the_lesson_in_a_private_thread(world):
    env, alice = world.env, world.players[0]
    close_dms(env, alice)
    result = await alice.slash(world.channel, "hats learn")
    answer = " ".join(m.content or "" for m in [result.response, *result.followups] if m)
    assert "private thread" in answer
    session = (await env.bot.games.sessions_of_user(alice.user.id))[0]
    assert session.practice and session.channel_id != world.channel.id
    r = await alice.slash(world.channel, "hats hint", game=session.id)
    assert r.response.content.startswith("Hint: ")


async def test_no_dms_and_no_thread_plays_the_lesson_in_private_answers(world):
    env, alice = world.env, world.players[0]
    close_dms(env, alice)
    env.inject_error(
        "POST",
        f"/channels/{world.channel.id}/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    result = await alice.slash(world.channel, "hats learn")
    assert result.response.ephemeral and "only you can see" in result.response.content
    session = (await env.bot.games.sessions_of_user(alice.user.id))[0]
    assert session.practice
    hand_id = result.followups[-1].id  # the hand follows the answer (a V2 message of its own)
    rng = random.Random(9)
    while not session.game.is_over:
        hand = ResponseMessage(env, env.backend.get_message(world.channel.id, hand_id)).message
        legal = session.game.legal_actions(0)
        kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
        action = rng.choice([a for a in legal if a.kind is kind])
        card = getattr(action, "card", None)
        version = session.version
        if card is not None:
            select = card_select_custom_id(session.id, version)
            await alice.select(hand, [card.code], custom_id=select)
            hand = ResponseMessage(env, env.backend.get_message(world.channel.id, hand_id)).message
        r = await alice.click(hand, custom_id=action_custom_id(session.id, version, action))
        if kind not in (ActionKind.END_TURN, ActionKind.DISCARD):  # the coach's lines stay
            hand = ResponseMessage(env, env.backend.get_message(world.channel.id, hand_id)).message
            assert coach_lines(hand), kind
        if r.followups:  # the learner's next turn: a new private hand
            hand_id = r.followups[-1].id
    assert not [m for m in world.channel.history() if m.author.id == env.bot.user.id]


def _score(obs, seat=0):
    from engine.scoring import provisional_scores

    return provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)[seat]


async def test_the_coach_answers_at_the_turn_start_what_the_others_did_and_the_last_turn(world):
    """Issue 29 point 10: at the start of each of the learner's turns the hand DM says what the
    AI players' moves did to the learner's score (with the moves themselves above), and before
    the last turn that the card kept becomes the favourite hat, with what each would score."""
    alice = world.players[0]
    _, session = await start_lesson(world, alice)
    rng = random.Random(29)
    after_mine = None  # the learner's score after their last step
    jumps = 0
    while not session.game.is_over:
        game = session.game
        assert game.to_move == 0
        obs = game.observation(0)
        lines = coach_lines(hand_dm(session, alice))
        text = "\n".join(v2_texts(hand_dm(session, alice)))
        assert len(lines) <= 2, lines
        if obs.turns_taken[0] == 7:
            first, second = obs.hand
            (last,) = [line for line in lines if "Last turn: the card you keep" in line]
            assert card_short(first) in last and card_short(second) in last
        else:
            assert not [line for line in lines if "Last turn" in line]
        if after_mine is not None and _score(obs) != after_mine and obs.turns_taken[0] != 7:
            (jump,) = [line for line in lines if "your score " in line]
            assert f" {_score(obs)} (" in jump
            assert ", took " in text or "made a black hat" in text  # the moves, above
            jumps += 1
        turns = obs.turns_taken[0]
        while session.game.turns_taken[0] == turns:  # the learner's turn (the AIs follow)
            await learner_move(world, session, alice, rng)
        game = session.game
        if not game.is_over:
            # the AI players have moved: the learner's score as it stood after their turn
            replay = Game.new(game.config)
            for step in game.steps:
                replay.apply(step.seat, step.action)
                if step.seat == 0:
                    after_mine = _score(replay.observation(0))
    assert jumps
