"""The lines of the play surface around a hand: after a turn, auto end, and the one-line DMs.

Each function takes the reader's :class:`~texts.i18n.Tr` and plain values (mentions and
times already formatted by the caller) and returns one sentence; the chat surface lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card
from texts.common import card_label
from texts.i18n import Tr

__all__ = [
    "answer_in_line",
    "auto_end_next_turn_notice",
    "auto_end_notice",
    "dm_blocked_text",
    "game_over_line",
    "last_turn_line",
    "next_message_hint",
    "slash_offer_text",
    "slash_turn_text",
    "start_text",
    "swap_done_line",
    "timed_out_line",
    "turn_deadline_line",
    "turn_over_line",
]


def _cards(cards: Sequence[Card], tr: Tr) -> str:
    return ", ".join(card_label(c, tr=tr) for c in cards)


def timed_out_line(round: int, tr: Tr) -> str:
    """The head of a collapsed hand whose turn (of ``round``, R14) the AI played on timeout."""
    return tr(
        "Time ran out for your turn (round {round}), so the AI played it for you:", round=round
    )


def game_over_line(channel: str, tr: Tr, *, practice: bool) -> str:
    """The collapsed hand's line once the game is over; ``channel``: where the scores are."""
    if practice:
        return tr("Your practice game is over: the final scores and the coach's words follow.")
    return tr("The Hats game in {channel} is over: the scores are there.", channel=channel)


def last_turn_line(channel: str, tr: Tr, *, practice: bool) -> str:
    """The collapsed hand's line after the seat's last turn (R14), before the end."""
    if practice:
        return tr("That was your last turn: the final scores and the coach's words follow.")
    return tr("That was your last turn: the final scores will be in {channel}.", channel=channel)


def turn_over_line(round: int, tr: Tr) -> str:
    """The collapsed hand's line after an ordinary turn of ``round`` (R14)."""
    return tr("Your turn is over (round {round}).", round=round)


def swap_done_line(move: str, tr: Tr) -> str:
    """The line after answering a swap offer with a card (R10); ``move``: the swap in words."""
    return tr("Swap done: {move}", move=move)


def answer_in_line(tr: Tr) -> str:
    """The line after answering a swap offer when the answer is not found in the events."""
    return tr("Your answer is in.")


def next_message_hint(tr: Tr) -> str:
    """The hint under the first collapsed hand: where the next turn comes from."""
    return tr("A new message comes when it is your turn; /hats hand shows your hand any time.")


def auto_end_notice(tr: Tr, *, on: bool) -> str:
    """The notice after switching "end my turn after the main action" on or off."""
    if on:
        return tr("From now on your turn ends by itself after your main action.")
    return tr("Your turn no longer ends by itself after your main action.")


def auto_end_next_turn_notice(tr: Tr) -> str:
    """The notice when auto end was switched on mid-turn: it applies from the next turn."""
    return tr("From your next turn on, your turn ends by itself after your main action.")


def start_text(channel: str, who: str, cards: Sequence[Card], tr: Tr) -> str:
    """The start DM of a seat that does not move first: ``who`` starts, its hand ``cards``."""
    return tr(
        "The Hats game in {channel} has begun and {who} starts. Your hand: {cards}. "
        "A new message comes when it is your turn.",
        channel=channel,
        who=who,
        cards=_cards(cards, tr),
    )


def slash_offer_text(channel: str, cards: Sequence[Card], tr: Tr) -> str:
    """The one-line DM of a slash-command player whose partner offers a swap (R10)."""
    return tr(
        "Your partner offers you a card swap in {channel}: answer with /hats swap "
        "(no card to decline; /hats hand shows the buttons). Your hand: {cards}.",
        channel=channel,
        cards=_cards(cards, tr),
    )


def slash_turn_text(round: int, channel: str, cards: Sequence[Card], tr: Tr) -> str:
    """The one-line DM of a slash-command player whose turn (of ``round``) came."""
    return tr(
        "Round {round}: your turn in the Hats game in {channel}. Your hand: "
        "{cards}. (/hats hand shows the buttons.)",
        round=round,
        channel=channel,
        cards=_cards(cards, tr),
    )


def turn_deadline_line(time: str, tr: Tr) -> str:
    """The turn timer's line under a one-line turn DM; ``time``: a Discord timestamp."""
    return tr("⏱️ Play by {time}, or the AI plays this turn for you.", time=time)


def dm_blocked_text(player: str, tr: Tr) -> str:
    """The channel line for ``player`` (a mention) who gets no DMs from the bot."""
    return tr(
        "{player}, I cannot send you direct messages, so your hand stays here: press "
        "Show my hand under the table or use /hats hand. (To get DMs, allow direct "
        "messages from server members in your privacy settings.)",
        player=player,
    )
