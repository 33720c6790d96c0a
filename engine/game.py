"""The game state: legal actions, apply, observations, the end (R7–R21).

Modelled on OpenSpiel's game states: a :class:`Game` is built from a config (chance from its
seed) and advanced by :meth:`Game.apply`; :meth:`Game.legal_actions` lists the legal moves of a
seat; :meth:`Game.observation` gives what a seat may see; :attr:`Game.result` holds the scores.
Replaying a game's steps through a new game rebuilds it exactly (:meth:`Game.replay`).
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import WITHDRAW, Action, ActionKind, Step
from engine.cards import Card, HatType
from engine.chance import ChanceSource, SeededChance
from engine.config import HAND_SIZE, TURNS_PER_SEAT, GameConfig, partner_of
from engine.errors import (
    CardNotInHand,
    GameOver,
    IllegalExchange,
    InvalidSlot,
    MainActionDone,
    MainActionNeeded,
    NoPendingSwap,
    NotInThisMode,
    NotYourTurn,
    OptionalActionUsed,
    SwapPending,
    UnknownSeat,
)
from engine.events import Event
from engine.legal import active_seat_actions, answer_actions
from engine.observation import Observation, PendingSwapView
from engine.scoring import GameResult, score_game
from engine.setup import Setup, deal

__all__ = ["Game", "exchange_allowed"]

_EXCHANGE = ActionKind.EXCHANGE
_BLACK_HAT = ActionKind.BLACK_HAT
_DISCARD = ActionKind.DISCARD
_OFFER_SWAP = ActionKind.OFFER_SWAP
_ANSWER_SWAP = ActionKind.ANSWER_SWAP
_DECLINE_SWAP = ActionKind.DECLINE_SWAP
_WITHDRAW_SWAP = ActionKind.WITHDRAW_SWAP
_END_TURN = ActionKind.END_TURN
_BLACK_BIT = 1 << 7
"""Bit of the type mask standing for "has black hats" (one type for the cookie, R13)."""
_NO_MORE_VALUES = 7
"""Sentinel ending each seat's sorted face-up values: running out loses a comparison (R13)."""

# What a step's outcome holds besides seat and kind, in Event field order:
# (card, slot, took, drew, reshuffled, partner, received).
_Outcome = tuple[Card | None, int | None, Card | None, Card | None, bool, int | None, Card | None]


def exchange_allowed(card: Card, taken: Card) -> bool:
    """R7: same type (any values), or the played value strictly higher (any types)."""
    return card.type is taken.type or card.value > taken.value


def _by_id(card: Card) -> int:
    return card.id


