"""Persistent buttons and selects (discord.py ``DynamicItem``) and the views built from them.

Every control carries what it needs in its ``custom_id`` (game id, state version, card, slot),
so it keeps working after a restart. Callbacks hold no rules: they hand the parsed control to
the cog that owns the feature (``PlayCog``, ``LobbyCog``, ``TableCog``), which asks the engine.

custom_id formats (<= 100 characters, Discord's limit):
- hand actions:  ``hats:h:<game>:<version>:<op>[:<card>[:<slot>]]``
- hand card select: ``hats:hs:<game>:<version>``
- lobby:         ``hats:l:<lobby>:<op>``
- table:         ``hats:t:<game>:<op>``
- preference "end my turn after the main action": ``hats:p:<game>:<0|1>`` (the value to set)

Ids in a custom_id are bounded (issues 19.3, 29.3): every control reads its custom_id with
:func:`cogs.custom_ids.fields` and its template is checked when its class is defined (at most
19 digits, :data:`ID`); one over the store's int64 range reads as 0, which names no row, so it
is answered like any stale control (:mod:`cogs.custom_ids`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.custom_ids import ID, bounded_id, choice, fields
from cogs.errors import GuardedItem
from engine import Action, ActionKind, Card, card_from_code
from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DECLINE,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
    WITHDRAW,
)
from engine.cards import CardParseError
from texts.common import SLOT_KEYCAPS, card_token
from texts.controls import action_label, auto_end_label, card_select_placeholder

if TYPE_CHECKING:
    from texts.i18n import Tr

__all__ = [
    "HAND_OP_OF_KIND",
    "ID",
    "AutoEndButton",
    "CardSelect",
    "HandButton",
    "HandOp",
    "LobbyButton",
    "LobbyOp",
    "TableButton",
    "TableOp",
    "action_custom_id",
    "bounded_id",
    "card_select_custom_id",
    "choice",
    "hand_custom_id",
    "hand_rows",
]


class HandOp(enum.StrEnum):
    """Hand controls; the letter is the ``op`` field of the custom_id."""

    EXCHANGE = "x"
    BLACK_HAT = "b"
    DISCARD = "d"
    OFFER = "o"
    ANSWER = "a"
    DECLINE = "n"
    WITHDRAW = "w"
    END_TURN = "e"
    REFRESH = "r"


HAND_OP_OF_KIND: dict[ActionKind, HandOp] = {
    ActionKind.EXCHANGE: HandOp.EXCHANGE,
    ActionKind.BLACK_HAT: HandOp.BLACK_HAT,
    ActionKind.DISCARD: HandOp.DISCARD,
    ActionKind.OFFER_SWAP: HandOp.OFFER,
    ActionKind.ANSWER_SWAP: HandOp.ANSWER,
    ActionKind.DECLINE_SWAP: HandOp.DECLINE,
    ActionKind.WITHDRAW_SWAP: HandOp.WITHDRAW,
    ActionKind.END_TURN: HandOp.END_TURN,
}


@dataclass(frozen=True, slots=True)
class HandCommand:
    """A parsed hand control: game id, state version (steps applied), op, card, slot."""

    game: int
    version: int
    op: HandOp
    card: Card | None = None
    slot: int | None = None

    def action(self) -> Action | None:
        """The engine action this control stands for, or None (refresh)."""
        c = self.card
        match self.op:
            case HandOp.EXCHANGE if c is not None and self.slot is not None:
                return EXCHANGES[c.id][self.slot]
            case HandOp.BLACK_HAT if c is not None:
                return BLACK_HATS[c.id]
            case HandOp.DISCARD if c is not None:
                return DISCARDS[c.id]
            case HandOp.OFFER if c is not None:
                return OFFERS[c.id]
            case HandOp.ANSWER if c is not None:
                return ANSWERS[c.id]
            case HandOp.DECLINE:
                return DECLINE
            case HandOp.WITHDRAW:
                return WITHDRAW
            case HandOp.END_TURN:
                return END_TURN
        return None


def hand_custom_id(
    game: int, version: int, op: HandOp, card: Card | None = None, slot: int | None = None
) -> str:
    """The custom_id of a hand control (see the module docstring)."""
    parts = ["hats", "h", str(game), str(version), op.value]
    if card is not None:
        parts.append(card.code)
        if slot is not None:
            parts.append(str(slot))
    return ":".join(parts)


def action_custom_id(game: int, version: int, action: Action) -> str:
    """The custom_id of the hand button that applies ``action`` at state ``version``."""
    return hand_custom_id(
        game,
        version,
        HAND_OP_OF_KIND[action.kind],
        getattr(action, "card", None),
        getattr(action, "slot", None),
    )


def card_select_custom_id(game: int, version: int) -> str:
    """The custom_id of a hand message's card select at state ``version``."""
    return f"hats:hs:{game}:{version}"


