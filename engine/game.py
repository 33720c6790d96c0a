"""The game state: legal actions, apply, observations, the end (R7–R21).

Modelled on OpenSpiel's game states: a :class:`Game` is built from a config (chance from its
seed) and advanced by :meth:`Game.apply`; :meth:`Game.legal_actions` lists the legal moves of a
seat; :meth:`Game.observation` gives what a seat may see; :attr:`Game.result` holds the scores.
Replaying a game's steps through a new game rebuilds it exactly (:meth:`Game.replay`).

A game keeps its cards as card ids in ``bytearray``s and its steps and events as one event log
of 8-byte records (:mod:`engine.compact`), which Python's cyclic garbage collector does not
track: a process caching thousands of live games keeps full collections short (issue 21).
"""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Iterable
from typing import Any

from engine.actions import WITHDRAW, Action, ActionKind, Step
from engine.cards import ALL_CARDS, Card, HatType
from engine.chance import ChanceSource, SeededChance
from engine.compact import (
    CARD_OF,
    CODE_OF,
    KIND_INDEX,
    NONE,
    RECORD,
    RECORD_SIZE,
    SEAT_OF,
    card_ids,
    card_list,
    card_tuple,
    events_of,
    events_seen_by,
    interned_types,
    steps_of,
)
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
from engine.events import Event, make_event
from engine.legal import CAN_TAKE, active_seat_actions_by_id, answer_actions_by_id
from engine.observation import Observation, PendingSwapView
from engine.scoring import GameResult, score_game
from engine.setup import Setup, deal, seeded_chance_after

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
_VALUE_OF = bytes(c.value for c in ALL_CARDS)
_pack = RECORD.pack
_KIND_EXCHANGE = KIND_INDEX[_EXCHANGE]
_KIND_BLACK_HAT = KIND_INDEX[_BLACK_HAT]
_KIND_DISCARD = KIND_INDEX[_DISCARD]
_KIND_ANSWER_SWAP = KIND_INDEX[_ANSWER_SWAP]
_TURN_ENDED = 1 << 6
_RESHUFFLED = 1 << 5

# What a step's outcome holds besides seat and kind, in Event field order, as record bytes
# (card ids, NONE for none; slot 0 for none): (card, slot, took, drew, reshuffled, partner,
# received).
_Outcome = tuple[int, int, int, int, bool, int, int]
_NO_OUTCOME: _Outcome = (NONE, 0, NONE, NONE, False, NONE, NONE)
_MAX_RESHUFFLES = 2
"""Reshuffles a game can have (R4, R9): 16 or 24 turns, one every 8 or 10 discards."""


def exchange_allowed(card: Card, taken: Card) -> bool:
    """R7: same type (any values), or the played value strictly higher (any types)."""
    return card.type is taken.type or card.value > taken.value


