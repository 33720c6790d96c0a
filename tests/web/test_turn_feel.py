"""What the Activity's view tells about moves and hints (issue 35.5, 35.10).

The ``events`` of a view are moves, one line each, with their public ``kind`` and ``slot``
(the client's motion reads them), and no bare "ended their turn" line. A player may ask for
one hint a turn in a game that is not rated (fewer than 2 humans, or hints allowed), and
none in a rated game.
"""

from __future__ import annotations


async def test_view_events_are_moves_with_their_kind_and_slot(web_world):
    game_id = await web_world.start_game([2101, 2102])
    session = web_world.games.cached(game_id)
    mover = session.seats[session.game.to_move].user_id
    me = await web_world.connect(mover, "Mover")
    view = await me.view_at(0)
    exchange = next(a for a in view["legal"] if a["kind"] == "exchange")
    rid = await me.request({"t": "act", "game_id": str(game_id), "step": 0, "action": exchange})
    assert (await me.answer(rid))["t"] == "ack"
    view = await me.view_at(1)
    if any(a["kind"] == "end_turn" for a in view["legal"] or []):
        end = {"kind": "end_turn"}
        rid = await me.request({"t": "act", "game_id": str(game_id), "step": 1, "action": end})
        assert (await me.answer(rid))["t"] == "ack"
        view = await me.view_at(2)
    assert session.game.to_move != session.seats.index(
        next(s for s in session.seats if s.user_id == mover)
    )  # the turn really ended
    assert [(e["kind"], e["slot"]) for e in view["events"]] == [("exchange", exchange["slot"])]
    assert "ended" not in view["events"][0]["text"]


async def test_one_hint_a_turn_in_a_game_against_the_ai(web_world):
    game_id = await web_world.start_game([2201, None])
    session = web_world.games.cached(game_id)
    await _until_my_turn(web_world, session)
    me = await web_world.connect(2201, "Solo")
    view = await me.until(lambda f: f["t"] == "view" and f["to_move"] == f["seat"])
    assert view["hints"] is True  # one human: never rated, so a hint a turn
    rid = await me.request({"t": "hint", "game_id": str(game_id)})
    hint = await me.answer(rid)
    assert hint["t"] == "hint" and hint["text"] and hint["action"] in view["legal"]
    rid = await me.request({"t": "hint", "game_id": str(game_id)})
    again = await me.answer(rid)
    assert again["t"] == "error" and "one hint a turn" in again["message"]
    assert session.version == view["step"]  # asking changed nothing
    # The next turn has a hint of its own.
    await _play_while(web_world, session, lambda seat: seat == 0)  # my turn, to its end
    await _until_my_turn(web_world, session)
    rid = await me.request({"t": "hint", "game_id": str(game_id)})
    assert (await me.answer(rid))["t"] == "hint"


async def _play_while(world, session, moving) -> None:
    """Play (a main action first, then end the turn) while ``moving(seat to move)``."""
    while moving(session.game.to_move):
        seat = session.game.to_move
        legal = session.game.legal_actions(seat)
        main = [a for a in legal if a.kind.is_main]
        end = [a for a in legal if a.kind.value == "end_turn"]
        await world.games.play(session, seat, (main or end or legal)[0])


async def _until_my_turn(world, session) -> None:
    """Play every other seat's turns until seat 0 is to move."""
    await _play_while(world, session, lambda seat: seat != 0)


async def test_no_hint_in_a_rated_game(web_world):
    game_id = await web_world.start_game([2301, 2302])
    session = web_world.games.cached(game_id)
    mover = session.seats[session.game.to_move].user_id
    me = await web_world.connect(mover, "Rated")
    view = await me.view_at(0)
    assert view["hints"] is False
    rid = await me.request({"t": "hint", "game_id": str(game_id)})
    answer = await me.answer(rid)
    assert answer["t"] == "error" and "Hints are off" in answer["message"]
