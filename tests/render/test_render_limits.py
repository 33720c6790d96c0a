"""Discord's limits (embeds, Components V2 text, alt texts) hold for worst-case games, names
and translations."""

from __future__ import annotations

import discord
import pytest
from render_support import (
    EN,
    LANGUAGES,
    STRETCHED,
    TRANSLATOR,
    finished_game,
    random_game_states,
)

from cogs.render import (
    LobbyInfo,
    SeatLabel,
    table_embed,
)
from cogs.render.end import end_texts
from cogs.render.hand import hand_alt_text, hand_texts
from cogs.render.limits import embed_size, fit_embed, fit_lines, text_len, truncate
from cogs.render.lobby import lobby_texts
from cogs.render.rules import rules_views

BIG_ID = 10**19 - 1  # the longest snowflake mention: <@ + 19 digits + >
NASTY = "_*~`|" * 6 + "🎩🎩"  # 32 characters; markdown escaping doubles most of them


def worst_labels(seats: int) -> list[SeatLabel]:
    out = []
    for s in range(seats):
        if s % 2:
            out.append(SeatLabel(s, None, "hard", NASTY))
        else:
            out.append(SeatLabel(s, BIG_ID - s, "normal", NASTY, away=True))
    return out


def assert_within_limits(embed: discord.Embed) -> None:
    for measure in (len, text_len):
        assert measure(embed.title or "") <= 256
        assert measure(embed.description or "") <= 4096
        assert measure(embed.footer.text or "") <= 2048
        assert len(embed.fields) <= 25
        for f in embed.fields:
            assert 0 < measure(f.name) <= 256
            assert 0 < measure(f.value) <= 1024
    assert len(embed) <= 6000  # discord.py's own count
    assert embed_size(embed) <= 6000


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize(
    "tr",
    [*(TRANSLATOR.for_locale(lang) for lang in LANGUAGES), STRETCHED],
    ids=[*LANGUAGES, "stretched"],
)
def test_every_message_of_a_worst_case_game_fits(seats, tr):
    labels = worst_labels(seats)
    every_event = range(200)
    game = None
    for game in random_game_states(seats, 17):
        if game.is_over:
            break
        assert_within_limits(
            table_embed(
                game.public_view(), labels, tr, game_id=BIG_ID, recent=200, auto_played=every_event
            )
        )
        seat = game.to_move
        obs = game.observation(seat)
        hand = hand_texts(
            obs,
            labels,
            tr,
            game_id=BIG_ID,
            channel=f"<#{BIG_ID}>",
            selected=obs.hand[0] if obs.hand else None,
            auto_played=every_event,
        )
        # Components V2: at most 4,000 characters of text in the whole message
        visible = [hand.head, hand.recent, hand.mine, hand.next, hand.refused, hand.state]
        assert sum(text_len(t) for t in visible) <= 4000
        assert len(hand_alt_text(obs, tr)) <= 1024  # an attachment's description
    obs = game.public_view()
    for pictures in (True, False):
        end = end_texts(obs, labels, tr, game_id=BIG_ID, pictures=pictures, humans=1)
        visible = [end.head, end.unrated or "", end.results or ""]
        assert sum(text_len(t) for t in visible) <= 4000
        assert len(end.alt) <= 1024


def test_long_recent_history_keeps_the_newest_lines():
    game = finished_game(4, 3)
    labels = worst_labels(4)
    obs = game.public_view()
    embed = table_embed(obs, labels, EN, game_id=1, recent=500)
    moves = next(f.value for f in embed.fields if f.name.startswith("Recent moves"))
    assert "The game is over." in moves.splitlines()[-1]  # the last event is kept
    assert len(moves.splitlines()) < len(obs.events)  # older ones were dropped to fit


@pytest.mark.parametrize(
    "tr",
    [*(TRANSLATOR.for_locale(lang) for lang in LANGUAGES), STRETCHED],
    ids=[*LANGUAGES, "stretched"],
)
def test_lobby_and_rules_fit(tr):
    seats = tuple(worst_labels(4))
    lobby = LobbyInfo(BIG_ID, seats, settings={"x" * 200: "y" * 900}, status="s" * 5000)
    # Components V2: at most 4,000 characters of text in the whole message
    assert sum(text_len(block) for block in lobby_texts(lobby, tr)) <= 4000
    for view in rules_views(tr):  # V2: at most 4,000 characters of text per message
        rules = [i.content for i in view.walk_children() if hasattr(i, "content")]
        assert sum(text_len(t) for t in rules) <= 4000


def test_fit_embed_trims_everything_oversized():
    embed = discord.Embed(title="t" * 400, description="🟥" * 5000)
    for _ in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    fit_embed(embed)
    assert_within_limits(embed)
    assert embed.description.endswith("…")


def test_truncate_counts_utf16_units():
    assert truncate("abc", 3) == "abc"
    cut = truncate("🟥" * 10, 7)  # each square is 2 UTF-16 units
    assert text_len(cut) <= 7 and cut.endswith("…") and cut.startswith("🟥🟥🟥")


def test_fit_lines_drops_oldest_first():
    lines = [f"line {i}" for i in range(100)]
    text = fit_lines(lines, 50)
    assert text.endswith("line 99") and "line 0\n" not in text
    assert fit_lines(lines, 50, keep="first").startswith("line 0")