class Game:
    """One game of Hats in progress or finished.

    Attributes (read them, never assign): ``config``; ``setup`` (the deal, R3–R6);
    ``board`` (slot 1 first); ``hands`` (canonical card order), ``collections`` (face up, in
    the order taken), ``black_hats`` per seat; ``deck`` (next card first), ``discard_pile``;
    ``cookie`` (R13); ``active`` (whose turn); ``turns_taken`` per seat;
    ``main_done``/``optional_used`` for the current turn; ``pending_offer`` (the offered card
    while a partner swap waits, R10); ``steps`` and ``events``, one each per applied step;
    ``result`` once over (R14–R20).

    ``setup``, the card lists, ``turns_taken``, ``steps`` and ``events`` are built from the
    game's compact state on each access (new lists; ``steps`` holds shared Step objects):
    keep what you read rather than reading it again in a loop. ``step_count`` is
    ``len(steps)`` without building the list.
    """

    __slots__ = (
        "_black_hats",
        "_board",
        "_chance",
        "_collections",
        "_deck",
        "_hands",
        "_log",
        "_orders",
        "_pile",
        "_reshuffles",
        "_setup",
        "_turns_done",
        "_turns_taken",
        "_turns_total",
        "_type_masks",
        "_types",
        "_values",
        "active",
        "config",
        "cookie",
        "main_done",
        "optional_used",
        "pending_offer",
        "result",
        "seats",
        "slots",
    )

    def __init__(self, config: GameConfig, setup: Setup, chance: ChanceSource) -> None:
        """Start from a dealt ``setup``; ``chance`` supplies reshuffles (R9)."""
        self.config = config
        self._chance: ChanceSource | None = chance
        """None: ``Game.new``'s seeded chance, its reshuffle orders drawn ahead in _orders."""
        self._orders: tuple[bytes, ...] = ()
        seats = self.seats = config.seats
        self.slots = config.slots
        self._types = interned_types(setup.types)
        # The deal as one flat tuple of bytes and an int (the collector untracks it):
        # board, deck, start seat, then each hand.
        hands = [card_ids(h) for h in setup.hands]
        self._setup = (card_ids(setup.board), card_ids(setup.deck), setup.start_seat, *hands)
        # Cards as ids: tuples of bytearrays hold no tracked object (see engine.compact).
        self._board = bytearray(self._setup[0])
        self._hands = tuple(bytearray(sorted(h)) for h in hands)
        self._collections = tuple(bytearray() for _ in range(seats))
        self._black_hats = tuple(bytearray() for _ in range(seats))
        self._deck = bytearray(self._setup[1])
        self._pile = bytearray()
        self.cookie: int | None = None
        self.active = setup.start_seat
        self._turns_taken = bytearray(seats)
        self.main_done = False
        self.optional_used = False
        self.pending_offer: Card | None = None
        self._log = bytearray()
        """The event log: one engine.compact record per applied step."""
        self._reshuffles: tuple[bytes, ...] = ()
        """Each reshuffle's new deck order (R9), for the record's turns."""
        self.result: GameResult | None = None
        # Bookkeeping for R13 (type bit masks, sorted face-up values + sentinel) and R14.
        self._type_masks = bytearray(seats)
        self._values = tuple(bytearray((_NO_MORE_VALUES,)) for _ in range(seats))
        self._turns_done = 0
        self._turns_total = TURNS_PER_SEAT * seats

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, config: GameConfig) -> Game:
        """A freshly dealt game; all chance comes from ``config.seed`` (R3–R6, R9)."""
        chance = SeededChance(config.seed)
        setup = deal(config, chance)
        game = cls(config, setup, chance)
        # The RNG is not kept (2.5 KB, and tracked by the garbage collector): the orders of the
        # reshuffles are drawn now, as they would be later. The discard pile and the deck hold
        # the deck's dealt cards between them, so each reshuffle (R9) is of that many + 1
        # cards, at most one every len(deck) + 1 discards: twice in a game of 16 or 24 turns.
        game._chance = None
        if setup.deck:
            n = len(setup.deck) + 1
            game._orders = tuple(chance.order(n) for _ in range(_MAX_RESHUFFLES))
        return game

    @classmethod
    def replay(cls, config: GameConfig, steps: Iterable[Step]) -> Game:
        """Rebuild a game from its config and steps; raises IllegalMove if a step is illegal."""
        game = cls.new(config)
        apply = game.apply
        for step in steps:
            apply(step.seat, step.action)
        return game

    def adopt(self, other: Game) -> None:
        """Take over the whole state of ``other``, a :meth:`copy` of this game that moved on.

        A step can so be applied to a copy and become this game's only once it is kept (the
        service applies a step on a copy and adopts it when the store has committed it, issue
        29.6): whoever holds this object sees the new state from then on. ``other`` must not
        be used afterwards (they share their arrays). Raises ValueError for another game's
        copy (a different config).
        """
        if other.config != self.config:
            raise ValueError("adopt takes a copy of this game")
        for name in Game.__slots__:
            setattr(self, name, getattr(other, name))

    def copy(self) -> Game:
        """An independent copy of this game, same future chance included (for searches).

        Applying moves to the copy never changes this game, and the same moves give the same
        states on both (reshuffles too, R9).
        """
        other = Game.__new__(Game)
        other.config = self.config
        other._chance = copy.deepcopy(self._chance)
        other._orders = self._orders
        other.seats = self.seats
        other.slots = self.slots
        other._types = self._types
        other._setup = self._setup
        other._board = bytearray(self._board)
        other._hands = tuple(bytearray(h) for h in self._hands)
        other._collections = tuple(bytearray(c) for c in self._collections)
        other._black_hats = tuple(bytearray(b) for b in self._black_hats)
        other._deck = bytearray(self._deck)
        other._pile = bytearray(self._pile)
        other.cookie = self.cookie
        other.active = self.active
        other._turns_taken = bytearray(self._turns_taken)
        other.main_done = self.main_done
        other.optional_used = self.optional_used
        other.pending_offer = self.pending_offer
        other._log = bytearray(self._log)
        other._reshuffles = self._reshuffles
        other.result = self.result
        other._type_masks = bytearray(self._type_masks)
        other._values = tuple(bytearray(v) for v in self._values)
        other._turns_done = self._turns_done
        other._turns_total = self._turns_total
        return other

    # ----------------------------------------------------------------- state views
    @property
    def setup(self) -> Setup:
        """The deal (R3–R6), as dealt."""
        board, deck, start_seat, *hands = self._setup
        return Setup(
            self._types,
            card_tuple(board),
            tuple(map(card_tuple, hands)),
            card_tuple(deck),
            start_seat,
        )

    @property
    def board(self) -> list[Card]:
        """The board, slot 1 first (R2); a new list."""
        return card_list(self._board)

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's hand in canonical card order; new lists."""
        return [card_list(h) for h in self._hands]

    @property
    def collections(self) -> list[list[Card]]:
        """Each seat's face-up collection, in the order taken (R7); new lists."""
        return [card_list(c) for c in self._collections]

    @property
    def black_hats(self) -> list[list[Card]]:
        """Each seat's black hats, in the order played (R8); new lists."""
        return [card_list(b) for b in self._black_hats]

    @property
    def deck(self) -> list[Card]:
        """The draw deck, next card first (R4, R9); a new list."""
        return card_list(self._deck)

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, oldest first (R9); a new list."""
        return card_list(self._pile)

    @property
    def turns_taken(self) -> list[int]:
        """Turns each seat has finished (R14); a new list."""
        return list(self._turns_taken)

    @property
    def steps(self) -> list[Step]:
        """Every applied step in order (shared Step objects); a new list."""
        return steps_of(self._log)

    @property
    def events(self) -> list[Event]:
        """What every applied step did, in order (as :meth:`apply` returned it); a new list."""
        return events_of(self._log)

    @property
    def step_count(self) -> int:
        """Steps applied so far: ``len(self.steps)``, without building the list."""
        return len(self._log) // RECORD_SIZE

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
                return answer_actions_by_id(self._hands[seat])
            return [WITHDRAW] if seat == self.active else []
        if seat != self.active:
            return []
        return active_seat_actions_by_id(
            self._hands[seat], self._board, self.seats, self.main_done, self.optional_used
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
                outcome = _NO_OUTCOME
        log = self._log
        number = len(log) // RECORD_SIZE
        turn_ended = game_over = False
        if (self.main_done and self.optional_used) or kind is _END_TURN:
            turn_ended = True
            game_over = self._end_turn()
        card, slot, took, drew, reshuffled, partner, received = outcome
        cookie = self.cookie
        log += _pack(
            event_seat | KIND_INDEX[kind] << 2 | reshuffled << 5 | turn_ended << 6 | game_over << 7,
            card,
            slot,
            took,
            drew,
            partner,
            received,
            NONE if cookie is None else cookie,
        )
        return make_event(
            number,
            event_seat,
            kind,
            CARD_OF[card],
            slot or None,
            CARD_OF[took],
            CARD_OF[drew],
            reshuffled,
            SEAT_OF[partner],
            CARD_OF[received],
            cookie,
            turn_ended,
            game_over,
        )

    def _check_main(self, seat: int, card: Card) -> int:
        """The card's id, once the main action is still open and ``card`` is in the hand."""
        if self.main_done:
            raise MainActionDone()
        cid = card.id
        if cid not in self._hands[seat]:
            raise CardNotInHand(card)
        return cid

    def _exchange(self, seat: int, card: Card, slot: int) -> _Outcome:
        """R7; then the cookie (R13)."""
        cid = self._check_main(seat, card)
        if not (isinstance(slot, int) and 1 <= slot <= self.slots):
            raise InvalidSlot(slot, self.slots)
        board = self._board
        taken = board[slot - 1]
        if not CAN_TAKE[cid][taken]:
            raise IllegalExchange(card, slot, ALL_CARDS[taken])
        self._hands[seat].remove(cid)
        board[slot - 1] = cid
        self._collections[seat].append(taken)
        self._type_masks[seat] |= 1 << (taken // 6)
        insort(self._values[seat], _VALUE_OF[taken])
        self.main_done = True
        self._update_cookie()
        return (cid, slot, taken, NONE, False, NONE, NONE)

    def _black_hat(self, seat: int, card: Card) -> _Outcome:
        """R8; then the cookie (R13)."""
        cid = self._check_main(seat, card)
        self._hands[seat].remove(cid)
        self._black_hats[seat].append(cid)
        self._type_masks[seat] |= _BLACK_BIT
        self.main_done = True
        self._update_cookie()
        return (cid, 0, NONE, NONE, False, NONE, NONE)

    def _check_optional(self, seat: int, card: Card, kind: ActionKind) -> int:
        """The card's id, once the optional action ``kind`` is open and ``card`` in the hand."""
        if (kind is _DISCARD) == (self.seats == 4):
            raise NotInThisMode(kind.value, self.seats)
        if self.optional_used:
            raise OptionalActionUsed()
        cid = card.id
        if cid not in self._hands[seat]:
            raise CardNotInHand(card)
        return cid

    def _discard(self, seat: int, card: Card) -> _Outcome:
        """R9, with its decision: an empty deck is rebuilt from the whole discard pile."""
        cid = self._check_optional(seat, card, _DISCARD)
        reshuffled: bytes | None = None
        if not self._deck:  # shuffle before changing anything: a scripted chance may refuse
            pile = self._pile + bytes((cid,))
            if self._chance is not None:
                reshuffled = card_ids(self._chance.shuffle(card_list(pile)))
            else:
                reshuffled = self._seeded_reshuffle(pile)
        hand = self._hands[seat]
        hand.remove(cid)
        if reshuffled is None:
            self._pile.append(cid)
        else:
            self._deck = bytearray(reshuffled)
            self._pile = bytearray()
            self._reshuffles = (*self._reshuffles, reshuffled)
        drew = self._deck.pop(0)
        insort(hand, drew)
        self.optional_used = True
        return (cid, 0, NONE, drew, reshuffled is not None, NONE, NONE)

    def _seeded_reshuffle(self, pile: bytearray) -> bytes:
        """``pile`` (card ids) in the order ``Game.new``'s seeded chance draws for it (R9).

        The order drawn with the deal when it is for this many cards (always, by R4 and R9);
        otherwise the seed's chance is drawn again (the deal, then every reshuffle so far).
        """
        done = len(self._reshuffles)
        orders = self._orders
        if done < len(orders) and len(orders[done]) == len(pile):
            return bytes([pile[i] for i in orders[done]])
        self._orders = ()  # the draws ahead no longer match: draw again from here on
        chance = seeded_chance_after(self.config, map(len, self._reshuffles))
        return card_ids(chance.shuffle(card_list(pile)))

    def _offer(self, seat: int, card: Card) -> _Outcome:
        """R10: the offer waits for the partner's answer; nothing moves yet."""
        cid = self._check_optional(seat, card, _OFFER_SWAP)
        self.pending_offer = card
        return (cid, 0, NONE, NONE, False, (seat + 2) % 4, NONE)

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
            return active, (NONE, 0, NONE, NONE, False, partner, NONE)
        if seat != partner:
            if seat == active:
                raise SwapPending(partner)
            raise NotYourTurn(seat, partner)
        if kind is _DECLINE_SWAP:
            self.pending_offer = None
            return partner, (NONE, 0, NONE, NONE, False, active, NONE)
        if kind is not _ANSWER_SWAP:  # the partner may only answer or decline
            raise NotYourTurn(seat, active)
        given: Card = action.card  # type: ignore[union-attr]
        gid = given.id
        partner_hand = self._hands[partner]
        if gid not in partner_hand:
            raise CardNotInHand(given)
        oid = offered.id
        offerer_hand = self._hands[active]
        offerer_hand.remove(oid)
        partner_hand.remove(gid)
        insort(offerer_hand, gid)
        insort(partner_hand, oid)
        self.pending_offer = None
        self.optional_used = True
        return partner, (gid, 0, NONE, NONE, False, active, oid)

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
        self._turns_taken[self.active] += 1
        self._turns_done += 1
        self.main_done = False
        self.optional_used = False
        if self._turns_done == self._turns_total:
            self.result = score_game(
                self.board,
                self.collections,
                self.black_hats,
                [ALL_CARDS[h[0]] for h in self._hands],
                self.cookie,
                self.teams,
            )
            return True
        self.active = (self.active + 1) % self.seats
        return False

    # ----------------------------------------------------------------- views
    def observation(self, viewer: int | None, *, last_events: int | None = None) -> Observation:
        """What ``viewer`` may see (a seat, or None for the public view).

        Raises UnknownSeat for a seat outside the game. Never holds another seat's hand, black
        hat faces, discards, draws or swapped cards ("Who may see what"); after the end,
        ``result`` reveals what R21 reveals. ``last_events``: ``events`` holds only the last
        so many events (with their own numbers; None: every event of the game).
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
            types=self._types,
            board=card_tuple(self._board),
            hand=card_tuple(self._hands[viewer]) if viewer is not None else None,
            own_black_hats=card_tuple(self._black_hats[viewer]) if viewer is not None else None,
            hand_sizes=tuple(map(len, self._hands)),
            collections=tuple(map(card_tuple, self._collections)),
            black_hat_counts=tuple(map(len, self._black_hats)),
            deck_size=len(self._deck),
            discard_size=len(self._pile),
            cookie=self.cookie,
            active_seat=self.active,
            to_move=self.to_move,
            round=self.round,
            turns_taken=tuple(self._turns_taken),
            main_done=self.main_done,
            optional_used=self.optional_used,
            pending_swap=pending,
            events=events_seen_by(
                self._log,
                viewer,
                0 if last_events is None else len(self._log) // RECORD_SIZE - last_events,
            ),
            result=self.result,
        )

    def public_view(self) -> Observation:
        """The public observation, for the table and spectators."""
        return self.observation(None)

    # ----------------------------------------------------------------- records
    def record_turns(self) -> list[dict[str, Any]]:
        """The ``turns`` list of ``hats-record/1`` so far: completed effective steps only.

        Swap offers that were declined or withdrawn are not steps of the record (R10); a turn
        appears once it has a step. A fresh list of fresh dicts on every call. Built from the
        event log: a turn is the seat of its first step (always the seat whose turn it is)
        and the exchanges, black hats, discards and answered swaps up to its end.
        """
        codes = CODE_OF
        reshuffles = iter(self._reshuffles)
        turns: list[dict[str, Any]] = []
        steps: list[dict[str, Any]] = []
        seat = None
        for head, card, slot, took, drew, _, received, _ in RECORD.iter_unpack(self._log):
            if seat is None:
                seat = head & 3
            kind = head >> 2 & 7
            if kind == _KIND_EXCHANGE:
                step = {"kind": "exchange", "card": codes[card], "slot": slot, "took": codes[took]}
                steps.append(step)
            elif kind == _KIND_BLACK_HAT:
                steps.append({"kind": "black_hat", "card": codes[card]})
            elif kind == _KIND_DISCARD:
                order = next(reshuffles) if head & _RESHUFFLED else None
                steps.append(
                    {
                        "kind": "discard",
                        "card": codes[card],
                        "drew": codes[drew],
                        "reshuffled": [codes[c] for c in order] if order is not None else None,
                    }
                )
            elif kind == _KIND_ANSWER_SWAP:  # the answering partner's step: seat, given, offered
                offered = codes[received]
                steps.append(
                    {"kind": "swap", "card": offered, "partner": head & 3, "received": codes[card]}
                )
            if head & _TURN_ENDED:
                if steps:
                    turns.append({"seat": seat, "steps": steps})
                steps, seat = [], None
        if steps:
            turns.append({"seat": seat, "steps": steps})
        return turns

    def types_in_play(self) -> tuple[HatType, ...]:
        """Hat types in play (R3)."""
        return self._types

    def snapshot(self) -> dict[str, Any]:
        """A comparable summary of the whole state (tests, replay checks)."""
        codes = _codes
        return {
            "board": codes(self._board),
            "hands": [codes(h) for h in self._hands],
            "collections": [codes(c) for c in self._collections],
            "black_hats": [codes(b) for b in self._black_hats],
            "deck": codes(self._deck),
            "discard_pile": codes(self._pile),
            "cookie": self.cookie,
            "active": self.active,
            "turns_taken": list(self._turns_taken),
            "main_done": self.main_done,
            "optional_used": self.optional_used,
            "pending_offer": self.pending_offer.code if self.pending_offer else None,
            "result": self.result.to_record() if self.result else None,
        }


def _codes(ids: bytes | bytearray) -> list[str]:
    return [CODE_OF[i] for i in ids]


assert HAND_SIZE == TURNS_PER_SEAT + 1  # one card is left over as the favourite (R14)
