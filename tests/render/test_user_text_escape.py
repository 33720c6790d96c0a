"""The words' layer escapes user text exactly as discord.py would (it may not import it)."""

import discord.utils
from hypothesis import given
from hypothesis import strategies as st

from texts.user_text import escape_markdown, escape_mentions

MARKDOWN_ALPHABET = st.sampled_from(
    [*"abc _*~|`>#-[]()\\\n:/.<", "https://x.io/a_b", "@everyone", "@here", "@!12345678901234567"]
)


@given(st.lists(MARKDOWN_ALPHABET, max_size=30).map("".join))
def test_escape_markdown_matches_discord_py(text):
    assert escape_markdown(text) == discord.utils.escape_markdown(text)


@given(st.lists(MARKDOWN_ALPHABET, max_size=30).map("".join))
def test_escape_mentions_matches_discord_py(text):
    assert escape_mentions(text) == discord.utils.escape_mentions(text)


def test_a_name_with_markup_is_shown_as_typed():
    assert escape_markdown("**bold** _it_ ||spoiler||") == r"\*\*bold\*\* \_it\_ \|\|spoiler\|\|"
    assert escape_mentions("@everyone") == "@\u200beveryone"
