"""Pure renderers: engine observations in, texts (for Components V2 layouts) out.

No I/O and no interaction objects: every function takes an observation (or an error, or a
lobby description) and a :class:`texts.i18n.Tr`, and every text a user reads goes through
that ``Tr``. What each renderer may show follows "Who may see what" of docs/RULES.md: the
table's and the end's texts take the public observation, the hand's texts a seat's own one.
Everything is kept within Discord's limits (see :mod:`texts.limits`).

Modules: ``common`` (seat labels, card text), ``events`` (events in words), ``table``,
``hand``, ``lobby``, ``end``, ``rules``, ``errors`` (illegal moves), ``limits``.
"""

from texts.common import SeatLabel, card_label, card_short, card_token, type_name
from texts.errors import illegal_move_text
from texts.events import describe_event
from texts.lobby import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo, lobby_texts

__all__ = [
    "SWAP_TIMEOUT",
    "TURN_TIMER",
    "LobbyInfo",
    "SeatLabel",
    "card_label",
    "card_short",
    "card_token",
    "describe_event",
    "illegal_move_text",
    "lobby_texts",
    "type_name",
]
