"""The words of team play (R5, R10): team buttons, threads, the relay, table talk answers.

Also the DMs after a swap offer lapsed unanswered.

Each function takes the reader's :class:`~texts.i18n.Tr` and plain values (mentions already
formatted by the caller) and returns a string; the chat surface lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from texts.common import TEAM_NAMES
from texts.i18n import Tr
from texts.table_talk import Hit, HitKind
from texts.user_text import user_text

__all__ = [
    "hit_text",
    "not_sent_text",
    "partner_is_ai_text",
    "partner_no_dms_text",
    "relay_notice",
    "relayed_text",
    "sent_to_partner_text",
    "sent_to_thread_text",
    "shuffle_teams_label",
    "swap_lapsed_text",
    "team_button_label",
    "team_thread_intro",
    "team_thread_name",
    "thread_post_text",
]


def shuffle_teams_label(tr: Tr) -> str:
    """The host's lobby button that deals the teams anew."""
    return tr("Shuffle teams")


def team_button_label(team: int, picks: Sequence[str], tr: Tr) -> str:
    """The lobby button of team ``team`` (0: A, 1: B), naming who picked it (``picks``)."""
    name = tr(TEAM_NAMES[team])
    return tr("{team}: {members}", team=name, members=", ".join(picks)) if picks else name


def swap_lapsed_text(partner: str, time: str, tr: Tr, *, offerer: bool) -> str:
    """The DM after a swap offer lapsed unanswered (R10); ``time``: how long it stood.

    ``offerer``: the reader made the offer (else the reader was asked); ``partner``: the other.
    """
    if offerer:
        return tr(
            "Your swap offer to {partner} got no answer within {time}, so it lapsed and "
            "counts as declined. Your cards stay as they were; go on with your turn.",
            partner=partner,
            time=time,
        )
    return tr(
        "The swap offer from {partner} lapsed after {time} without your answer and "
        "counts as declined. Your cards stay as they were.",
        partner=partner,
        time=time,
    )


def relay_notice(tr: Tr) -> str:
    """The channel line when no private team threads can be opened: the bot relays by DM."""
    return tr(
        "I cannot open private threads in this channel, so team chat goes through me: use "
        "/hats team message and I pass your words to your partner by direct message. "
        "Talk freely, but never name a card's type, colour or number."
    )


def team_thread_name(game: int, team: int, tr: Tr) -> str:
    """The name of team ``team``'s private thread in game ``game``."""
    return tr("Hats #{game} · {team}", game=game, team=tr(TEAM_NAMES[team]))


def team_thread_intro(mentions: Sequence[str], team: int, tr: Tr) -> str:
    """The first post in a team thread; ``mentions``: its players (none: the team's name)."""
    return tr(
        "{members}: this private thread is your team's table talk. Talk freely about "
        "plans, but never name a card's type, colour or number. Server moderators "
        "can read private threads. This thread is archived when the game ends.",
        members=" & ".join(mentions) or tr(TEAM_NAMES[team]),
    )


def hit_text(hit: Hit, tr: Tr) -> str:
    """One caught word for the sender: ``a colour or hat type (red)`` / ``a number (5)``."""
    if hit.kind is HitKind.COLOUR:
        return tr("a hat type or colour ({word})", word=user_text(hit.text, 40))
    return tr("a card number ({word})", word=user_text(hit.text, 40))


def not_sent_text(hits: Sequence[Hit], tr: Tr) -> str:
    """The answer to team chat the table-talk guard stopped (R10), naming what it caught."""
    return tr(
        "Not sent: your message names {what}. Table talk: talk freely, but never "
        "name a card's type, colour or number. Rephrase it and send it again.",
        what=", ".join(hit_text(h, tr) for h in hits),
    )


def partner_is_ai_text(tr: Tr) -> str:
    """The answer to team chat whose partner is an AI seat."""
    return tr("Your partner is an AI player; it cannot read team chat.")


def sent_to_thread_text(tr: Tr) -> str:
    """The answer once team chat was posted in the team's thread."""
    return tr("Sent to your team thread.")


def sent_to_partner_text(partner: str, tr: Tr) -> str:
    """The answer once team chat reached ``partner`` by DM."""
    return tr("Sent to your partner {partner}.", partner=partner)


def partner_no_dms_text(tr: Tr) -> str:
    """The answer when the partner takes no DMs, so team chat could not be passed on."""
    return tr("Your partner does not accept direct messages, so I could not pass it on.")


def relayed_text(player: str, game: int, text: str, tr: Tr) -> str:
    """The partner's DM carrying ``player``'s team chat ``text`` (already quoted)."""
    return tr(
        "Team chat from your partner {player} (game #{game}): {text}",
        player=player,
        game=game,
        text=text,
    )


def thread_post_text(player: str, text: str, tr: Tr) -> str:
    """``player``'s team chat ``text`` (already quoted) as posted in the team thread."""
    return tr("{player} (team chat): {text}", player=player, text=text)
