"""Greedy evaluation: how much a move changes a seat's expected end score (R15–R20).

The expected score is read off the current position as if the game ended now: collection
points on the current board after the R15 clean-up (R16), the favourite hat estimated as the
best hand card to keep (R17), and 5 points for holding the cookie (R13, R18). With 4 seats the
team's collection and cookie count (R20). A move's *gain* is the change in that estimate;
with ``spite`` > 0 the change of the opponents' estimate (their average, or the other team's
sum) is subtracted, weighted by ``spite``.

Only public cards and the seat's own hand are read, so the same code serves the normal AI on
its observation and every seat inside the hard AI's rollouts.
"""

from __future__ import annotations

from bisect import insort

from engine.ai.sim import NO_SEAT, NUM_TYPES, TYPE_OF, VALUE_OF, SimState, cookie_after
from engine.scoring import COOKIE_POINTS

__all__ = ["BLACK_HAT_SLOT", "Evaluator", "favourite_estimate"]

BLACK_HAT_SLOT = 0
"""The ``slot`` of a main-action gain that stands for a black hat (R8)."""
_NEG = -1000  # "no such hand card" for favourite keys


def favourite_estimate(hand: list[int], sums: list[int]) -> int:
    """The best favourite score among ``hand`` (R17): max of type's collected sum − value.

    ``sums[t]`` is the seat's face-up value sum of type t. Returns 0 for an empty hand.
    """
    if not hand:
        return 0
    return max(sums[TYPE_OF[c]] - VALUE_OF[c] for c in hand)


