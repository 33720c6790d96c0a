"""The texts of the Activity's browser app (``activity/``, issue 28): every msgid it shows.

The browser app reads its words from the bot's own catalogs (no second translation):
``activity/scripts/export_data.py`` reads the msgids listed here (by parsing this file, so
the export needs no Discord import) and writes each language's translations to
``activity/src/generated/i18n/<lang>.json`` at build time. Listing a msgid here also keeps it
in ``messages.pot`` when ``pybabel extract`` runs (``N_`` and ``plural`` are extraction
keywords), so the catalog tests check every language has it.

Most texts are the bot's own (the same button labels and sentences as the DMs and the lobby
message); the ones only the app needs are at the end. activity/test/i18n.test.ts fails when
the app calls ``t()``/``plural()`` with a msgid missing here.
"""

from __future__ import annotations

from service.errors import N_

__all__ = ["ACTIVITY_PLURALS", "ACTIVITY_TEXTS", "plural"]


def plural(singular: str, plural_form: str) -> tuple[str, str]:
    """Mark a singular/plural msgid pair for extraction; returns it unchanged."""
    return singular, plural_form


ACTIVITY_TEXTS: tuple[str, ...] = (
    # the table and the hand, as the hand DM says them (texts.hand, pictures.layout)
    N_("Tea table"),
    N_("Round {round}/{rounds}: it's your turn."),
    N_("Round {round}/{rounds}: it's {who}'s turn."),
    N_("The game is over."),
    N_("{type} {value}"),
    N_("slot {slot}: {card}"),
    N_("red"),
    N_("orange"),
    N_("yellow"),
    N_("green"),
    N_("blue"),
    N_("purple"),
    N_("brown"),
    N_("Black hat"),
    N_("Black hats: {hats}"),
    N_("Your hand: {cards}."),
    N_("Your collection: {cards}"),
    N_("Collection: {cards}"),
    N_("{card} (only as a black hat)"),
    N_("{cookie} {who} holds the cookie."),
    N_("Choose a card, then what to do with it."),
    N_("Pick a slot or another action."),
    N_("You can end your turn now."),
    N_("Choose a card to give back, or decline."),
    N_("{offerer} offers you a card swap."),
    N_("Discard and draw"),
    N_("Offer to partner"),
    N_("Give this card"),
    N_("Decline the swap"),
    N_("Withdraw my offer"),
    N_("End turn"),
    N_("Auto end turn: on"),
    N_("Auto end turn: off"),
    N_("What should I do?"),
    N_("Team A"),
    N_("Team B"),
    N_("{name} ({team})"),
    # the lobby, as its message and buttons (texts.lobby, cogs.lobby, cogs.teams...)
    N_("Hats: a new game is forming"),
    N_("Hosted by {host}."),
    N_("The table is full."),
    N_("open place"),
    N_("Join"),
    N_("Leave"),
    N_("Start"),
    N_("Cancel"),
    N_("Shuffle teams"),
    N_("Teams (partners sit opposite)"),
    N_("Remove AI"),
    N_("Add an AI player (choose its level)"),
    N_("AI: easy"),
    N_("AI: normal"),
    N_("AI: hard"),
    N_("AI: expert"),
    N_("{player} · {level}"),
    N_("easy"),
    N_("normal"),
    N_("hard"),
    N_("expert"),
    N_("Turn timer: {time}"),
    N_("Turn timer: none"),
    N_("Hints: on (turn off)"),
    N_("Hints: off (turn on)"),
    N_("{minutes} min {seconds} s"),
    # the end (texts.end)
    N_("Hats: game #{game_id} is over"),
    N_("Favourite hat"),
    N_("{team}: {members}"),
    N_("Rematch"),
    # only the Activity's
    N_("Your name"),
    N_("Pick a name to play in this browser; another tab is another player."),
    N_("Play"),
    N_("A name has 1 to 32 characters."),
    N_("Connecting…"),
    N_("Connection lost: trying again in {seconds} s."),
    N_("Try now"),
    N_("Could not sign in. Try again."),
    N_("Try again"),
    N_("There is no lobby in this channel yet."),
    N_("Open a new lobby"),
    N_("You are watching this game."),
    N_("Your hand"),
    N_("Your collection"),
    N_("Last moves"),
    N_("Time left: {time}"),
    N_("Team chat"),
    N_("Message to your partner"),
    N_("Send"),
    N_("Close"),
    N_("{name} (you)"),
    N_("Waiting for {partner} to answer the swap."),
    N_("{cookie} The cookie is on the napkin."),
    # issue 35: the turn cue, the guide, reconnecting
    N_("Reconnecting…"),
    N_("Round {round}/{rounds}: your answer is awaited."),
    N_("Your turn"),
    N_("Your answer is awaited"),
    N_("Sound and vibration on my turn"),
    N_("What is on the table?"),
    N_("Draw deck: after a discard you draw from it."),
    N_("Discard pile: cards put away face down, one a turn with 2 or 3 players."),
    N_(
        "The cookie: held by whoever has the most different hat types in their collection; "
        "worth 5 points at the end."
    ),
    N_(
        "Black hat: a card played face down into a collection; it scores 1 point and only its "
        "owner sees it."
    ),
    N_(
        "Favourite hat (marked at the end): your last hand card. Your collection cards of its "
        "type add their values, minus its own."
    ),
    N_(
        "Slot numbers: a collection card scores the number of the lowest slot showing its type "
        "at the end."
    ),
    # issue 35: the running score, the end's breakdown, "discard or done"
    N_("Score now: {points}"),
    N_("Collection"),
    N_("Black hats"),
    N_("Cookie"),
    N_("Tied on points: more black hats decided."),
    N_("Tied on points and black hats: the cookie decided."),
    N_("Nothing separates them: a shared win."),
    N_("Done"),
    N_("Discard a card, or tap Done."),
    N_("Offer a card to your partner, or tap Done."),
    N_("End my turn after my main action"),
    # the people at the table, reactions, local mode's language menu (issue 34.3, 35.9, 35.12)
    N_("Invite"),
    N_("React"),
    N_("Language"),
)
"""Single msgids the app shows (English, the bot's source language)."""

ACTIVITY_PLURALS: tuple[tuple[str, str], ...] = (
    plural("{n} card in hand", "{n} cards in hand"),
    plural("Draw deck: {n} card", "Draw deck: {n} cards"),
    plural("Discard pile: {n} card", "Discard pile: {n} cards"),
    plural("{n} point", "{n} points"),
    plural("{n} black hat: {cards}", "{n} black hats: {cards}"),
    plural("Waiting for {n} more player to start.", "Waiting for {n} more players to start."),
    plural(
        "Ready to start; {n} place is still open.", "Ready to start; {n} places are still open."
    ),
    plural("{n} hour", "{n} hours"),
    plural("{n} minute", "{n} minutes"),
    plural("{n} second", "{n} seconds"),
    plural(
        "{trophy} {team} wins ({members}) with {n} point.",
        "{trophy} {team} wins ({members}) with {n} points.",
    ),
    plural(
        "{trophy} Shared win: both teams have {n} point.",
        "{trophy} Shared win: both teams have {n} points.",
    ),
    plural("{trophy} {who} wins with {n} point.", "{trophy} {who} wins with {n} points."),
    plural(
        "{trophy} Shared win: {players}, with {n} point each.",
        "{trophy} Shared win: {players}, with {n} points each.",
    ),
    plural("Won on points: {n} point ahead.", "Won on points: {n} points ahead."),
    plural("{n} watching", "{n} watching"),
)
"""Singular/plural msgid pairs the app shows (ngettext; ``{n}`` is the count)."""