class Game:
    """One game of Hats in progress or finished.

    Attributes (read them, never assign): ``config``; ``setup`` (the deal, R3–R6);
    ``board`` (slot 1 first); ``hands`` (canonical card order), ``collections`` (face up, in
    the order taken), ``black_hats`` per seat; ``deck`` (next card first), ``discard_pile``;
    ``cookie`` (R13); ``active`` (whose turn); ``turns_taken`` per seat;
    ``main_done``/``optional_used`` for the current turn; ``pending_offer`` (the offered card
    while a partner swap waits, R10); ``steps`` and ``events``, one each per applied step;
    ``result`` once over (R14–R20).
    """

    def __init__(self, config: GameConfig, setup: Setup, chance: ChanceSource) -> None:
        """Start from a dealt ``setup``; ``chance`` supplies reshuffles (R9)."""
        self.config = config
        self.setup = setup
        self._chance = chance
        self.seats = config.seats
        self.slots = config.slots
        self.board: list[Card] = list(setup.board)
        self.hands: list[list[Card]] = [sorted(h, key=_by_id) for h in setup.hands]
        self.collections: list[list[Card]] = [[] for _ in range(self.seats)]
        self.black_hats: list[list[Card]] = [[] for _ in range(self.seats)]
        self.deck: list[Card] = list(setup.deck)
        self.discard_pile: list[Card] = []
        self.cookie: int | None = None
        self.active = setup.start_seat
        self.turns_taken = [0] * self.seats
        self.main_done = False
        self.optional_used = False
        self.pending_offer: Card | None = None
        self.steps: list[Step] = []
        self.events: list[Event] = []
        self.result: GameResult | None = None
        # Bookkeeping for R13 (type bit masks, sorted face-up values + sentinel), R14 and
        # the record's turns (raw outcome tuples, turned into dicts by record_turns()).
        self._type_masks = [0] * self.seats
        self._values: list[list[int]] = [[_NO_MORE_VALUES] for _ in range(self.seats)]
        self._turns_done = 0
        self._turns_total = TURNS_PER_SEAT * self.seats
        self._turns: list[tuple[int, list[tuple[Any, ...]]]] = [(self.active, [])]

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, config: GameConfig) -> Game:
        """A freshly dealt game; all chance comes from ``config.seed`` (R3–R6, R9)."""
        chance = SeededChance(config.seed)
        return cls(config, deal(config, chance), chance)

    @classmethod
    def replay(cls, config: GameConfig, steps: Iterable[Step]) -> Game:
        """Rebuild a game from its config and steps; raises IllegalMove if a step is illegal."""
        game = cls.new(config)
        apply = game.apply
        for step in steps:
            apply(step.seat, step.action)
        return game

    def copy(self) -> Game:
        """An independent copy of this game, same future chance included (for searches).

        Applying moves to the copy never changes this game, and the same moves give the same
        states on both (reshuffles too, R9).
        """
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._chance = copy.deepcopy(self._chance)
        other.board = list(self.board)
        other.hands = [list(h) for h in self.hands]
        other.collections = [list(c) for c in self.collections]
        other.black_hats = [list(b) for b in self.black_hats]
        other.deck = list(self.deck)
        other.discard_pile = list(self.discard_pile)
        other.turns_taken = list(self.turns_taken)
        other.steps = list(self.steps)
        other.events = list(self.events)
        other._type_masks = list(self._type_masks)
        other._values = [list(v) for v in self._values]
        other._turns = [(seat, list(steps)) for seat, steps in self._turns]
        return other

    # ----------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """True once every seat has taken its 8 turns (R14)."""
        return self.result is not None

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """Teams with 4 seats (R5), else None."""
        return self.config.teams

    @property
    def to_move(self) -> int | None:
        """The seat that must act now: the partner while a swap offer waits; None when over."""
        if self.result is not None:
            return None
        if self.pending_offer is not None:
            return (self.active + 2) % 4
        return self.active

    @property
    def round(self) -> int:
        """The current round, 1–8 (every seat plays once a round; R14)."""
        return min(self._turns_done // self.seats + 1, TURNS_PER_SEAT)

    def partner(self, seat: int) -> int | None:
        """``seat``'s partner with 4 seats (R5), else None."""
        return partner_of(seat, self.seats)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, in a stable order (R7–R11); a new list.

        Order: exchanges (hand order, then slot), black hats, discards or swap offers, end turn;
        while a swap offer waits: the partner's answers (hand order) then decline, the offerer's
        withdraw. Hands are kept in canonical card order. Empty for seats that cannot act
        (including unknown seats) and once the game is over. Exactly the actions
        :meth:`apply` accepts for ``seat``.
        """
        if self.result is not None or not 0 <= seat < self.seats:
            return []
        if self.pending_offer is not None:
            if seat == (self.active + 2) % 4:
                return answer_actions(self.hands[seat])
            return [WITHDRAW] if seat == self.active else []
        if seat != self.active:
            return []
        return active_seat_actions(
            self.hands[seat], self.board, self.seats, self.main_done, self.optional_used
        )

    # ----------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> Event:
        """Apply ``action`` for ``seat`` and return what happened (R7–R14).

        The turn ends by itself once its main action is done and the optional action used
        (R11); the last turn ends the game and scores it (R14–R20).

        Raises an :class:`~engine.errors.IllegalMove` subclass (GameOver, UnknownSeat,
        NotYourTurn, CardNotInHand, InvalidSlot, IllegalExchange, MainActionDone,
        MainActionNeeded, OptionalActionUsed, NotInThisMode, SwapPending, NoPendingSwap) and
        changes nothing when the move is illegal.
        """
        if self.result is not None:
            raise GameOver()
        if not 0 <= seat < self.seats:
            raise UnknownSeat(seat, self.seats)
        kind = action.kind
        if self.pending_offer is not None:
            event_seat, outcome = self._apply_pending(seat, action, kind)
        else:
            if kind is _ANSWER_SWAP or kind is _DECLINE_SWAP or kind is _WITHDRAW_SWAP:
                raise NoPendingSwap()
            if seat != self.active:
                raise NotYourTurn(seat, self.active)
            event_seat = seat
            if kind is _EXCHANGE:
                outcome = self._exchange(seat, action.card, action.slot)  # type: ignore[union-attr]
            elif kind is _BLACK_HAT:
                outcome = self._black_hat(seat, action.card)  # type: ignore[union-attr]
            elif kind is _DISCARD:
                outcome = self._discard(seat, action.card)  # type: ignore[union-attr]
            elif kind is _OFFER_SWAP:
                outcome = self._offer(seat, action.card)  # type: ignore[union-attr]
            else:  # END_TURN
                if not self.main_done:
                    raise MainActionNeeded()
                outcome = (None, None, None, None, False, None, None)
        number = len(self.steps)
        self.steps.append(Step(seat, action))
        turn_ended = game_over = False
        if (self.main_done and self.optional_used) or kind is _END_TURN:
            turn_ended = True
            game_over = self._end_turn()
        event = Event(number, event_seat, kind, *outcome, self.cookie, turn_ended, game_over)
        self.events.append(event)
        return event

    def _check_main(self, seat: int, card: Card) -> None:
        if self.main_done:
            raise MainActionDone()
        if card not in self.hands[seat]:
            raise CardNotInHand(card)

    def _exchange(self, seat: int, card: Card, slot: int) -> _Outcome:
        """R7; then the cookie (R13)."""
        self._check_main(seat, card)
        if not (isinstance(slot, int) and 1 <= slot <= self.slots):
            raise InvalidSlot(slot, self.slots)
        taken = self.board[slot - 1]
        if not (card.type is taken.type or card.value > taken.value):
            raise IllegalExchange(card, slot, taken)
        self.hands[seat].remove(card)
        self.board[slot - 1] = card
        self.collections[seat].append(taken)
        self._type_masks[seat] |= 1 << (taken.id // 6)
        bisect.insort(self._values[seat], taken.value)
        self.main_done = True
        self._update_cookie()
        self._turns[-1][1].append(("exchange", card, slot, taken))
        return (card, slot, taken, None, False, None, None)

    def _black_hat(self, seat: int, card: Card) -> _Outcome:
        """R8; then the cookie (R13)."""
        self._check_main(seat, card)
        self.hands[seat].remove(card)
        self.black_hats[seat].append(card)
        self._type_masks[seat] |= _BLACK_BIT
        self.main_done = True
        self._update_cookie()
        self._turns[-1][1].append(("black_hat", card))
        return (card, None, None, None, False, None, None)

    def _check_optional(self, seat: int, card: Card, kind: ActionKind) -> None:
        if (kind is _DISCARD) == (self.seats == 4):
            raise NotInThisMode(kind.value, self.seats)
        if self.optional_used:
            raise OptionalActionUsed()
        if card not in self.hands[seat]:
            raise CardNotInHand(card)

    def _discard(self, seat: int, card: Card) -> _Outcome:
        """R9, with its decision: an empty deck is rebuilt from the whole discard pile."""
        self._check_optional(seat, card, _DISCARD)
        reshuffled: list[Card] | None = None
        if not self.deck:  # shuffle before changing anything: a scripted chance may refuse
            reshuffled = list(self._chance.shuffle([*self.discard_pile, card]))
        hand = self.hands[seat]
        hand.remove(card)
        if reshuffled is None:
            self.discard_pile.append(card)
        else:
            self.deck = list(reshuffled)
            self.discard_pile = []
        drew = self.deck.pop(0)
        bisect.insort(hand, drew, key=_by_id)
        self.optional_used = True
        self._turns[-1][1].append(("discard", card, drew, reshuffled))
        return (card, None, None, drew, reshuffled is not None, None, None)

    def _offer(self, seat: int, card: Card) -> _Outcome:
        """R10: the offer waits for the partner's answer; nothing moves yet."""
        self._check_optional(seat, card, _OFFER_SWAP)
        self.pending_offer = card
        return (card, None, None, None, False, (seat + 2) % 4, None)

    def _apply_pending(self, seat: int, action: Action, kind: ActionKind) -> tuple[int, _Outcome]:
        """R10 while an offer waits: the partner answers or declines, the offerer withdraws."""
        active = self.active
        partner = (active + 2) % 4
        offered = self.pending_offer
        assert offered is not None
        if kind is _WITHDRAW_SWAP:
            if seat != active:  # only the offerer withdraws; others wait as for any move
                raise NotYourTurn(seat, active if seat == partner else partner)
            self.pending_offer = None
            return active, (None, None, None, None, False, partner, None)
        if seat != partner:
            if seat == active:
                raise SwapPending(partner)
            raise NotYourTurn(seat, partner)
        if kind is _DECLINE_SWAP:
            self.pending_offer = None
            return partner, (None, None, None, None, False, active, None)
        if kind is not _ANSWER_SWAP:  # the partner may only answer or decline
            raise NotYourTurn(seat, active)
        given: Card = action.card  # type: ignore[union-attr]
        if given not in self.hands[partner]:
            raise CardNotInHand(given)
        offerer_hand = self.hands[active]
        partner_hand = self.hands[partner]
        offerer_hand.remove(offered)
        partner_hand.remove(given)
        bisect.insort(offerer_hand, given, key=_by_id)
        bisect.insort(partner_hand, offered, key=_by_id)
        self.pending_offer = None
        self.optional_used = True
        self._turns[-1][1].append(("swap", offered, partner, given))
        return partner, (given, None, None, None, False, active, offered)

    def _update_cookie(self) -> None:
        """R13 after a step that changed a collection (same answer as ``cookie_holder``)."""
        best = 0
        tied: list[int] = []
        for seat, mask in enumerate(self._type_masks):
            n = mask.bit_count()
            if n > best:
                best = n
                tied = [seat]
            elif n == best and n:
                tied.append(seat)
        if len(tied) <= 1:
            self.cookie = tied[0] if tied else None
            return
        values = self._values
        low = min(values[s] for s in tied)
        tied = [s for s in tied if values[s] == low]
        if len(tied) == 1:
            self.cookie = tied[0]
        elif self.cookie not in tied:
            self.cookie = None

    def _end_turn(self) -> bool:
        """Close the turn (R11); after the last one, score the game (R14–R20).

        Returns True when the game is over.
        """
        self.turns_taken[self.active] += 1
        self._turns_done += 1
        self.main_done = False
        self.optional_used = False
        if self._turns_done == self._turns_total:
            self.result = score_game(
                self.board,
                self.collections,
                self.black_hats,
                [h[0] for h in self.hands],
                self.cookie,
                self.teams,
            )
            return True
        self.active = (self.active + 1) % self.seats
        self._turns.append((self.active, []))
        return False

    # ----------------------------------------------------------------- views
    def observation(self, viewer: int | None) -> Observation:
        """What ``viewer`` may see (a seat, or None for the public view).

        Raises UnknownSeat for a seat outside the game. Never holds another seat's hand, black
        hat faces, discards, draws or swapped cards ("Who may see what"); after the end,
        ``result`` reveals what R21 reveals.
        """
        if viewer is not None and not 0 <= viewer < self.seats:
            raise UnknownSeat(viewer, self.seats)
        pending = None
        if self.pending_offer is not None:
            pending = PendingSwapView(
                self.active,
                (self.active + 2) % 4,
                self.pending_offer if viewer == self.active else None,
            )
        return Observation(
            viewer=viewer,
            seats=self.seats,
            teams=self.teams,
            types=self.setup.types,
            board=tuple(self.board),
            hand=tuple(self.hands[viewer]) if viewer is not None else None,
            own_black_hats=tuple(self.black_hats[viewer]) if viewer is not None else None,
            hand_sizes=tuple(len(h) for h in self.hands),
            collections=tuple(tuple(c) for c in self.collections),
            black_hat_counts=tuple(len(b) for b in self.black_hats),
            deck_size=len(self.deck),
            discard_size=len(self.discard_pile),
            cookie=self.cookie,
            active_seat=self.active,
            to_move=self.to_move,
            round=self.round,
            turns_taken=tuple(self.turns_taken),
            main_done=self.main_done,
            optional_used=self.optional_used,
            pending_swap=pending,
            events=tuple(e.seen_by(viewer) for e in self.events),
            result=self.result,
        )

    def public_view(self) -> Observation:
        """The public observation, for the table and spectators."""
        return self.observation(None)

    # ----------------------------------------------------------------- records
    def record_turns(self) -> list[dict[str, Any]]:
        """The ``turns`` list of ``hats-record/1`` so far: completed effective steps only.

        Swap offers that were declined or withdrawn are not steps of the record (R10); a turn
        appears once it has a step. A fresh list of fresh dicts on every call.
        """
        return [
            {"seat": seat, "steps": [_step_dict(raw) for raw in steps]}
            for seat, steps in self._turns
            if steps
        ]

    def types_in_play(self) -> tuple[HatType, ...]:
        """Hat types in play (R3)."""
        return self.setup.types

    def snapshot(self) -> dict[str, Any]:
        """A comparable summary of the whole state (tests, replay checks)."""
        codes = _codes
        return {
            "board": codes(self.board),
            "hands": [codes(h) for h in self.hands],
            "collections": [codes(c) for c in self.collections],
            "black_hats": [codes(b) for b in self.black_hats],
            "deck": codes(self.deck),
            "discard_pile": codes(self.discard_pile),
            "cookie": self.cookie,
            "active": self.active,
            "turns_taken": list(self.turns_taken),
            "main_done": self.main_done,
            "optional_used": self.optional_used,
            "pending_offer": self.pending_offer.code if self.pending_offer else None,
            "result": self.result.to_record() if self.result else None,
        }


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _step_dict(raw: tuple[Any, ...]) -> dict[str, Any]:
    """A record step (docs/GAME_RECORD.md) from the raw tuple kept during play."""
    kind = raw[0]
    if kind == "exchange":
        return {"kind": kind, "card": raw[1].code, "slot": raw[2], "took": raw[3].code}
    if kind == "black_hat":
        return {"kind": kind, "card": raw[1].code}
    if kind == "discard":
        reshuffled = raw[3]
        return {
            "kind": kind,
            "card": raw[1].code,
            "drew": raw[2].code,
            "reshuffled": _codes(reshuffled) if reshuffled is not None else None,
        }
    return {"kind": kind, "card": raw[1].code, "partner": raw[2], "received": raw[3].code}


assert HAND_SIZE == TURNS_PER_SEAT + 1  # one card is left over as the favourite (R14)