def _play_cog(interaction: discord.Interaction) -> Any:
    return interaction.client.get_cog("PlayCog")  # type: ignore[attr-defined]


class HandButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:h:(?P<game>{ID}):(?P<ver>\d{{1,9}}):(?P<op>{choice(HandOp)})"
    r"(?::(?P<card>[a-z]{1,8}[1-6]))?(?::(?P<slot>[1-6]))?",
):
    """One hand action button (exchange onto a slot, black hat, discard, swap, end turn...)."""

    def __init__(self, command: HandCommand, button: discord.ui.Button | None = None) -> None:
        super().__init__(
            button
            or discord.ui.Button(
                custom_id=hand_custom_id(
                    command.game, command.version, command.op, command.card, command.slot
                )
            )
        )
        self.command = command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> HandButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        f = fields(match)
        try:
            card = card_from_code(f["card"]) if f["card"] else None
        except CardParseError:
            card = None
        command = HandCommand(f["game"], f["ver"], HandOp(f["op"]), card, f["slot"])
        return cls(command, item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the command to PlayCog."""
        await _play_cog(interaction).on_hand_command(interaction, self.command)


class CardSelect(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"hats:hs:(?P<game>{ID}):(?P<ver>\d{{1,9}})",
):
    """The "choose a card" select of a hand message."""

    def __init__(self, game: int, version: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=card_select_custom_id(game, version))
        )
        self.game = game
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> CardSelect:
        """Rebuild the select from its custom_id."""
        f = fields(match)
        return cls(f["game"], f["ver"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the actions of the chosen card (PlayCog)."""
        values = self.item.values
        await _play_cog(interaction).on_card_selected(
            interaction, self.game, self.version, values[0] if values else None
        )


class AutoEndButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:p:(?P<game>{ID}):(?P<on>[01])",
):
    """Turns the player's "end my turn after the main action" preference on or off."""

    def __init__(self, game: int, on: bool, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=f"hats:p:{game}:{int(on)}"))
        self.game = game
        self.on = on

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> AutoEndButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["game"], f["on"] == 1, item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to PlayCog."""
        await _play_cog(interaction).on_auto_end(interaction, self.game, self.on)


class LobbyOp(enum.StrEnum):
    """Lobby buttons."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    TEAM_A = "teama"
    TEAM_B = "teamb"
    SHUFFLE = "shuffle"
    ADD_AI = "addai"
    REMOVE_AI = "rmai"
    HINTS = "hints"


class LobbyButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:l:(?P<lobby>{ID}):(?P<op>{choice(LobbyOp)})",
):
    """A lobby button: join, leave, start, cancel, team picks, AI seats."""

    def __init__(self, lobby: int, op: LobbyOp, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=f"hats:l:{lobby}:{op.value}"))
        self.lobby = lobby
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> LobbyButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["lobby"], LobbyOp(f["op"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to LobbyCog."""
        cog: Any = interaction.client.get_cog("LobbyCog")  # type: ignore[attr-defined]
        await cog.on_lobby_button(interaction, self.lobby, self.op)


class TableOp(enum.StrEnum):
    """Buttons under the public table and the final message."""

    HAND = "hand"
    RULES = "rules"
    REMATCH = "rematch"


class TableButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:t:(?P<game>{ID}):(?P<op>{choice(TableOp)})",
):
    """Show my hand / Rules under the table, Rematch under the final scores."""

    def __init__(self, game: int, op: TableOp, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=f"hats:t:{game}:{op.value}"))
        self.game = game
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> TableButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["game"], TableOp(f["op"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to TableCog."""
        cog: Any = interaction.client.get_cog("TableCog")  # type: ignore[attr-defined]
        await cog.on_table_button(interaction, self.game, self.op)


def _button(item: discord.ui.DynamicItem[Any], label: str, style: discord.ButtonStyle):
    item.item.label = label
    item.item.style = style
    return item


BUTTONS_PER_ROW = 5
"""Discord's limit of buttons in one action row; a phone wraps them to its width."""


def hand_rows(
    game: int,
    version: int,
    hand: Sequence[Card],
    legal: Sequence[Action],
    board: Sequence[Card],
    tr: Tr,
    *,
    selected: Card | None = None,
    card_label: Any = None,
    auto_end: bool | None = None,
) -> list[discord.ui.ActionRow]:
    """The controls of a hand message as Components V2 action rows: only legal actions.

    ``legal`` is the engine's list of legal actions for the seat (nothing here decides what is
    legal); ``board`` gives the cards shown on the exchange buttons. Rows: the card select
    (cards that have an action), then for the ``selected`` card its legal exchanges (up to
    :data:`BUTTONS_PER_ROW` a row, packed: the slot's keycap and the card it takes, "1️⃣ 🟨⁠4"),
    its other legal actions (black hat, discard or swap offer, the answer to an offer), then
    end turn / decline / withdraw and, with ``auto_end`` not None, the toggle of the "end my
    turn after the main action" preference (``auto_end`` is its current value). Every button
    is enabled and in colour: what is not allowed is not a button (issue 18).
    """
    rows: list[discord.ui.ActionRow] = []
    kinds = {a.kind for a in legal}
    card_actions = {a.card for a in legal if hasattr(a, "card")}
    if card_actions:
        select = CardSelect(game, version)
        select.item.placeholder = card_select_placeholder(
            tr, answering_swap=ActionKind.ANSWER_SWAP in kinds
        )
        for card in hand:
            if card in card_actions:
                select.item.add_option(
                    label=card_label(card) if card_label else card.code,
                    value=card.code,
                    default=card is selected,
                )
        rows.append(discord.ui.ActionRow(select))
    if selected is not None:
        mine = [a for a in legal if getattr(a, "card", None) is selected]
        buttons = []
        for a in mine:  # exchanges first (slot order), then the card's other actions
            if a.kind is ActionKind.EXCHANGE:
                slot = a.slot  # type: ignore[union-attr]
                cmd = HandCommand(game, version, HandOp.EXCHANGE, selected, slot)
                # grey, not blurple: 🟪 and 🟦 fade on blurple (issue 29)
                button = _button(
                    HandButton(cmd), card_token(board[slot - 1]), discord.ButtonStyle.secondary
                )
                button.item.emoji = SLOT_KEYCAPS[slot - 1]  # "1️⃣ 🟨⁠4": take slot 1's card
                buttons.append((0, button))
                continue
            label = action_label(tr, a.kind)
            style = {
                ActionKind.BLACK_HAT: discord.ButtonStyle.primary,
                ActionKind.DISCARD: discord.ButtonStyle.primary,
                ActionKind.OFFER_SWAP: discord.ButtonStyle.primary,
                ActionKind.ANSWER_SWAP: discord.ButtonStyle.success,
            }[a.kind]
            cmd = HandCommand(game, version, HAND_OP_OF_KIND[a.kind], selected)
            buttons.append((1, _button(HandButton(cmd), label, style)))
        buttons.sort(key=lambda pair: pair[0])
        for i in range(0, len(buttons), BUTTONS_PER_ROW):
            rows.append(discord.ui.ActionRow(*(b for _, b in buttons[i : i + BUTTONS_PER_ROW])))
    last = discord.ui.ActionRow()
    for a in legal:
        if a.kind is ActionKind.END_TURN:
            style = discord.ButtonStyle.success
        elif a.kind in (ActionKind.DECLINE_SWAP, ActionKind.WITHDRAW_SWAP):
            style = discord.ButtonStyle.danger
        else:
            continue
        label = action_label(tr, a.kind)
        cmd = HandCommand(game, version, HAND_OP_OF_KIND[a.kind])
        last.add_item(_button(HandButton(cmd), label, style))
    if auto_end is not None:
        label = auto_end_label(tr, auto_end)
        toggle = _button(AutoEndButton(game, not auto_end), label, discord.ButtonStyle.secondary)
        toggle.item.emoji = "⏭️"
        last.add_item(toggle)
    if last.children:
        rows.append(last)
    return rows
