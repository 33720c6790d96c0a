"""The game state: legal actions, apply, observations, the end (R7–R21).

Modelled on OpenSpiel's game states: a :class:`Game` is built from a config (chance from its
seed) and advanced by :meth:`Game.apply`; :meth:`Game.legal_actions` lists the legal moves of a
seat; :meth:`Game.observation` gives what a seat may see; :attr:`Game.result` holds the scores.
Replaying a game's steps through a new game rebuilds it exactly (:meth:`Game.replay`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DECLINE,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
    WITHDRAW,
    Action,
    ActionKind,
    Step,
)
from engine.cards import Card, HatType
from engine.chance import ChanceSource, SeededChance
from engine.config import HAND_SIZE, TURNS_PER_SEAT, GameConfig, partner_of
from engine.cookie import cookie_holder
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
from engine.observation import Observation, PendingSwapView
from engine.scoring import GameResult, score_game
from engine.setup import Setup, deal

__all__ = ["Game", "exchange_allowed"]


def exchange_allowed(card: Card, taken: Card) -> bool:
    """R7: same type (any values), or the played value strictly higher (any types)."""
    return card.type is taken.type or card.value > taken.value


def _by_id(card: Card) -> int:
    return card.id


class Game:
    """One game of Hats in progress or finished.

    Attributes (read them, never assign): ``config``; ``setup`` (the deal, R3–R6);
    ``board`` (slot 1 first); ``hands``, ``collections`` (face up), ``black_hats`` per seat;
    ``deck`` (next card first), ``discard_pile``; ``cookie`` (R13); ``active`` (whose turn);
    ``turns_taken`` per seat; ``main_done``/``optional_used`` for the current turn;
    ``pending_offer`` (the offered card while a partner swap waits, R10); ``steps`` and
    ``events``, one each per applied step; ``result`` once over (R14–R20).
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
        self._turns: list[dict[str, Any]] = [{"seat": self.active, "steps": []}]
        self._reshuffles: list[list[Card]] = []

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
        for step in steps:
            game.apply(step.seat, step.action)
        return game

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
        return min(sum(self.turns_taken) // self.seats + 1, TURNS_PER_SEAT)

    def partner(self, seat: int) -> int | None:
        """``seat``'s partner with 4 seats (R5), else None."""
        return partner_of(seat, self.seats)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, in a stable order.

        Order: exchanges (hand order, then slot), black hats, discards or swap offers, end turn;
        while a swap offer waits: the partner's answers (hand order) then decline, the offerer's
        withdraw. Hands are kept in canonical card order. Empty for seats that cannot act.
        """
        if self.result is not None or not 0 <= seat < self.seats:
            return []
        hand = self.hands[seat]
        if self.pending_offer is not None:
            if seat == (self.active + 2) % 4:
                out: list[Action] = [ANSWERS[c.id] for c in hand]
                out.append(DECLINE)
                return out
            return [WITHDRAW] if seat == self.active else []
        if seat != self.active:
            return []
        out = []
        if not self.main_done:
            board = self.board
            for c in hand:
                row = EXCHANGES[c.id]
                ctype, cvalue = c.type, c.value
                for slot, b in enumerate(board, 1):
                    if ctype is b.type or cvalue > b.value:
                        out.append(row[slot])
            out.extend(BLACK_HATS[c.id] for c in hand)
        if not self.optional_used:
            table = OFFERS if self.seats == 4 else DISCARDS
            out.extend(table[c.id] for c in hand)
        if self.main_done:
            out.append(END_TURN)
        return out

    # ----------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> Event:
        """Apply ``action`` for ``seat`` and return what happened.

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
            event = self._apply_pending(seat, action)
        elif kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP, ActionKind.WITHDRAW_SWAP):
            raise NoPendingSwap()
        elif seat != self.active:
            raise NotYourTurn(seat, self.active)
        elif kind is ActionKind.EXCHANGE:
            event = self._exchange(seat, action.card, action.slot)  # type: ignore[union-attr]
        elif kind is ActionKind.BLACK_HAT:
            event = self._black_hat(seat, action.card)  # type: ignore[union-attr]
        elif kind is ActionKind.DISCARD:
            event = self._discard(seat, action.card)  # type: ignore[union-attr]
        elif kind is ActionKind.OFFER_SWAP:
            event = self._offer(seat, action.card)  # type: ignore[union-attr]
        else:  # END_TURN
            if not self.main_done:
                raise MainActionNeeded()
            event = Event(len(self.steps), seat, kind, cookie=self.cookie)
        self.steps.append(Step(seat, action))
        if (self.main_done and self.optional_used) or kind is ActionKind.END_TURN:
            event = self._end_turn(event)
        self.events.append(event)
        return event

    def _take_from_hand(self, seat: int, card: Card) -> None:
        hand = self.hands[seat]
        if card not in hand:
            raise CardNotInHand(card)
        hand.remove(card)

    def _check_main(self, seat: int, card: Card) -> None:
        if self.main_done:
            raise MainActionDone()
        if card not in self.hands[seat]:
            raise CardNotInHand(card)

    def _exchange(self, seat: int, card: Card, slot: int) -> Event:
        self._check_main(seat, card)
        if not 1 <= slot <= self.slots:
            raise InvalidSlot(slot, self.slots)
        taken = self.board[slot - 1]
        if not (card.type is taken.type or card.value > taken.value):
            raise IllegalExchange(card, slot, taken)
        self._take_from_hand(seat, card)
        self.board[slot - 1] = card
        self.collections[seat].append(taken)
        self.main_done = True
        self._update_cookie()
        self._record({"kind": "exchange", "card": card.code, "slot": slot, "took": taken.code})
        return Event(
            len(self.steps), seat, ActionKind.EXCHANGE, card, slot, taken, cookie=self.cookie
        )

    def _black_hat(self, seat: int, card: Card) -> Event:
        self._check_main(seat, card)
        self._take_from_hand(seat, card)
        self.black_hats[seat].append(card)
        self.main_done = True
        self._update_cookie()
        self._record({"kind": "black_hat", "card": card.code})
        return Event(len(self.steps), seat, ActionKind.BLACK_HAT, card, cookie=self.cookie)

    def _check_optional(self, seat: int, card: Card, kind: ActionKind) -> None:
        if (kind is ActionKind.DISCARD) == (self.seats == 4):
            raise NotInThisMode(kind.value, self.seats)
        if self.optional_used:
            raise OptionalActionUsed()
        if card not in self.hands[seat]:
            raise CardNotInHand(card)

    def _discard(self, seat: int, card: Card) -> Event:
        self._check_optional(seat, card, ActionKind.DISCARD)
        self._take_from_hand(seat, card)
        self.discard_pile.append(card)
        reshuffled: list[Card] | None = None
        if not self.deck:  # R9 decision: reshuffle the pile, the card just discarded included
            reshuffled = self._chance.shuffle(self.discard_pile)
            self.deck = list(reshuffled)
            self.discard_pile = []
            self._reshuffles.append(reshuffled)
        drew = self.deck.pop(0)
        hand = self.hands[seat]
        hand.append(drew)
        hand.sort(key=_by_id)
        self.optional_used = True
        self._record(
            {
                "kind": "discard",
                "card": card.code,
                "drew": drew.code,
                "reshuffled": [c.code for c in reshuffled] if reshuffled is not None else None,
            }
        )
        return Event(
            len(self.steps),
            seat,
            ActionKind.DISCARD,
            card,
            drew=drew,
            reshuffled=reshuffled is not None,
            cookie=self.cookie,
        )

    def _offer(self, seat: int, card: Card) -> Event:
        self._check_optional(seat, card, ActionKind.OFFER_SWAP)
        self.pending_offer = card
        return Event(
            len(self.steps),
            seat,
            ActionKind.OFFER_SWAP,
            card,
            partner=(seat + 2) % 4,
            cookie=self.cookie,
        )

    def _apply_pending(self, seat: int, action: Action) -> Event:
        active = self.active
        partner = (active + 2) % 4
        kind = action.kind
        offered = self.pending_offer
        assert offered is not None
        if kind is ActionKind.WITHDRAW_SWAP:
            if seat != active:
                raise NotYourTurn(seat, partner if seat == partner else active)
            self.pending_offer = None
            return Event(len(self.steps), seat, kind, partner=partner, cookie=self.cookie)
        if seat != partner:
            if seat == active:
                raise SwapPending(partner)
            raise NotYourTurn(seat, partner)
        if kind is ActionKind.DECLINE_SWAP:
            self.pending_offer = None
            return Event(len(self.steps), seat, kind, partner=active, cookie=self.cookie)
        if kind is not ActionKind.ANSWER_SWAP:
            raise NotYourTurn(seat, active)
        given: Card = action.card  # type: ignore[union-attr]
        if given not in self.hands[seat]:
            raise CardNotInHand(given)
        self.hands[active].remove(offered)
        self.hands[seat].remove(given)
        self.hands[active].append(given)
        self.hands[active].sort(key=_by_id)
        self.hands[seat].append(offered)
        self.hands[seat].sort(key=_by_id)
        self.pending_offer = None
        self.optional_used = True
        self._record(
            {"kind": "swap", "card": offered.code, "partner": seat, "received": given.code}
        )
        return Event(
            len(self.steps),
            seat,
            ActionKind.ANSWER_SWAP,
            given,
            partner=active,
            received=offered,
            cookie=self.cookie,
        )

    def _update_cookie(self) -> None:
        """R13 after a step that changed a collection."""
        self.cookie = cookie_holder(
            self.collections, [len(b) for b in self.black_hats], self.cookie
        )

    def _record(self, step: dict[str, Any]) -> None:
        self._turns[-1]["steps"].append(step)

    def _end_turn(self, event: Event) -> Event:
        """Close the turn (R11); after the last one, score the game (R14–R20)."""
        self.turns_taken[self.active] += 1
        self.main_done = False
        self.optional_used = False
        if sum(self.turns_taken) == TURNS_PER_SEAT * self.seats:
            self.result = score_game(
                self.board,
                self.collections,
                self.black_hats,
                [h[0] for h in self.hands],
                self.cookie,
                self.teams,
            )
            return replace(event, turn_ended=True, game_over=True)
        self.active = (self.active + 1) % self.seats
        self._turns.append({"seat": self.active, "steps": []})
        return replace(event, turn_ended=True)

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
        """The ``turns`` list of ``hats-record/1`` so far (effective steps only)."""
        return [{"seat": t["seat"], "steps": list(t["steps"])} for t in self._turns if t["steps"]]

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


assert HAND_SIZE == TURNS_PER_SEAT + 1  # one card is left over as the favourite (R14)
