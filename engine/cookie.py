"""Who holds the cookie (R13)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card

__all__ = ["cookie_holder", "distinct_types"]


def distinct_types(face_up: Sequence[Card], black_hats: int) -> int:
    """Distinct types in a collection; all black hats together count as one type (R13)."""
    return len({c.type for c in face_up}) + (1 if black_hats else 0)


def cookie_holder(
    face_up: Sequence[Sequence[Card]],
    black_hats: Sequence[int],
    holder: int | None,
) -> int | None:
    """The cookie's holder after a step, computed from the collections alone (R13).

    ``face_up[s]`` is seat s's face-up collection, ``black_hats[s]`` its number of black hats,
    ``holder`` the seat holding the cookie before the step (None: on the napkin). Returns a seat
    or None (back on the napkin).

    Most distinct types wins; ties compare the lowest face-up values, then the second lowest,
    and so on; black hats' values never count; a seat that runs out of values loses the
    comparison; on a complete tie the holder keeps it if among the tied, else nobody has it.
    Seats with empty collections never hold it.
    """
    best = 0
    tied: list[int] = []
    for seat, cards in enumerate(face_up):
        n = distinct_types(cards, black_hats[seat])
        if n == 0 or n < best:
            continue
        if n > best:
            best, tied = n, [seat]
        else:
            tied.append(seat)
    if len(tied) <= 1:
        return tied[0] if tied else None
    values = {s: sorted(c.value for c in face_up[s]) for s in tied}
    position = 0
    while len(tied) > 1:
        having = [s for s in tied if len(values[s]) > position]
        if not having:
            break  # complete tie: everyone ran out of values together
        low = min(values[s][position] for s in having)
        tied = [s for s in having if values[s][position] == low]
        position += 1
    if len(tied) == 1:
        return tied[0]
    return holder if holder in tied else None
