"""The lobby message: who has joined, the open places, teams and the settings."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from data.game_flags import HINTS
from service.deadlines import SWAP_TIMEOUT, TURN_TIMER
from texts.coach import hints_line
from texts.common import (
    TEAM_NAMES,
    SeatLabel,
    ai_level_name,
    duration_text,
    seat_label,
)
from texts.i18n import Tr
from texts.limits import V2_TEXT_MAX, truncate

__all__ = [
    "SWAP_TIMEOUT",
    "TURN_TIMER",
    "V2_TEXT_MAX",
    "AiSeatTexts",
    "LobbyAnswer",
    "LobbyInfo",
    "ai_seat_texts",
    "lobby_answer_text",
    "lobby_button_labels",
    "lobby_cancelled_text",
    "lobby_expired_text",
    "lobby_started_text",
    "lobby_texts",
]


HOST_MARK = "👑"
WARNING = "⚠️"


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """A lobby as shown to the channel.

    ``host_id``: the Discord user who opened it. ``seats``: who has joined, in seat order
    (AI seats have ``user_id`` None). ``max_seats``/``min_seats``: 4 and 2 (R3).
    ``settings``: :data:`TURN_TIMER` and :data:`SWAP_TIMEOUT` in seconds (None: no limit);
    any other key is listed as it is. ``teams``: with 4 seats, the ``SeatLabel.seat`` numbers
    of team A and team B (default: lobby seats 0+2 against 1+3, partners opposite, R5).
    ``status``: an optional line the caller has already translated (e.g. "Starting…").
    ``lobby_id``: shown in the footer when given. ``closed``: the lobby is over (started,
    cancelled, expired): only ``status`` and the players are shown, nothing that would be
    stale (open places, settings, teams).
    """

    host_id: int
    seats: tuple[SeatLabel, ...]
    max_seats: int = 4
    min_seats: int = 2
    settings: Mapping[str, object] = field(default_factory=dict)
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    status: str | None = None
    lobby_id: int | None = None
    closed: bool = False


def _player_line(label: SeatLabel, host_id: int, tr: Tr) -> str:
    text = label.mention()
    if label.user_id is not None and label.user_id == host_id:
        text = f"{text} {HOST_MARK}"
    if label.is_ai:  # the mention already starts with 🤖
        text = tr(
            "{player} · {level}",
            player=text,
            level=ai_level_name(label.ai_level or "normal", tr),
        )
    return text


def _setting_lines(settings: Mapping[str, object], seats: int, tr: Tr) -> list[str]:
    lines = []
    timer = settings.get(TURN_TIMER)
    if isinstance(timer, int | float) and timer > 0:
        lines.append(tr("Turn timer: {time}", time=duration_text(timer, tr)))
    else:
        lines.append(tr("Turn timer: none"))
    swap = settings.get(SWAP_TIMEOUT)
    if isinstance(swap, int | float) and swap > 0 and seats == 4:  # four joined: said
        lines.append(tr("Time to answer a partner swap: {time}", time=duration_text(swap, tr)))
    elif isinstance(swap, int | float) and swap > 0:
        lines.append(
            tr(
                "Time to answer a partner swap (4 players): {time}",
                time=duration_text(swap, tr),
            )
        )
    elif seats == 4:
        lines.append(tr("Time to answer a partner swap: no limit"))
    hints = hints_line(settings, tr)
    if hints is not None:
        lines.append(hints)
    for key, value in settings.items():
        if key not in (TURN_TIMER, SWAP_TIMEOUT, HINTS):
            lines.append(f"`{key}`: {value}")
    return lines


def lobby_texts(lobby: LobbyInfo, tr: Tr) -> list[str]:
    """The open lobby's text blocks for its Components V2 message, in order.

    The title, host and what is still needed to start; the numbered places (🤖 AI with
    level, open places), or with 4 seats the players by team instead (partners opposite, R5:
    each player named once), the time to answer a partner swap and the note that moderators
    can read the teams' private threads. The turn timer is the lobby's timer menu's own (its
    chosen option), so it is not said again here.
    """
    count = len(lobby.seats)
    title = tr("Hats: a new game is forming")  # (a call inside an f-string is not extracted)
    lines = [f"**{title}**"]
    lines.append(tr("Hosted by {host}.", host=f"<@{lobby.host_id}>"))
    if lobby.status:
        lines.append(lobby.status)
    if count < lobby.min_seats:
        lines.append(
            tr.plural(
                "Waiting for {n} more player to start.",
                "Waiting for {n} more players to start.",
                lobby.min_seats - count,
            )
        )
    elif count < lobby.max_seats:
        lines.append(
            tr.plural(
                "Ready to start; {n} place is still open.",
                "Ready to start; {n} places are still open.",
                lobby.max_seats - count,
            )
        )
    else:
        lines.append(tr("The table is full."))
    blocks = [f"{lines[0]}\n{' '.join(lines[1:])}"]  # the host and the state: one line
    teams = lobby.teams
    if teams is None and count == 4:
        by_pos = [label.seat for label in lobby.seats]
        teams = ((by_pos[0], by_pos[2]), (by_pos[1], by_pos[3]))
    if teams is not None:  # 4 seats: each player once, by team (R5; issue 29)
        heading = tr("Teams (partners sit opposite)")
        lines = [f"**{heading}**"]
        for index, team in enumerate(teams[:2]):
            members = [seat_label(lobby.seats, s) for s in team]
            shown = " & ".join(
                _player_line(label, lobby.host_id, tr) for label in members if label is not None
            )
            lines.append(tr("{team}: {members}", team=tr(TEAM_NAMES[index]), members=shown))
        blocks.append("\n".join(lines))
    else:
        players = [
            f"{i}. {_player_line(label, lobby.host_id, tr)}"
            for i, label in enumerate(lobby.seats, start=1)
        ]
        open_place = tr("open place")  # (a call inside an f-string is not extracted)
        players += [f"{i}. *{open_place}*" for i in range(count + 1, lobby.max_seats + 1)]
        blocks.append("\n".join(players))
    small = [s for s in _setting_lines(lobby.settings, count, tr) if not s.startswith(_timer(tr))]
    if count >= 4:
        small.append(tr("{mark} Moderators can read the teams' private threads.", mark=WARNING))
    if small:
        blocks.append("\n".join(f"-# {s}" for s in small))
    # Components V2: at most 4,000 characters of text in a whole message
    return [truncate(block, V2_TEXT_MAX // len(blocks)) for block in blocks]


def _timer(tr: Tr) -> str:
    """The start of the turn timer setting line (``Turn timer:``), in ``tr``'s language."""
    return tr("Turn timer: none").split(":", 1)[0]


