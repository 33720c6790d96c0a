"""Pictures on the game's messages: the table, hand, end and replay images.

Every such message is a Components V2 layout: its picture is an attachment shown by a media
gallery (``attachment://table.png``; Discord: "Uploading files", "Media Gallery") and carries
its full text description as the attachment's ``description`` (alt text). Editing a message
with ``attachments=[file]`` replaces its picture. Pictures are drawn by :mod:`pictures` from
the viewer's observation only (the public view for the table and the end, the seat's own for
a hand), in a worker thread, cached per game, state version, language, viewer and names.

A failed render is logged and the message goes out with its text alone: a picture is never
worth a lost update.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from pictures import PictureCache, PictureKey, render_end, render_hand, render_table
from texts.i18n import Tr
from texts.limits import ALT_MAX, fit_alt
from texts.replies import labels_for

if TYPE_CHECKING:
    from engine import Observation
    from service import GameSession

__all__ = [
    "ALT_MAX",
    "END_FILE",
    "HAND_FILE",
    "TABLE_FILE",
    "HandLayout",
    "Pictures",
    "edit_kwargs",
    "hand_file",
    "send_kwargs",
]

log = logging.getLogger("hats.pictures")

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
END_FILE = "end.png"


def send_kwargs(files: Sequence[discord.File] | None) -> dict[str, Any]:
    """Keyword arguments that add ``files`` to a new message (nothing when there are none)."""
    return {"files": list(files)} if files else {}


def hand_file(data: bytes, alt: str) -> discord.File:
    """The hand picture as ``hand.png`` with its alt text (``description``, ≤ 1,024 chars)."""
    return discord.File(io.BytesIO(data), filename=HAND_FILE, description=fit_alt(alt))


class HandLayout(Protocol):
    """What :meth:`Pictures.answer_with_hand` needs of a hand message (cogs.hand_layout)."""

    alt: str

    def view(self, *, picture: bool) -> discord.ui.LayoutView:
        """The layout with the picture's gallery, or with its content as text."""
        ...


def edit_kwargs(files: Sequence[discord.File] | None) -> dict[str, Any]:
    """Keyword arguments that make ``files`` the edited message's only attachments.

    None leaves the message's attachments as they are (its picture follows later).
    """
    return {} if files is None else {"attachments": list(files)}


