"""Pure renderers: engine observations in, texts (for Components V2 layouts) out.

No I/O and no interaction objects: every function takes an observation (or an error, or a
lobby description) and a :class:`cogs.i18n.Tr`, and every text a user reads goes through
that ``Tr``. What each renderer may show follows "Who may see what" of docs/RULES.md: the
table's and the end's texts take the public observation, the hand's texts a seat's own one.
Everything is kept within Discord's limits (see :mod:`cogs.render.limits`).

Modules: ``common`` (seat labels, card text), ``events`` (events in words), ``table``,
``hand``, ``lobby``, ``end``, ``rules``, ``errors`` (illegal moves), ``limits``.
"""

from cogs.render.common import SeatLabel, card_label, card_short, card_token, type_name
from cogs.render.errors import illegal_move_text
from cogs.render.events import describe_event
from cogs.render.lobby import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo, lobby_texts
from cogs.render.rules import rules_views

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
    "rules_views",
    "type_name",
]
