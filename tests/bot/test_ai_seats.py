"""AI seats: Add AI / Remove AI in the lobby, ``/hats ai add`` and ``/hats ai remove``, games
with AIs played to the end."""

from __future__ import annotations

import random
import sys

import pytest

import cogs.ai_players as ai_players
from bot import ai_process_pool
from engine import Game, GameConfig, Observation, Step
from engine.ai import ExpertBudget
from tests.bot.helpers import bot_messages, custom_ids, play_one, session_of, v2_texts


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None}


async def actors(env, game_id):
    """The stored actor of every step of a game, in order."""
    rows = await env.bot.store.steps._db.fetch_all(
        "SELECT actor FROM steps WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    return [r[0] for r in rows]


async def open_lobby(world):
    result = await world.players[0].slash(world.channel, "hats new")
    return result.response.message


def lobby_message(world, lobby):
    return next(m for m in world.channel.history() if m.id == lobby.id)


async def test_host_adds_ai_by_select_and_command_and_removes_one(world):
    env, alice, bob = world.env, world.players[0], world.players[1]
    lobby = await open_lobby(world)
    select_id = next(c for c in custom_ids(lobby) if c.startswith("hats:ai:"))
    await alice.select(lobby, ["hard"], custom_id=select_id)
    r = await alice.slash(world.channel, "hats ai add", level="easy")
    assert r.response.content == "An AI player joined the lobby."
    row = await env.bot.games.lobby_in_channel(world.channel.id)
    assert [s.ai_level for s in row.seats] == [None, "hard", "easy"]
    text = v2_texts(lobby_message(world, lobby))[1]
    assert "· hard" in text and "· easy" in text
    # only the host adds or removes AIs
    r = await bob.slash(world.channel, "hats ai add", level="normal")
    assert "Only the host" in r.response.content
    r = await bob.click(lobby_message(world, lobby), label="Remove AI")
    assert "Only the host" in r.response.content
    await alice.click(lobby_message(world, lobby), label="Remove AI")
    row = await env.bot.games.lobby_in_channel(world.channel.id)
    assert [s.ai_level for s in row.seats] == [None, "hard"]
    assert "· easy" not in v2_texts(lobby_message(world, lobby))[1]
    # a full table refuses a fifth seat
    await alice.slash(world.channel, "hats ai add", level="normal")
    await bob.click(lobby_message(world, lobby), label="Join")
    r = await alice.slash(world.channel, "hats ai add", level="normal")
    assert "full" in r.response.content
    assert len((await env.bot.games.lobby_in_channel(world.channel.id)).seats) == 4
    assert bot_messages(env, world.channel)


async def test_host_removes_the_last_ai_by_command(world):
    env, alice, bob = world.env, world.players[0], world.players[1]
    lobby = await open_lobby(world)
    r = await alice.slash(world.channel, "hats ai remove")
    assert r.ephemeral and r.response.content == "There is no AI player in this lobby."
    await alice.slash(world.channel, "hats ai add", level="hard")
    await alice.slash(world.channel, "hats ai add", level="easy")
    r = await bob.slash(world.channel, "hats ai remove")
    assert r.ephemeral and "Only the host" in r.response.content
    assert len((await env.bot.games.lobby_in_channel(world.channel.id)).seats) == 3
    r = await alice.slash(world.channel, "hats ai remove")
    assert r.ephemeral and r.response.content == "The AI player left the lobby."
    row = await env.bot.games.lobby_in_channel(world.channel.id)
    assert [s.ai_level for s in row.seats] == [None, "hard"]  # the last AI left
    text = v2_texts(lobby_message(world, lobby))[1]
    assert "· hard" in text and "· easy" not in text  # the lobby message was redrawn


async def play_human_game(world, levels, seed, *, check_lobby=None):
    """Alice hosts with AIs of ``levels`` and plays her own turns until the game ends.

    ``check_lobby(message)`` looks at the lobby message before the start.
    """
    env, alice = world.env, world.players[0]
    lobby = await open_lobby(world)
    for level in levels:
        await alice.slash(world.channel, "hats ai add", level=level)
    if check_lobby is not None:
        check_lobby(lobby_message(world, lobby))
    await alice.click(lobby_message(world, lobby), label="Start")
    session = await session_of(env, world.channel)
    rng = random.Random(seed)
    turns = 0
    while not session.game.is_over:
        assert session.seats[session.game.to_move].user_id == alice.user.id
        await play_one(world, session, rng)
        turns += 1
        assert turns < 500
    return session


async def test_one_human_two_ais_play_to_the_end(world):
    session = await play_human_game(world, ["easy", "normal"], seed=3)
    env = world.env
    stored = await actors(env, session.id)
    by_seat = [s["seat"] for s in await env.bot.store.steps.load_steps(session.id)]
    human = session.seat_of(world.players[0].user.id)
    assert stored and set(stored) == {"player", "ai"}
    assert all((a == "player") == (s == human) for a, s in zip(stored, by_seat, strict=True))
    # the stored steps replay to the same finished game
    steps = await env.bot.store.steps.load_steps(session.id)
    replayed = Game.replay(session.game.config, [Step.from_dict(d) for d in steps])
    assert replayed.is_over and replayed.snapshot() == session.game.snapshot()
    final = bot_messages(env, world.channel)[-1]
    assert final.attachments[0].filename == f"hats-game-{session.id}.json"


async def test_one_human_one_hard_ai_game_and_ai_sees_only_its_observation(world, monkeypatch):
    seen = []
    # hard decisions run through the cog's pooled chooser; load_extension imports the cog
    # module afresh: patch the module the bot runs
    loaded = sys.modules[type(world.env.bot.get_cog("AiCog")).__module__]
    real = loaded.make_ai

    def spy(level, seed, **kw):
        player = real(level, seed, **kw)

        class Spy:
            def choose(self, obs, legal):
                seen.append((obs, legal))
                return player.choose(obs, legal)

        return Spy()

    monkeypatch.setattr(loaded, "make_ai", spy)
    session = await play_human_game(world, ["hard"], seed=11)
    ai_seat = next(s.seat for s in session.seats if s.user_id is None)
    assert seen
    for obs, _legal in seen:
        assert isinstance(obs, Observation) and obs.viewer == ai_seat
    assert session.game.result is not None


async def test_an_expert_ai_thinks_in_the_process_pool_and_plays_to_the_end(world, make_bot):
    # The real path: the expert's observation and seed go to a worker process and its moves
    # come back (a small search budget keeps the test quick).
    pool = ai_process_pool(1)
    submitted = []
    real_submit = pool.submit

    def submit(fn, *args, **kwargs):
        submitted.append((fn, args))
        return real_submit(fn, *args, **kwargs)

    pool.submit = submit
    try:
        budget = ExpertBudget(turns=200, quick_turns=40)
        await world.env.restart_bot(make_bot(ai_pool=pool, expert_budget=budget))

        def shows_the_expert(lobby):
            assert "· expert" in " ".join(v2_texts(lobby))

        session = await play_human_game(world, ["expert"], seed=5, check_lobby=shows_the_expert)
    finally:
        pool.shutdown()
    assert session.game.result is not None
    assert [s.ai_level for s in session.seats].count("expert") == 1
    assert "ai" in await actors(world.env, session.id)
    assert submitted  # the expert's decisions went to the worker: level, seed, observation
    for _fn, args in submitted:
        assert args[0] == "expert" and isinstance(args[2], Observation)


async def test_ai_choice_is_deterministic_from_seed_and_observation():
    game = Game.new(GameConfig(seats=3, seed=9))
    seat = game.to_move
    for level in ("easy", "normal", "hard", "expert"):
        seed = ai_players.ai_seed(9, seat, 0)
        first = ai_players.ai_choice(game, seat, level, seed)
        assert first == ai_players.ai_choice(game, seat, level, seed)
        assert first in game.legal_actions(seat)


async def test_ai_to_move_resumes_after_a_restart(world, make_bot):
    env, alice = world.env, world.players[0]
    await env.restart_bot(make_bot(ai_delay=30.0))  # the AI pauses 30 s before each move
    lobby = await open_lobby(world)
    await alice.slash(world.channel, "hats ai add", level="normal")
    await alice.click(lobby_message(world, lobby), label="Start")
    session = await session_of(env, world.channel)
    rng = random.Random(6)
    human = session.seat_of(alice.user.id)
    while session.game.to_move == human:
        await play_one(world, session, rng)
    version = session.version
    assert session.game.to_move != human and session.version == version
    await env.restart_bot(make_bot())  # the stored deadline of the AI's move survives
    assert (await session_of(env, world.channel)).version == version
    await env.advance_time(31)
    again = await session_of(env, world.channel)
    assert again.game.to_move == human and again.version > version
    assert set((await actors(env, again.id))[version:]) == {"ai"}


async def test_reloading_the_ai_cog_keeps_one_ai_group_that_works(world):
    env, alice = world.env, world.players[0]
    await env.bot.reload_extension("cogs.ai_players")  # unload takes the ai group out again
    names = [c.name for c in env.bot.hats_group.commands]
    assert names.count("ai") == 1 and "addbot" not in names
    await open_lobby(world)
    r = await alice.slash(world.channel, "hats ai add", level="easy")
    assert r.response.content == "An AI player joined the lobby."
