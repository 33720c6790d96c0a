"""``/hats rules``: the rules and the scoring, short and in the project's own words.

Written from ``docs/RULES.md`` (R1–R21); nothing here is taken from the printed rulebook.
"""

from __future__ import annotations

from texts.common import COOKIE
from texts.i18n import N_, Tr
from texts.limits import V2_TEXT_MAX, text_len, truncate

__all__ = ["RULES_PAGES", "rules_messages"]

# Each page: (title, description, ((field name, field value), ...)), all msgids.
RULES_PAGES: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        N_("Hats: the game in short"),
        N_(
            "Gather hats that will be worth a lot when the game ends. Everyone starts with "
            "9 cards and plays 8 turns; the one card still in your hand at the end is your "
            "favourite hat."
        ),
        (
            (
                N_("The cards"),
                N_(
                    "42 hat cards in 7 colours, numbered 1 to 6 in each colour. With two "
                    "players, two colours are left out of the game."
                ),
            ),
            (
                N_("The tea table"),
                N_(
                    "A row of face-up cards in slots numbered 1 to 6 (1 to 5 with two "
                    "players). The number of a slot is what its colour will be worth at the end."
                ),
            ),
            (
                N_("Teams (4 players)"),
                N_(
                    "Partners sit opposite each other and add up their scores. You may talk to "
                    "your partner, but never name a card's colour or number."
                ),
            ),
        ),
    ),
    (
        N_("Your turn"),
        N_(
            "Every turn you take exactly one main action. You may also take one optional "
            "action, before or after the main one."
        ),
        (
            (
                N_("Main action: exchange"),
                N_(
                    "Put a card from your hand on a slot of the tea table and take the card "
                    "that was there into your collection, face up. This works when both cards "
                    "are the same colour, or when your card has the higher number. Two "
                    "different colours with the same number never work."
                ),
            ),
            (
                N_("Main action: black hat"),
                N_(
                    "Put a card from your hand face down into your collection. Only you know "
                    "what it was. It is worth 1 point, and all your black hats together count "
                    "as one more colour for the cookie."
                ),
            ),
            (
                N_("Optional with 2 or 3 players: discard"),
                N_(
                    "Put a card face down on the discard pile and draw a new one. If the draw "
                    "deck is empty, the discard pile is shuffled to become the new deck first."
                ),
            ),
            (
                N_("Optional with 4 players: partner swap"),
                N_(
                    "Offer a card face down to your partner, who picks one of their own cards "
                    "to give back, or refuses. After a refusal nothing changes and you may "
                    "still use your optional action this turn."
                ),
            ),
            (
                N_("Ending the turn"),
                N_(
                    "After your main action you may end your turn at any time. It ends by "
                    "itself once you have taken both actions."
                ),
            ),
        ),
    ),
    (
        N_("The cookie and the scores"),
        N_(
            "After 8 turns each, the game ends. The tea table is tidied up, then everyone "
            "counts their points."
        ),
        (
            (
                N_("{cookie} The cookie"),
                N_(
                    "It belongs to the player whose collection shows the most different "
                    "colours; all black hats together add a single colour. On a tie, the "
                    "tied player whose lowest face-up card is lower gets it; if that is equal "
                    "too, compare the next "
                    "lowest cards, and so on. If nothing separates them, the holder keeps it, "
                    "or it goes back to the napkin. It is worth 5 points at the end."
                ),
            ),
            (
                N_("Tidying the tea table"),
                N_(
                    "When a colour shows on several slots, only its lowest-numbered slot "
                    "counts; the others are turned face down."
                ),
            ),
            (
                N_("Scoring"),
                N_(
                    "• Each face-up card in your collection scores the number of the slot "
                    "where its colour is still face up, or nothing if it is not.\n"
                    "• Each black hat scores 1.\n"
                    "• Favourite hat: add the numbers of your face-up collection cards of its "
                    "colour, then subtract the favourite's own number (this can go below "
                    "zero).\n"
                    "• The cookie scores 5."
                ),
            ),
            (
                N_("Winning"),
                N_(
                    "The highest total wins. On a tie, the player with more black hats wins; "
                    "then the cookie holder; otherwise the win is shared. With 4 players, each "
                    "team adds up its two totals and teams are compared the same way."
                ),
            ),
        ),
    ),
)


def rules_messages(tr: Tr) -> list[list[tuple[str, str]]]:
    """The rules and scoring as message texts (R1–R21, in our own words), translated.

    Shape: one list per message, of ``(head, body)`` pages: a page's title and summary, then
    its sections. As few messages as Discord's 4,000 characters of text per Components V2
    message allow (one in every catalog language today); each head is cut to a quarter of
    that, each body to three quarters.
    """
    messages: list[list[tuple[str, str]]] = []
    used = 0
    for title, description, fields in RULES_PAGES:
        sections = [f"**{tr(name, cookie=COOKIE)}**\n{tr(value)}" for name, value in fields]
        head, body = f"### {tr(title)}\n{tr(description)}", "\n".join(sections)
        size = text_len(head) + text_len(body)
        if not messages or used + size > V2_TEXT_MAX:
            messages.append([])
            used = 0
        messages[-1].append(
            (truncate(head, V2_TEXT_MAX // 4), truncate(body, V2_TEXT_MAX * 3 // 4))
        )
        used += size
    return messages
