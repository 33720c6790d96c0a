"""A card's choices on the hand controls: legal ones enabled, the others with the engine's
reason (R7–R11)."""

from engine_testkit import random_state
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMove
from engine.legal import card_choices

SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(
    seats=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**63),
    policy=st.integers(0, 2**63),
    cut=st.integers(0, 80),
)
def test_card_choices_legal_exactly_when_the_engine_accepts(seats, seed, policy, cut):
    """R7–R11: a choice shown enabled is a legal action; a disabled one carries the error the
    engine raises when it is tried, and changes nothing."""
    game = random_state(seats, seed, policy, cut)
    if game.is_over:
        return
    seat = game.to_move
    obs = game.observation(seat)
    legal = game.legal_actions(seat)
    for card in game.hands[seat]:
        choices = card_choices(obs, card)
        enabled = [a for a, why in choices if why is None]
        assert enabled == [a for a in legal if getattr(a, "card", None) is card]
        for action, why in choices:
            if why is None:
                continue
            trial = game.copy()
            try:
                trial.apply(seat, action)
            except IllegalMove as exc:
                assert exc.code == why.code
            else:
                raise AssertionError(f"{action} was refused but the engine accepts it")
