"""What ``/hats settings`` answers: the server's language, pictures, turn timer and time zone."""

from __future__ import annotations

from texts.common import duration_text
from texts.i18n import Tr

__all__ = [
    "default_language_text",
    "language_set_text",
    "pictures_set_text",
    "timer_set_text",
    "timezone_set_text",
]


def default_language_text(tr: Tr, language_name: str) -> str:
    """The "server default" choice, naming the server's own language (``"Deutsch"``)."""
    return tr("Server default ({language})", language=language_name)


def language_set_text(tr: Tr, language_name: str, *, default: bool) -> str:
    """The answer to ``/hats settings language``: ``default`` when reset to the server's own."""
    if default:
        return tr(
            "My public messages here now follow the server's language: {language}.",
            language=language_name,
        )
    return tr("My public messages here are now in {language}.", language=language_name)


def pictures_set_text(tr: Tr, on: bool) -> str:
    """The answer to ``/hats settings pictures``."""
    if on:
        return tr("The table and the end screen here show pictures again.")
    return tr("The table and the end screen here show a compact text layout, no pictures.")


def timer_set_text(tr: Tr, seconds: float | None) -> str:
    """The answer to ``/hats settings timer``: ``seconds`` per turn, None for no timer."""
    if seconds is None:
        return tr("New lobbies here start without a turn timer.")
    return tr(
        "New lobbies here start with a turn timer of {time}.", time=duration_text(seconds, tr)
    )


def timezone_set_text(tr: Tr, zone: str, local_time: str) -> str:
    """The answer to ``/hats settings timezone``: the IANA ``zone`` and its time (``"18:05"``)."""
    return tr(
        "Tournament start times here are now read in {zone} (it is {time} there now).",
        zone=zone,
        time=local_time,
    )
