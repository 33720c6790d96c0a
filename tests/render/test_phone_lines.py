"""Issue 29.17: the hand DM's texts stay within a line budget on a 360 px phone, in every language.

A proxy for ``scripts/phone_fit.py`` (Chromium, minutes per language): at 360 px the message's
text column holds about :data:`PHONE_CHARS` characters of Discord's font per line, and the issue's
worst realistic state names players with 20 characters.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from render_support import LANGUAGES, TRANSLATOR, finished_game, random_game_states, seat_labels

from data.game_flags import HINTS
from engine import Game, GameConfig, to_record
from history.replay import Replay
from history.stats import Summary, TeamSummary
from texts import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo, SeatLabel
from texts.coach import hints_line
from texts.events import describe_event
from texts.hand import hand_texts
from texts.history import replay_texts, stats_texts
from texts.lobby import lobby_texts

PHONE_CHARS = 30
"""Characters per line of message text at 360 px (measured on phone_fit's screenshots)."""
NAME = "Bruno Bertolucci Vay"
"""A display name of 20 characters (issue 29's worst realistic state)."""


SUBTEXT_CHARS = 37
"""Characters per line of ``-#`` subtext (13 px instead of 16 px) at 360 px."""


def phone_lines(text: str) -> int:
    """How many lines ``text`` takes on the phone, mentions shown as 20-character names."""
    text = re.sub(r"<@!?\d+>", NAME, text).replace("**", "")
    return sum(
        len(textwrap.wrap(line.removeprefix("-# "), SUBTEXT_CHARS))
        if line.startswith("-# ")
        else len(textwrap.wrap(line, PHONE_CHARS)) or 1
        for line in text.split("\n")
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_discard_that_reshuffles_the_deck_takes_at_most_four_lines(lang):
    tr = TRANSLATOR.for_locale(lang)
    for game in random_game_states(3, 8):
        if any(e.reshuffled for e in game.events):
            break
    else:
        pytest.fail("no reshuffle happened")
    ev = next(e for e in game.events if e.reshuffled)
    viewer = (ev.seat + 1) % 3  # another player: the public sentence, with a name
    line = describe_event(ev, seat_labels(3), tr, viewer=viewer)
    assert phone_lines(line) <= 4, line


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seats", "budget"), [(3, 2), (4, 3)])
def test_what_to_do_at_turn_start_takes_at_most_two_or_three_lines(lang, seats, budget):
    tr = TRANSLATOR.for_locale(lang)
    game = Game.new(GameConfig(seats, 2))
    texts = hand_texts(
        game.observation(game.active), seat_labels(seats), tr, game_id=1, channel="#hats"
    )
    assert phone_lines(texts.next) <= budget, texts.next


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chosen_card_leaves_the_head_in_one_line(lang):
    tr = TRANSLATOR.for_locale(lang)
    game = Game.new(GameConfig(3, 2))
    seat = game.active
    card = game.hands[seat][0]
    texts = hand_texts(
        game.observation(seat), seat_labels(3), tr, game_id=1, channel="#hats", selected=card
    )
    assert "\n" not in texts.head and phone_lines(texts.head) == 1, texts.head
    # what to do next in one line: the slot buttons below say the rest (issue 29.17)
    assert phone_lines(texts.next) == 1, texts.next


def _replay_lines(point, tr) -> int:
    texts = replay_texts(point, seat_labels(4), tr, game_id=1)
    return sum(phone_lines(t) for t in (texts.head, texts.players or "", texts.recent) if t)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_replay_step_of_a_team_game_fits_its_line_budget(lang):
    """Issue 29.17: a 4-player replay step (picture above) in at most 22 lines of text, the
    end in at most 12: the hands one a line each without bullets or team headings (the
    picture marks the teams), no sentence that the game is over, the winner once."""
    tr = TRANSLATOR.for_locale(lang)
    replay = Replay(to_record(finished_game(4, 5)))
    worst = max(_replay_lines(replay.at(i), tr) for i in range(0, replay.last, 4))
    assert worst <= 22, worst
    assert _replay_lines(replay.at(replay.last), tr) <= 6


def _lobby_four(tr):
    seats = tuple(SeatLabel(s, 1001 + s, None, NAME) for s in range(4))
    settings = {TURN_TIMER: 120, SWAP_TIMEOUT: 120, HINTS: True}
    return lobby_texts(LobbyInfo(host_id=1001, seats=seats, settings=settings), tr)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_full_team_lobby_takes_at_most_fourteen_lines(lang):
    """Issue 29.17: the full 4-player lobby with a timer and hints: a one-line title and team
    heading, the hints setting in one short line (its button says on or off)."""
    tr = TRANSLATOR.for_locale(lang)
    blocks = _lobby_four(tr)
    title = blocks[0].splitlines()[0]
    assert phone_lines(title) == 1, title
    hints = next(line for line in blocks[-1].splitlines() if "💡" in line)
    assert phone_lines(hints) == 1, hints
    assert sum(phone_lines(b) for b in blocks) <= 14, blocks


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_say_each_count_once_and_the_rating_in_few_lines(lang):
    """Issue 29.17: /hats stats of a player with only team games: no games block that repeats
    the team games' counts; the rating and its meaning in at most four lines."""
    tr = TRANSLATOR.for_locale(lang)
    summary = Summary(
        games=1,
        wins=1,
        by_seats={4: (1, 1)},
        mean_total=27.0,
        mean_collection=28.0,
        mean_favourite=-6.0,
        mean_cookie=5.0,
        black_hats_per_game=1.0,
        cookie_kept=1,
        best=(1, 27),
        favourite_type="purple",
        team=TeamSummary(1, 1, 27.0, 34.0, ((1002, 1, 1),)),
    )
    blocks = stats_texts("<@1001>", summary, None, None, tr)
    text = "\n".join(blocks)
    assert f"**{tr('Games')}**" not in text, text  # said in the team games block
    rating = blocks[-1].splitlines()
    assert sum(phone_lines(line) for line in rating[1:]) <= 4, rating


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hints_setting_is_one_short_line_with_one_bulb(lang):
    """Issue 29.17: the lobby's and the table's hints line: one line of subtext, one 💡."""
    line = hints_line({HINTS: True}, TRANSLATOR.for_locale(lang))
    assert line.count("💡") == 1 and phone_lines(f"-# {line}") == 1, line


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seats", [3, 4])
def test_each_other_turn_is_one_line_of_at_most_four_phone_lines(lang, seats):
    """Issue 36.3: "what just happened" gives each other player's turn since the viewer's own
    one line saying all of it; with 20-character names a line takes at most 4 phone lines and
    the three of a 4-player game at most 11 (random games, every state)."""
    tr = TRANSLATOR.for_locale(lang)
    labels = [SeatLabel(s, 1001 + s, None, NAME) for s in range(seats)]
    for seed in (1, 2, 3):
        for game in random_game_states(seats, seed):
            if game.is_over:
                continue
            texts = hand_texts(
                game.observation(game.to_move), labels, tr, game_id=1, channel="#hats"
            )
            lines = texts.recent.split("\n") if texts.recent else []
            assert len(lines) <= seats - 1, texts.recent
            for line in lines:
                assert phone_lines(line) <= 4, line
            assert phone_lines(texts.recent) <= 11 if lines else True, texts.recent


NAMED = [SeatLabel(s, 1001 + s, None, NAME) for s in range(4)]
"""Four players with display names of 20 characters (issue 36.9's worst realistic state)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_steps_one_to_three_of_a_team_game_take_at_most_fifteen_lines(lang):
    """Issue 36.9: /hats replay of a 4-player team game at steps 1–3 (names of 20 characters):
    the hands with plain names (a mention pill took a line of its own) and no empty black hat
    part, the turn in one line as a hand DM says it (it took up to 18 lines)."""
    tr = TRANSLATOR.for_locale(lang)
    worst = 0
    for seed in (1, 2, 3, 4, 5):
        replay = Replay(to_record(finished_game(4, seed)))
        for step in (1, 2, 3):
            texts = replay_texts(replay.at(step), NAMED, tr, game_id=1)
            parts = (texts.head, texts.players or "", texts.recent)
            worst = max(worst, sum(phone_lines(t) for t in parts if t))
    assert worst <= 15, worst


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_after_three_games_with_a_team_game_take_at_most_25_lines(lang):
    """Issue 36.9: /hats stats after a 2-player, a 3-player and a 4-player team game: no
    headings for games and scores (each line says what it counts), a shorter average line in
    es, fr and it; it took 24–28 lines."""
    tr = TRANSLATOR.for_locale(lang)
    summary = Summary(
        games=3,
        wins=2,
        by_seats={2: (1, 0), 3: (1, 1), 4: (1, 1)},
        mean_total=17.0,
        mean_collection=16.0,
        mean_favourite=-0.7,
        mean_cookie=1.7,
        black_hats_per_game=3.3,
        cookie_kept=1,
        best=(1, 27),
        favourite_type="purple",
        team=TeamSummary(1, 1, 27.0, 34.0, ((1002, 1, 1),)),
    )
    blocks = stats_texts("<@1001>", summary, None, None, tr)
    assert sum(phone_lines(b) for b in blocks) <= 25, blocks