class Pictures:
    """Renders the pictures of a game's messages as files for their media galleries.

    ``cache``: where pictures are kept (one per bot). ``enabled`` False sends text alone.
    """

    def __init__(self, cache: PictureCache | None = None, *, enabled: bool = True) -> None:
        """Use ``cache`` (a new 256-picture cache by default)."""
        self.cache = cache or PictureCache()
        self.enabled = enabled
        self._answers: dict[int, object] = {}
        """Message id -> token of the latest answer on it (a stale follow-up is dropped)."""
        self._follow_ups: set[asyncio.Task[None]] = set()

    @staticmethod
    def _key(
        session: GameSession, viewer: int | None, names: dict[int, str], tr: Tr, kind: str
    ) -> tuple[Observation, tuple[str, ...], PictureKey]:
        """What picture ``kind`` is drawn from, and its cache key.

        Returns ``viewer``'s observation (None: the public one), the seat names, and the key
        (game, version, language, viewer, names).
        """
        obs = session.game.observation(viewer)
        seat_names = tuple(label.plain_name for label in labels_for(session, names, tr))
        key = PictureKey(kind, session.id, session.version, tr.locale, viewer, seat_names)
        return obs, seat_names, key

    async def _attach(
        self,
        session: GameSession,
        viewer: int | None,
        names: dict[int, str],
        tr: Tr,
        filename: str,
        draw: Callable[[Observation, tuple[str, ...]], bytes],
        *,
        description: str,
        urgent: bool = False,
    ) -> list[discord.File]:
        """Draw ``filename`` from ``viewer``'s observation (None: the public one).

        Returns it as a file for a Components V2 media gallery; ``[]`` when pictures are
        disabled or drawing failed. ``urgent``: a player waits for it (drawn before the
        background pictures). ``description``: the file's alt text (cut to
        :data:`ALT_MAX` characters, Discord's attachment ``description``).
        """
        if not self.enabled:
            return []
        kind = filename.removesuffix(".png")
        obs, seat_names, key = self._key(session, viewer, names, tr, kind)
        try:
            data = await self.cache.get(key, lambda: draw(obs, seat_names), urgent=urgent)
        except Exception:
            log.exception("could not draw the %s picture of game %d", kind, session.id)
            return []
        return [discord.File(io.BytesIO(data), filename=filename, description=fit_alt(description))]

    async def table(
        self,
        session: GameSession,
        names: dict[int, str],
        tr: Tr,
        *,
        description: str,
    ) -> list[discord.File]:
        """The public table picture (public observation only): ``[table.png]``.

        For the table's media gallery; ``description``: its alt text. Returns ``[]`` when
        pictures are off or drawing fails.
        """
        return await self._attach(
            session,
            None,
            names,
            tr,
            TABLE_FILE,
            lambda o, n: render_table(o, n, tr),
            description=description,
        )

    async def hand(
        self,
        session: GameSession,
        seat: int,
        names: dict[int, str],
        tr: Tr,
        *,
        alt: str,
        urgent: bool = False,
    ) -> list[discord.File]:
        """``seat``'s own hand picture (that seat's observation only): ``[hand.png]``.

        ``alt``: its full text description (the attachment's ``description``, alt text for
        screen readers, cut to Discord's 1,024 characters). Returns ``[]`` when pictures are
        off or drawing failed. ``urgent``: for the answer to the player's own interaction.
        """
        if not self.enabled:
            return []
        obs, seat_names, key = self._key(session, seat, names, tr, HAND_FILE.removesuffix(".png"))
        try:
            data = await self.cache.get(
                key, lambda: render_hand(obs, seat_names, tr), urgent=urgent
            )
        except Exception:
            log.exception("could not draw the hand picture of game %d", session.id)
            return []
        return [hand_file(data, alt)]

    async def end(
        self,
        session: GameSession,
        names: dict[int, str],
        tr: Tr,
        *,
        description: str,
    ) -> list[discord.File]:
        """The final board and scores picture (R15–R20): ``[end.png]``.

        For the end screen's media gallery; ``description``: its alt text. Returns ``[]``
        when pictures are off or drawing fails.
        """

        def draw(obs: Observation, seat_names: tuple[str, ...]) -> bytes:
            return render_end(obs, seat_names, tr, game_id=session.id)

        return await self._attach(session, None, names, tr, END_FILE, draw, description=description)

    async def replay(
        self,
        game_id: int,
        point: int,
        obs: Observation,
        names: Sequence[str],
        tr: Tr,
        *,
        description: str,
    ) -> list[discord.File]:
        """The picture of a finished game's replay at ``point`` (0 = the deal).

        ``obs``: the PUBLIC observation of the game at that point (a running one draws the
        table, ``table.png``; the finished one the final board and scores, ``end.png``, R21);
        ``names``: one plain display name per seat; ``description``: its alt text (at most
        1,024 characters). Returns ``[]`` when pictures are off or drawing failed.
        """
        if not self.enabled:
            return []
        final = obs.result is not None
        filename = END_FILE if final else TABLE_FILE
        kind = "replay-end" if final else "replay"
        key = PictureKey(kind, game_id, point, tr.locale, None, tuple(names))

        def draw() -> bytes:
            if final:
                return render_end(obs, names, tr, game_id=game_id)
            return render_table(obs, names, tr)

        try:
            data = await self.cache.get(key, draw, urgent=True)
        except Exception:
            log.exception("could not draw the replay picture of game %d", game_id)
            return []
        return [discord.File(io.BytesIO(data), filename=filename, description=fit_alt(description))]

    async def answer_with_hand(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        names: dict[int, str],
        tr: Tr,
        message: HandLayout,
        respond: Callable[
            [discord.ui.LayoutView, list[discord.File | discord.Attachment]], Awaitable[object]
        ],
        *,
        in_place: bool = False,
    ) -> None:
        """Answer ``interaction`` at once with ``seat``'s hand; its picture goes along or follows.

        ``message`` builds the layout with or without the picture (``message.view(picture=)``)
        and holds its alt text. ``respond(view, attachments)`` sends the answer with exactly
        those attachments: new files, or the clicked message's own picture to keep. When the
        picture is already drawn it goes with the answer; otherwise the answer goes out at
        once and the new picture replaces it by an edit of the interaction response (a
        followup: not rate limited). So a move's answer never waits for the drawing
        (BENCHMARKS.md, "The pictures in the bot under load"). Meanwhile an answer that edits
        the clicked message (``in_place``) keeps that message's hand picture, naming it
        explicitly; when Discord refuses to keep it (the copy of the message the click came
        with was stale: a double tap whose first tap removed the picture), or for a new
        message, the state shows as text. No answer references an attachment it neither
        sends nor keeps (issue 29.5). The follow-up is dropped when the game moved on or the
        message was answered again meanwhile.
        """
        previous = interaction.message
        target = previous.id if previous is not None else interaction.id
        self._answers.pop(target, None)  # an older answer's follow-up is dropped
        obs, seat_names, key = self._key(session, seat, names, tr, HAND_FILE.removesuffix(".png"))
        data = self.cache.peek(key) if self.enabled else None
        if data is not None or not self.enabled:
            files: list[discord.File | discord.Attachment] = (
                [hand_file(data, message.alt)] if data is not None else []
            )
            await respond(message.view(picture=data is not None), files)
            return
        drawing = asyncio.ensure_future(
            self.cache.get(key, lambda: render_hand(obs, seat_names, tr), urgent=True)
        )
        kept = [
            a
            for a in (previous.attachments if in_place and previous else ())
            if a.filename == HAND_FILE
        ][:1]
        token = self._answers[target] = object()
        try:
            await respond(message.view(picture=bool(kept)), list(kept))  # the old one, for now
        except discord.HTTPException:
            if not kept:
                raise
            # the picture is gone already (a stale copy of the message): the state as text
            await respond(message.view(picture=False), [])
        version = session.version
        task = asyncio.create_task(
            self._follow_up(interaction, session, version, target, token, message, drawing)
        )
        self._follow_ups.add(task)
        task.add_done_callback(self._follow_ups.discard)

    async def _follow_up(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        version: int,
        target: int,
        token: object,
        message: HandLayout,
        drawing: asyncio.Future[bytes],
    ) -> None:
        try:
            data = await drawing
        except Exception:
            log.exception("could not draw the hand picture of game %d", session.id)
            data = None
        if self._answers.get(target) is not token:
            return  # answered again meanwhile: that answer has its own picture
        del self._answers[target]
        if data is None or session.version != version:
            return  # the game moved on: its next update carries the new picture
        with contextlib.suppress(discord.HTTPException):  # the message may be gone
            await interaction.edit_original_response(
                view=message.view(picture=True), attachments=[hand_file(data, message.alt)]
            )
