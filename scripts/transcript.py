"""Play whole games of Hats under simcord and print everything a player reads, in order.

Usage: python scripts/transcript.py [--lang de|es|fr|it|en] [--seats 2|3|4] [--seed N] [--ai]
                                    [--out FILE]

A developer tool for reading every text in context (translation review). A fresh bot
(``bot.create_bot``, temporary SQLite file, no turn timer, no AI delay) runs under
``simcord.run``; the server's ``preferred_locale`` and every player's client locale are the
one language of ``--lang`` (simcord always sends en-US, so the interaction payload is patched
as tests/bot/language_support.py does). Players open a lobby (``--ai``: one seat is an AI
added by ``/hats ai add``), join and start by the lobby's buttons, then play to the end: most
moves through the hand DM's controls (card select, then an action button), some by
``/hats exchange card slot`` with the card typed in the language (``rouge5``). With 4 seats
(teams) a partner swap is offered, one answered and one declined when the cards allow, and a
team message is sent. Deliberate bad inputs (a card not in hand, an illegal exchange, a
command out of turn) and the info commands (``/hats hand|rules|stats|history|leaderboard|
record``) are made so their answers appear too.

After every step the script prints each message posted (``POST``), edited (``EDIT``, the full
new content) or deleted in the channel, the DMs, the team threads and the ephemeral answers,
each marked with who sees it and its message id. At the end: the REST calls the bot made
(simcord's request log; interaction responses and followups are free of the global rate
limit). Deterministic for a given ``--seed``; simulated time only (``advance_time``).
Mentions are shown as a client shows them (``@anna``, ``#hats``); a command mention
``</hats hand:id>`` is printed with its English name, which a client shows localized.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import re
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord
import simcord.interactions
from simcord.env import Env

from bot import create_bot
from cogs.card_input import parse_card_text
from cogs.controls import LobbyOp, action_custom_id, card_select_custom_id
from engine import ActionKind, Card, HatType

Env._settle_internal.__kwdefaults__["idle"] = 0.001  # see tests/bot/conftest.py

LOCALES = {"de": "de", "es": "es-ES", "fr": "fr", "it": "it", "en": "en-US"}
"""--lang -> the Discord locale of the server and of every player's client."""
COLOUR_WORDS = {
    "de": ("rot", "orange", "gelb", "grün", "blau", "lila", "braun"),
    "es": ("rojo", "naranja", "amarillo", "verde", "azul", "morado", "marrón"),
    "fr": ("rouge", "orange", "jaune", "vert", "bleu", "violet", "marron"),
    "it": ("rosso", "arancione", "giallo", "verde", "blu", "viola", "marrone"),
    "en": ("red", "orange", "yellow", "green", "blue", "purple", "brown"),
}
"""The hat types' colour words per language, in HatType order (typed cards: ``rouge5``)."""
NAMES = ("anna", "bruno", "chloe", "dario")
SAFE_TEAM_TEXT = {
    "de": "Gut gespielt!",
    "es": "¡Bien jugado!",
    "fr": "Bien joué !",
    "it": "Ben giocato!",
    "en": "Well played!",
}
BAD_TEAM_TEXT = {"de": "rot", "es": "rojo", "fr": "rouge", "it": "rosso", "en": "red"}


def typed(card: Card, lang: str) -> str:
    """The card as a player of ``lang`` types it (``rouge5``); checked against the parser."""
    word = COLOUR_WORDS[lang][list(HatType).index(card.type)]
    text = f"{word}{card.value}"
    assert parse_card_text(text) == card, text
    return text


