"""Helpers for the render tests: random games, seat labels, embed text, card searches."""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator

import discord

from engine import ALL_CARDS, ActionKind, Card, Game, GameConfig
from engine.actions import WITHDRAW
from texts import SeatLabel
from texts.i18n import Tr, Translator

TRANSLATOR = Translator.load()
EN: Tr = TRANSLATOR.for_locale("en-US")
FR: Tr = TRANSLATOR.for_locale(discord.Locale.french)
LANGUAGES: tuple[str, ...] = ("en", "de", "es", "fr", "it")
"""Every language the bot speaks (a missing catalog falls back to English)."""


class _Stretched(gettext.NullTranslations):
    """Every text 60% longer than English (with wide letters): longer than any real catalog."""

    @staticmethod
    def _stretch(text: str) -> str:
        return text + " " + "ẞ" * max(1, (len(text) * 6) // 10)

    def gettext(self, message: str) -> str:
        return self._stretch(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._stretch(msgid1 if n == 1 else msgid2)


STRETCHED: Tr = Tr("xx", _Stretched())
"""A stand-in for the longest language, so limits are tested before its catalog exists."""


def longest_language() -> str:
    """The catalog language whose translations are longest in total (German, usually)."""

    def total(lang: str) -> int:
        tr = TRANSLATOR.for_locale(lang)
        return sum(len(tr.translations.gettext(m)) for m in template_msgids())

    return max(LANGUAGES, key=total)


def template_msgids() -> list[str]:
    from babel.messages.pofile import read_po

    from texts.i18n import LOCALES_DIR

    with (LOCALES_DIR / "messages.pot").open("rb") as fh:
        return [m.id for m in read_po(fh) if m.id and isinstance(m.id, str)]


def seat_labels(
    seats: int, *, ai: tuple[int, ...] = (), away: tuple[int, ...] = ()
) -> list[SeatLabel]:
    """Humans 1001, 1002, ... except the ``ai`` seats; ``away`` humans are AI-played."""
    out = []
    for s in range(seats):
        if s in ai:
            out.append(SeatLabel(s, None, "hard", f"Robo{s}"))
        else:
            out.append(
                SeatLabel(s, 1001 + s, "normal" if s in away else None, f"Player{s}", s in away)
            )
    return out


def play_step(game: Game, rng: random.Random) -> None:
    """One random legal step; now and then the offerer withdraws a pending swap (R10)."""
    if game.pending_offer is not None and rng.random() < 0.2:
        game.apply(game.active, WITHDRAW)
        return
    seat = game.to_move
    game.apply(seat, rng.choice(game.legal_actions(seat)))


def random_game_states(seats: int, seed: int) -> Iterator[Game]:
    """Yield the same game after every step of a random game, from the deal to the end."""
    rng = random.Random(seed * 7919 + seats)
    game = Game.new(GameConfig(seats, seed))
    yield game
    while not game.is_over:
        play_step(game, rng)
        yield game


def finished_game(seats: int, seed: int) -> Game:
    """A random game played to the end."""
    states = random_game_states(seats, seed)
    game = next(states)
    for game in states:  # noqa: B007 - the generator yields one game object, step by step
        pass
    assert game.is_over
    return game


def game_after(seats: int, seed: int, steps: int) -> Game:
    """A random game stopped after ``steps`` steps (or at its end)."""
    for game in random_game_states(seats, seed):
        if len(game.steps) >= steps:
            return game
    return game


def card_pattern(card: Card) -> re.Pattern[str]:
    """Finds a card written any way: ``red5``, ``🟥5``, ``🟥 5 · red``, ``~~🟥5~~``, and in
    English words as alt texts write it, ``red 5``."""
    emoji = re.escape(card.type.emoji)
    words = rf"(?<![a-z]){card.type.value} {card.value}(?!\d)"
    return re.compile(rf"{re.escape(card.code)}|{emoji}[\s\u2060]*{card.value}|{words}")


_PATTERNS = {c: card_pattern(c) for c in ALL_CARDS}


def cards_in(text: str) -> set[Card]:
    """Every card that ``text`` shows."""
    return {c for c, pat in _PATTERNS.items() if pat.search(text)}


def public_cards(game: Game) -> set[Card]:
    """Cards everyone may see now: the board and the face-up collections (R7, R21)."""
    out = set(game.board)
    for coll in game.collections:
        out.update(coll)
    return out


def known_to(game: Game, seat: int) -> set[Card]:
    """Cards ``seat`` may know of: public ones, its hand and black hats, its own events' cards."""
    out = public_cards(game) | set(game.hands[seat]) | set(game.black_hats[seat])
    for ev in game.events:
        seen = ev.seen_by(seat)
        out.update(c for c in (seen.card, seen.took, seen.drew, seen.received) if c is not None)
    if game.pending_offer is not None and game.active == seat:
        out.add(game.pending_offer)
    return out


def hidden_kinds(game: Game) -> set[ActionKind]:
    """Kinds of events in the game whose cards are hidden from the public."""
    return {ev.kind for ev in game.events if not ev.visible_to(None)}
