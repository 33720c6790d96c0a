"""The rules of Hats, pure and deterministic: no I/O, no Discord, no global random.

A game is its config (seats, seed) plus its list of steps; replaying them rebuilds it.
See ``docs/RULES.md`` for the rule ids (R1–R21) cited throughout.
"""

from engine.actions import (
    Action,
    ActionKind,
    AnswerSwap,
    BlackHat,
    DeclineSwap,
    Discard,
    EndTurn,
    Exchange,
    OfferSwap,
    Step,
    WithdrawSwap,
    action_from_dict,
)
from engine.cards import (
    ALL_CARDS,
    BLACK_HAT_EMOJI,
    Card,
    CardParseError,
    HatType,
    card_from_code,
    parse_card,
)
from engine.config import TURNS_PER_SEAT, GameConfig, partner_of, teams_for
from engine.errors import IllegalMove, RecordMismatch
from engine.events import Event
from engine.game import Game, exchange_allowed
from engine.legal import legal_actions_for
from engine.observation import Observation, PendingSwapView
from engine.policies import RandomPolicy, play_out
from engine.record import from_record, to_record
from engine.scoring import GameResult, ScoreBreakdown, TieBreak, standings

__all__ = [
    "ALL_CARDS",
    "BLACK_HAT_EMOJI",
    "TURNS_PER_SEAT",
    "Action",
    "ActionKind",
    "AnswerSwap",
    "BlackHat",
    "Card",
    "CardParseError",
    "DeclineSwap",
    "Discard",
    "EndTurn",
    "Event",
    "Exchange",
    "Game",
    "GameConfig",
    "GameResult",
    "HatType",
    "IllegalMove",
    "Observation",
    "OfferSwap",
    "PendingSwapView",
    "RandomPolicy",
    "RecordMismatch",
    "ScoreBreakdown",
    "Step",
    "TieBreak",
    "WithdrawSwap",
    "action_from_dict",
    "card_from_code",
    "exchange_allowed",
    "from_record",
    "legal_actions_for",
    "parse_card",
    "partner_of",
    "play_out",
    "standings",
    "teams_for",
    "to_record",
]
