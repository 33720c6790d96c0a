"""A token bucket, the one rate limit of the Activity's server (requests, reactions)."""

from __future__ import annotations

__all__ = ["take_token"]


def take_token(
    tokens: float, at: float, now: float, *, burst: float, per_s: float
) -> tuple[bool, float]:
    """One request against a bucket: ``(allowed, tokens left)``.

    ``tokens``: what the bucket held at ``at`` (seconds, any monotonic clock); it refills at
    ``per_s`` tokens a second up to ``burst`` until ``now``, and a request takes one token
    when at least one is there.
    """
    tokens = min(burst, tokens + max(0.0, now - at) * per_s)
    if tokens < 1.0:
        return False, tokens
    return True, tokens - 1.0