class Transcript:
    """Everything players read, as text: a diff of simcord's message store after each step."""

    def __init__(self, env: Any, names: dict[int, str]) -> None:
        self.env = env
        self.names = names
        self.seen: dict[int, str] = {}
        self.lines: list[str] = []

    def where(self, channel_id: int, message: Any) -> str:
        """Who sees a message: the channel, a DM to X, a team thread, an ephemeral to X."""
        channel = self.env.backend.channels.get(channel_id)
        if channel is not None and channel.recipient_ids:
            base = "DM to " + ", ".join(self.names.get(u, str(u)) for u in channel.recipient_ids)
        elif channel is not None and channel.is_thread:
            members = ", ".join(self.names.get(u, str(u)) for u in channel.thread_members)
            base = f"thread #{channel.name} ({members})"
        else:
            base = f"channel #{getattr(channel, 'name', channel_id)}"
        if message.is_ephemeral:
            user = ((message.interaction_metadata or {}).get("user") or {}).get("id")
            return f"ephemeral to {self.names.get(int(user or 0), user)} (in {base})"
        author = self.names.get(message.author_id)
        return f"{base}, written by {author}" if author else base

    def mentions(self, text: str) -> str:
        """User, channel and command mentions as a client shows them (``@anna``, ``#hats``)."""
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        text = re.sub(r"<#(\d+)>", lambda m: "#" + self.channel_name(int(m[1])), text)
        return re.sub(r"</([^:>]+):\d+>", r"/\1", text)

    def channel_name(self, channel_id: int) -> str:
        channel = self.env.backend.channels.get(channel_id)
        return str(getattr(channel, "name", None) or channel_id)

    def render(self, message: Any) -> str:
        """Content, embeds (title, description, fields, footer), files and components."""
        out: list[str] = []
        if message.content:
            out.append(self.mentions(message.content))
        for embed in message.embeds:
            if (embed.get("author") or {}).get("name"):
                out.append(f"  [author] {embed['author']['name']}")
            if embed.get("title"):
                out.append(f"  ## {self.mentions(embed['title'])}")
            if embed.get("description"):
                out.append(_indent(self.mentions(embed["description"]), "  "))
            for field in embed.get("fields") or ():
                out.append(f"  * {self.mentions(field.get('name', ''))}")
                out.append(_indent(self.mentions(field.get("value", "")), "      "))
            if (embed.get("footer") or {}).get("text"):
                out.append(f"  -- {embed['footer']['text']}")
            if (embed.get("image") or {}).get("url"):
                out.append(f"  [image {embed['image']['url']}]")
        for attachment in message.attachments:
            out.append(f"  [file {attachment.get('filename')}]")
        for row in message.components:
            for child in row.get("components", [row]):
                out.append("  " + _component(child))
        return "\n".join(out) if out else "  (empty)"

    def flush(self) -> None:
        """Print what changed since the last flush: edits first, then new messages, by id."""
        current: dict[int, tuple[int, Any]] = {}
        for channel_id, messages in self.env.backend.messages.items():
            for mid, message in messages.items():
                current[mid] = (channel_id, message)
        edits, posts = [], []
        for mid in sorted(current):
            channel_id, message = current[mid]
            text = self.render(message)
            if mid not in self.seen:
                posts.append((mid, channel_id, message, text))
            elif self.seen[mid] != text:
                edits.append((mid, channel_id, message, text))
            self.seen[mid] = text
        for verb, items in (("EDIT", edits), ("POST", posts)):
            for mid, channel_id, message, text in items:
                self.lines.append(f"--- {verb} {mid} | {self.where(channel_id, message)}")
                self.lines.append(text)
        for mid in sorted(set(self.seen) - set(current)):
            self.lines.append(f"--- DELETE {mid}")
            del self.seen[mid]

    def note(self, text: str) -> None:
        self.lines.append("")
        self.lines.append(f">>> {text}")

    async def step(self, text: str, action: Awaitable[Any]) -> Any:
        """Print ``text`` (what a player does), run it, print what players then read."""
        self.note(text)
        result = await action
        choices = result if isinstance(result, list) else None
        if choices:
            self.lines.append("--- autocomplete choices (only the typist sees them)")
            self.lines.extend(f"  - {c['name']}" for c in choices)
        self.flush()
        return result


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _component(child: dict[str, Any]) -> str:
    kind = child.get("type")
    off = " (disabled)" if child.get("disabled") else ""
    if kind == 2:
        emoji = (child.get("emoji") or {}).get("name") or ""
        label = " ".join(p for p in (emoji, child.get("label") or "") if p)
        return f"[button: {label}]{off}"
    if kind in (3, 5, 6, 7, 8):
        options = [
            o.get("label", "") + (f" — {o['description']}" if o.get("description") else "")
            for o in child.get("options") or ()
        ]
        listed = "".join(f"\n      - {o}" for o in options)
        return f"[select: {child.get('placeholder') or ''}]{off}{listed}"
    return f"[component type {kind}]"


def controls_message(player: Any, channel: Any, custom_id: str) -> tuple[Any, str] | None:
    """The newest message ``player`` sees carrying ``custom_id``: their DM, or an answer.

    Returns (message, where) with where "hand DM" or "/hats hand answer"; None when no
    message has it (the player's turn DM is one line without controls: they play by slash).
    """
    places = (
        ("hand DM", player.user.dm_channel.history()),
        ("/hats hand answer", [m for m in channel.history(viewer=player) if m.flags.ephemeral]),
    )
    found = [
        (message.id, message, where)
        for where, history in places
        for message in history
        if custom_id in _custom_ids(message)
    ]
    if not found:
        return None
    _, message, where = max(found, key=lambda f: f[0])
    return message, where


def _custom_ids(message: Any) -> set[str]:
    return {
        str(getattr(child, "custom_id", ""))
        for row in message.components
        for child in getattr(row, "children", [row])
    }