class Evaluator:
    """Gains of ``seat``'s possible moves in ``state`` (a one-step look at the position).

    Build one per decision; it reads ``state.board``, ``state.hands[seat]``, the face-up
    collections, black hat counts and the cookie. Gains are points (floats with ``spite``).
    """

    __slots__ = (
        "_a",
        "_cookie_gain",
        "_fav",
        "_fav_key",
        "_fav_rows",
        "_next_same",
        "_opp_w",
        "_team_cnt",
        "_variants",
        "board",
        "hand",
        "seat",
        "slots",
        "spite",
        "state",
        "worth",
    )

    def __init__(self, state: SimState, seat: int, spite: float = 0.0) -> None:
        """Prepare the tables for ``seat``; ``spite`` weighs the opponents' gains (0: none)."""
        self.state = state
        self.seat = seat
        self.spite = spite
        board = state.board
        self.board = board
        self.slots = len(board)
        self.hand = state.hands[seat]
        worth = [0] * NUM_TYPES
        for slot, card in enumerate(board, 1):
            t = TYPE_OF[card]
            if not worth[t]:
                worth[t] = slot
        self.worth = worth
        types = [TYPE_OF[c] for c in board]
        nxt = [0] * (len(board) + 1)
        later: dict[int, int] = {}
        for k in range(len(board), 0, -1):
            nxt[k] = later.get(types[k - 1], 0)
            later[types[k - 1]] = k
        self._next_same = nxt
        team = state.team_of(seat)
        counts = state.counts
        opponents = [s for s in range(state.seats) if s not in team]
        units = 1 if state.seats == 4 else len(opponents)
        scale = spite / units if units else 0.0
        if len(team) == 1:
            self._team_cnt = counts[seat]
        else:
            self._team_cnt = [a + b for a, b in zip(counts[team[0]], counts[team[1]], strict=True)]
        opp_w = [0.0] * NUM_TYPES
        if scale:
            for o in opponents:
                for t, n in enumerate(counts[o]):
                    if n:
                        opp_w[t] += scale * n
        self._opp_w = opp_w
        self._a: dict[int, list[float]] = {}
        self._cookie_gain = self._cookie_gains(team, opponents, scale)
        self._fav_tables()

    # ------------------------------------------------------------------ tables
    def _board_row(self, y: int) -> list[float]:
        """Per slot k (index k, 1-based; index 0 unused): gain of putting type y on slot k."""
        row = self._a.get(y)
        if row is not None:
            return row
        board = self.board
        worth = self.worth
        team = self._team_cnt
        opp = self._opp_w
        nxt = self._next_same
        row = [0.0]
        for k in range(1, self.slots + 1):
            x = TYPE_OF[board[k - 1]]
            wx = worth[x]
            if x == y:
                row.append(float(wx))  # the board keeps its types; the taken card scores wx
                continue
            # the lowest slot of x changes type: x falls to its next slot, or 0
            nwx = nxt[k] if wx == k else wx
            wy = worth[y]
            nwy = k if (wy == 0 or k < wy) else wy
            dx = nwx - wx
            dy = nwy - wy
            row.append(team[x] * dx + team[y] * dy + nwx - (opp[x] * dx + opp[y] * dy))
        self._a[y] = row
        return row

    def _cookie_gains(
        self, team: tuple[int, ...], opponents: list[int], scale: float
    ) -> list[float]:
        """Index k ≥ 1: cookie gain of taking slot k's card; index 0: of a black hat (R13).

        Only a tie for the most types needs the full R13 comparison: otherwise the seat
        either takes the lead outright or leaves the holder as it is.
        """
        st = self.state
        seat = self.seat
        before = st.cookie

        def worth(holder: int) -> float:
            if holder == NO_SEAT:
                return 0.0
            if holder in team:
                return float(COOKIE_POINTS)
            return -scale * COOKIE_POINTS

        base = worth(before)
        distinct = st.distinct
        others = max((d for s, d in enumerate(distinct) if s != seat), default=0)
        mine = distinct[seat]

        def gain(new_distinct: int, value: int | None) -> float:
            if new_distinct > others:
                return worth(seat) - base
            if new_distinct < others:
                return 0.0
            d2 = distinct[:]
            d2[seat] = new_distinct
            values = st.values
            if value is not None:
                values = values[:]
                mine_values = values[seat][:]
                insort(mine_values, value)
                values[seat] = mine_values
            return worth(cookie_after(d2, values, before)) - base

        gains = [gain(mine + (0 if st.blacks[seat] else 1), None)]
        counts = st.counts[seat]
        for card in self.board:
            gains.append(gain(mine + (0 if counts[TYPE_OF[card]] else 1), VALUE_OF[card]))
        return gains

    def _fav_tables(self) -> None:
        """Favourite keys per type: collected sum − lowest hand value of that type (R17)."""
        sums = self.state.sums[self.seat]
        rows: dict[int, list[int]] = {}
        for c in self.hand:
            rows.setdefault(TYPE_OF[c], []).append(VALUE_OF[c])
        for vals in rows.values():
            vals.sort()
        key = [_NEG] * NUM_TYPES
        for t, vals in rows.items():
            key[t] = sums[t] - vals[0]
        self._fav_rows = rows
        self._fav_key = key
        self._fav = max(key) if rows else 0
        self._variants: dict[int, tuple[list[int], int, int, int]] = {}

    def _variant(self, card: int) -> tuple[list[int], int, int, int]:
        """Favourite keys once ``card`` has left the hand, with the top two: (keys, v1, t1, v2)."""
        y = TYPE_OF[card]
        vals = self._fav_rows[y]
        removes_min = VALUE_OF[card] == vals[0]
        tag = y if removes_min else -1
        found = self._variants.get(tag)
        if found is not None:
            return found
        key = self._fav_key
        if removes_min:
            key = key[:]
            key[y] = self.state.sums[self.seat][y] - vals[1] if len(vals) > 1 else _NEG
        v1, t1, v2 = _NEG, -1, _NEG
        for t in range(NUM_TYPES):
            k = key[t]
            if k > v1:
                v1, t1, v2 = k, t, v1
            elif k > v2:
                v2 = k
        found = (key, v1, t1, v2)
        self._variants[tag] = found
        return found

    def set_hand(self, hand: list[int]) -> None:
        """Evaluate ``hand`` (card ids) instead, in the same position.

        The board and cookie tables do not depend on the hand and are kept, so weighing many
        possible hands of one seat at one moment (the expert AI's inference) is cheap.
        """
        self.hand = hand
        self.state.hands[self.seat] = hand
        self._fav_tables()

    # ------------------------------------------------------------------ gains
    @property
    def favourite(self) -> int:
        """The current favourite estimate of the seat (R17)."""
        return self._fav

    def main_gains(self) -> list[tuple[float, int, int]]:
        """Every legal main action with its gain: ``(gain, card, slot)``, slot 0 a black hat.

        Order: hand order, then exchanges by slot (R7), then the black hat (R8).
        """
        board = self.board
        fav = self._fav
        cookie = self._cookie_gain
        bt = [TYPE_OF[b] for b in board]
        bv = [VALUE_OF[b] for b in board]
        out: list[tuple[float, int, int]] = []
        for c in self.hand:
            y = TYPE_OF[c]
            v = VALUE_OF[c]
            row = self._board_row(y)
            key, v1, t1, v2 = self._variant(c)
            for k in range(1, self.slots + 1):
                x = bt[k - 1]
                if x == y or v > bv[k - 1]:
                    other = v1 if t1 != x else v2
                    kx = key[x] + bv[k - 1]
                    f = kx if kx > other else other
                    out.append((row[k] + cookie[k] + f - fav, c, k))
            out.append((1.0 + cookie[0] + v1 - fav, c, BLACK_HAT_SLOT))
        return out

    def best_main(self) -> tuple[int, int]:
        """The main action of highest gain, as ``(card, slot)`` (first of equal gains)."""
        best = None
        for g in self.main_gains():
            if best is None or g[0] > best[0]:
                best = g
        assert best is not None, "a seat with a main action to make holds cards"
        return best[1], best[2]

    def exchange_power(self, card: int) -> float:
        """Best gain of an exchange with ``card`` now, favourite aside; 0 when none is good.

        ``card`` need not be in the hand (used to value a card that could be drawn).
        """
        y = TYPE_OF[card]
        v = VALUE_OF[card]
        row = self._board_row(y)
        best = 0.0
        for k in range(1, self.slots + 1):
            b = self.board[k - 1]
            if TYPE_OF[b] == y or v > VALUE_OF[b]:
                g = row[k] + self._cookie_gain[k]
                if g > best:
                    best = g
        return best

    def keep_value(self, card: int) -> float:
        """What holding hand ``card`` is worth now: its exchange power plus favourite loss."""
        _key, v1, _t1, _v2 = self._variant(card)
        return self.exchange_power(card) + (self._fav - v1)

    def by_keep(self) -> list[int]:
        """The hand's cards, the one worth least to keep (:meth:`keep_value`) first; ties by id.

        The first is the card the normal AI discards, offers or gives back (R9, R10).
        """
        return sorted(self.hand, key=lambda c: (self.keep_value(c), c))

    def draw_value(self, card: int, without: int) -> float:
        """What drawing ``card`` would be worth after ``without`` left the hand."""
        _key, v1, _t1, _v2 = self._variant(without)
        sums = self.state.sums[self.seat]
        fav_gain = max(0, sums[TYPE_OF[card]] - VALUE_OF[card] - v1)
        return self.exchange_power(card) + fav_gain