@dataclass(frozen=True, slots=True)
class AiSeatTexts:
    """The lobby's AI controls and their answers, in one language.

    ``levels``: an option label per AI level value (``"easy"``... ``"expert"``).
    """

    remove: str
    add_placeholder: str
    levels: Mapping[str, str]
    joined: str
    left: str


def ai_seat_texts(tr: Tr) -> AiSeatTexts:
    """The words of the lobby's Add AI select and Remove AI button (and what they answer)."""
    return AiSeatTexts(
        remove=tr("Remove AI"),
        add_placeholder=tr("Add an AI player (choose its level)"),
        levels={
            "easy": tr("AI: easy"),
            "normal": tr("AI: normal"),
            "hard": tr("AI: hard"),
            "expert": tr("AI: expert"),
        },
        joined=tr("An AI player joined the lobby."),
        left=tr("The AI player left the lobby."),
    )


def lobby_button_labels(tr: Tr) -> dict[str, str]:
    """The lobby's buttons: ``"join"``, ``"leave"``, ``"start"``, ``"cancel"``."""
    return {
        "join": tr("Join"),
        "leave": tr("Leave"),
        "start": tr("Start"),
        "cancel": tr("Cancel"),
    }


def lobby_started_text(tr: Tr, game: int) -> str:
    """The one line a lobby keeps once its game ``game`` has started."""
    return tr("🎩 Game #{game} has started: follow it on the table below.", game=game)


def lobby_cancelled_text(tr: Tr) -> str:
    """The one line a lobby keeps once its host cancelled it."""
    return tr("This lobby was cancelled.")


def lobby_expired_text(tr: Tr) -> str:
    """The one line a lobby keeps once it expired unstarted (the bot's lobby expiry)."""
    return tr("This lobby expired: nobody started it in time.")


class LobbyAnswer(enum.Enum):
    """What the lobby says back to a press or a change (each has its sentence)."""

    CLOSED = "closed"
    EVERYONE_LEFT = "everyone_left"
    JOINED = "joined"
    LEFT = "left"
    STARTED = "started"
    CANCELLED = "cancelled"


def lobby_answer_text(tr: Tr, answer: LobbyAnswer) -> str:
    """The sentence of a :class:`LobbyAnswer`."""
    return {
        LobbyAnswer.CLOSED: lambda: tr("This lobby is closed."),
        LobbyAnswer.EVERYONE_LEFT: lambda: tr("The lobby closed: everyone left."),
        LobbyAnswer.JOINED: lambda: tr("You joined the lobby."),
        LobbyAnswer.LEFT: lambda: tr("You left the lobby."),
        LobbyAnswer.STARTED: lambda: tr("The game has started."),
        LobbyAnswer.CANCELLED: lambda: tr("The lobby is cancelled."),
    }[answer]()