def patch_locales(locale: str) -> Callable[[], None]:
    """Every interaction carries ``locale`` and the guild's locale; returns the undo."""
    real = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = real(backend, **kwargs)
        payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    simcord.interactions.base_payload = base_payload

    def undo() -> None:
        simcord.interactions.base_payload = real

    return undo


def describe(action: Any, lang: str) -> str:
    card = getattr(action, "card", None)
    parts = [action.kind.value]
    if card is not None:
        parts.append(typed(card, lang))
    if getattr(action, "slot", None) is not None:
        parts.append(f"slot {action.slot}")
    return " ".join(parts)


async def play(lang: str, seats: int, seed: int, ai: bool) -> str:
    """One whole game; returns its transcript."""
    seeds = itertools.count(seed * 1_000_003 + 1)
    rng = random.Random(seed)
    undo = patch_locales(LOCALES[lang])
    try:
        with tempfile.TemporaryDirectory(prefix="hats_transcript_") as tmp:
            bot = create_bot(
                Path(tmp) / "hats.sqlite3",
                turn_timer=None,
                ai_delay=0.0,
                edit_limit=None,
                seed_source=lambda: next(seeds),
            )
            try:
                async with simcord.run(bot, settle_timeout=10.0, check_errors=False) as env:
                    return await _play(env, lang, seats, rng, ai)
            finally:
                if bot.store is not None:
                    await bot.store.close()
    finally:
        undo()


async def _play(env: Any, lang: str, seats: int, rng: random.Random, ai: bool) -> str:
    lines: list[str] = []
    try:
        await _game(env, lang, seats, rng, ai, lines)
    except Exception:  # a transcript up to the failure is still worth reading
        lines.append("!!! the script failed here:")
        lines.append(traceback.format_exc())
    return "\n".join(lines) + "\n"


async def _game(
    env: Any, lang: str, seats: int, rng: random.Random, ai: bool, lines: list[str]
) -> None:
    """Lobby, game, bad inputs and info commands; appends the transcript to ``lines``."""
    guild = env.create_guild("Hats", preferred_locale=LOCALES[lang])
    channel = guild.create_text_channel("hats")
    humans = seats - 1 if ai else seats
    players = [guild.add_member(env.create_user(NAMES[i])) for i in range(humans)]
    names = {p.user.id: p.user.name for p in players}
    names[env.bot.user.id] = "the bot"
    t = Transcript(env, names)
    t.lines = lines
    t.lines.append(f"# Hats transcript: lang={lang} seats={seats} ai={ai}")
    host = players[0]

    async def slash(player: Any, command: str, **options: Any) -> Any:
        shown = " ".join(f"{k}:{v}" for k, v in options.items())
        return await t.step(
            f"{player.user.name}: /{command} {shown}".rstrip(),
            player.slash(channel, command, **options),
        )

    for command in ("hats rules", "hats hand", "hats stats", "hats history", "hats record"):
        await slash(host, command)

    result = await slash(host, "hats new")
    lobby = result.response.message
    lobby_id = next(
        int(cid.split(":")[2])
        for row in lobby.components
        for child in row.children
        if (cid := child.custom_id or "").startswith("hats:l:")
    )
    if ai:
        await slash(host, "hats ai add", level="normal")
    for player in players[1:]:
        await t.step(
            f"{player.user.name} clicks Join on the lobby",
            player.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.JOIN.value}"),
        )
    await t.step(
        f"{host.user.name} clicks Start on the lobby",
        host.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.START.value}"),
    )
    session = await env.bot.games.session_in_channel(channel.id)
    by_id = {p.user.id: p for p in players}

    def human(seat: int) -> Any:
        return by_id.get(session.seats[seat].user_id)

    async def via_dm(player: Any, action: Any) -> None:
        version = session.version
        card = getattr(action, "card", None)
        custom_id = action_custom_id(session.id, version, action)
        first = card_select_custom_id(session.id, version) if card is not None else custom_id
        found = controls_message(player, channel, first)
        name = player.user.name
        if found is None:  # they played by slash: their turn DM has no controls
            await slash(player, "hats hand")
            found = controls_message(player, channel, first)
        message, where = found
        actor = player.user if where == "hand DM" else player  # a DM, or the channel

        def fresh() -> Any:
            if where == "hand DM":
                return next(m for m in player.user.dm_channel.history() if m.id == message.id)
            return next(m for m in channel.history(viewer=player) if m.id == message.id)

        if card is not None:
            await t.step(
                f"{name} picks {typed(card, lang)} in the {where}'s card select ({message.id})",
                actor.select(
                    message, [card.code], custom_id=card_select_custom_id(session.id, version)
                ),
            )
            message = fresh()
        label = next(
            (
                child.label
                for row in message.components
                for child in getattr(row, "children", [row])
                if getattr(child, "custom_id", None) == custom_id
            ),
            custom_id,
        )
        await t.step(
            f"{name} clicks [{label}] in the {where} ({message.id}): {describe(action, lang)}",
            actor.click(message, custom_id=custom_id),
        )

    bad_inputs_done = False
    swaps = {"offer": 0, "answer": 0, "decline": 0}
    team_talk_done = False
    moves = 0
    idle = 0
    while not session.game.is_over:
        game = session.game
        seat = game.to_move
        player = human(seat)
        if player is None:  # an AI seat: let its move happen
            before = session.version
            await env.advance_time(1.0)
            t.flush()
            idle = idle + 1 if session.version == before else 0
            if idle > 50:
                t.note("(the AI seat did not move; stopping)")
                break
            continue
        legal = game.legal_actions(seat)
        hand = list(game.hands[seat])
        if not bad_inputs_done:
            bad_inputs_done = True
            other = next((p for p in players if p is not player), None)
            if other is not None:
                await slash(other, "hats endturn")  # out of turn
            missing = next(
                Card.of(h, v) for h in HatType for v in range(1, 7) if Card.of(h, v) not in hand
            )
            await slash(player, "hats blackhat", card=typed(missing, lang))
            legal_exchanges = {(a.card, a.slot) for a in legal if a.kind is ActionKind.EXCHANGE}
            slots = sorted({s for _, s in legal_exchanges}) or [1]
            illegal = next(
                ((c, s) for c in hand for s in slots if (c, s) not in legal_exchanges),
                (hand[0], max(slots) + 1),
            )
            await slash(player, "hats exchange", card=typed(illegal[0], lang), slot=illegal[1])
            await slash(player, "hats hand")
            await slash(player, "hats rules")
            await t.step(
                f"{player.user.name}: autocomplete /hats blackhat card",
                player.autocomplete(channel, "hats blackhat", "card", ""),
            )
        if seats == 4 and not team_talk_done and moves >= 2:
            team_talk_done = True
            await slash(player, "hats team message", text=SAFE_TEAM_TEXT[lang])
            await slash(player, "hats team message", text=BAD_TEAM_TEXT[lang])
        kinds = {a.kind for a in legal}
        if game.pending_offer is not None and ActionKind.ANSWER_SWAP in kinds:
            mode = "answer" if swaps["answer"] <= swaps["decline"] else "decline"
            swaps[mode] += 1
            kind = ActionKind.ANSWER_SWAP if mode == "answer" else ActionKind.DECLINE_SWAP
            action = rng.choice([a for a in legal if a.kind is kind])
        elif ActionKind.OFFER_SWAP in kinds and (swaps["offer"] < 3 or rng.random() < 0.2):
            swaps["offer"] += 1
            action = rng.choice([a for a in legal if a.kind is ActionKind.OFFER_SWAP])
        else:
            choices = sorted(kinds - {ActionKind.OFFER_SWAP, ActionKind.WITHDRAW_SWAP})
            kind = rng.choice(choices or sorted(kinds))
            action = rng.choice([a for a in legal if a.kind is kind])
        before = session.version
        if action.kind is ActionKind.EXCHANGE and moves % 4 == 1:
            await slash(player, "hats exchange", card=typed(action.card, lang), slot=action.slot)
        else:
            await via_dm(player, action)
        moves += 1
        if session.version == before:
            t.note(f"(the move did not happen: {describe(action, lang)}; stopping)")
            break
    if not session.game.is_over:
        await env.advance_time(1.0)
        t.flush()

    for command in ("hats stats", "hats history", "hats leaderboard", "hats record"):
        await slash(host, command)
    if seats == 4:
        t.note(f"partner swaps: {swaps}")

    calls = env.http_requests
    free = sum(c.path.startswith(("/interactions/", "/webhooks/")) for c in calls)
    routes = Counter(
        f"{c.method} {re.sub(r'/[0-9]{6,}', '/{id}', c.path)}"
        for c in calls
        if not c.path.startswith(("/interactions/", "/webhooks/"))
    )
    t.lines.append("")
    t.lines.append(
        f"REST calls: {len(calls)} ({free} free interaction calls, "
        f"{len(calls) - free} rate-limited)"
    )
    for route, n in routes.most_common():
        t.lines.append(f"  {n:5d}  {route}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", action="store_true", help="one seat is an AI (/hats ai add)")
    parser.add_argument("--out", type=Path, help="write here (default: stdout)")
    args = parser.parse_args(argv)
    text = asyncio.run(play(args.lang, args.seats, args.seed, args.ai))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
