"""Which language where: private texts in the player's language, public ones in the server's.

Every translation of the catalogs used here carries its language's tag (``"‹de›Join‹/›"``, see
tests/bot/language_support.py), so each text a player reads says where it came from. Players'
Discord clients are set to German, Spanish, French and Italian; the server's language is
English (test 1) or Italian, then French by ``/hats settings language`` (test 2).
"""

from __future__ import annotations

import random
import re

import discord
import pytest

from cogs.controls import LobbyOp, TableOp
from engine import ActionKind
from tests.bot.helpers import act_on_hand, bot_messages, custom_ids, dm_of, session_of
from tests.bot.language_support import (
    set_client_locales,
    tagged_translator,
    tags_of,
    texts_of,
    untranslated,
)

SWAP_TIMEOUT = 60


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "swap_timeout": float(SWAP_TIMEOUT)}


@pytest.fixture
def simcord_bot(make_bot, tmp_path):
    bot = make_bot()
    bot.translator = tagged_translator(tmp_path / "locales")
    return bot


class Watch:
    """Checks every message players receive: DMs, answers, the channel, the team threads."""

    def __init__(self, env, channel, players, langs: dict[int, str], server: str) -> None:
        self.env = env
        self.channel = channel
        self.players = players
        self.langs = langs  # user id -> catalog language ("de"...)
        self.server = server  # "en" or a catalog language
        self.answers = 0

    def public_tags(self) -> set[str]:
        return set() if self.server == "en" else {self.server}

    def check_answer(self, player, result) -> None:
        """An interaction's response and followups: private ones in the player's language."""
        messages = [result.response] if result.response is not None else []
        messages += list(result.followups)
        dm = dm_of(player)
        for m in messages:
            private = m.ephemeral or (dm is not None and m.channel_id == dm.id)
            want = {self.langs[player.user.id]} if private else self.public_tags()
            assert tags_of(m.message) == want, (player.user.name, texts_of(m.message))
            if private or self.server != "en":
                assert not self.words_untagged(m.message), self.words_untagged(m.message)
            self.answers += 1

    def words_untagged(self, message) -> list[str]:
        """Words no catalog produced (names, mentions and "Hats" left out)."""
        names = "|".join(re.escape(p.user.name) for p in self.players)
        out = []
        for piece in texts_of(message):
            bare = re.sub(rf"<[@#]\d+>|{names}|Hats", "", untranslated(piece))
            out += re.findall(r"[^\W\d_]{3,}", bare)
        return out

    def check_all(self) -> None:
        for player in self.players:
            dm = dm_of(player)
            for m in dm.history() if dm is not None else ():
                assert tags_of(m) == {self.langs[player.user.id]}, (player.user.name, texts_of(m))
                assert not self.words_untagged(m), self.words_untagged(m)
        for m in bot_messages(self.env, self.channel):
            if not m.flags.ephemeral:
                assert tags_of(m) == self.public_tags(), texts_of(m)
                if self.server != "en":
                    assert not self.words_untagged(m), self.words_untagged(m)
        for th in self.channel.threads:
            for m in th.history(viewer=self.players[0]) if self._in(th, 0) else ():
                if m.author.id == self.env.bot.user.id:
                    assert tags_of(m) == self.public_tags(), texts_of(m)

    def _in(self, thread, index) -> bool:
        try:
            thread.history(viewer=self.players[index])
        except Exception:
            return False
        return True


def _player(players, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in players if p.user.id == user_id)


def _table(env, channel, session):
    stored = session.message("table")
    return next(m for m in bot_messages(env, channel) if m.id == stored.message_id)


def _hand_dm(session, player, seat):
    """The player's live hand DM, or (no live one: not their turn) the last DM they got."""
    stored = session.message("dm", seat)
    if stored is None or stored.message_id is None:
        return dm_of(player).history()[-1]
    return next(m for m in dm_of(player).history() if m.id == stored.message_id)


async def test_four_players_each_read_their_own_language_and_the_channel_the_servers(
    simcord_env, monkeypatch
):
    env = simcord_env
    guild = env.create_guild("Salon de thé", preferred_locale="en-US")
    channel = guild.create_text_channel("hats")
    names_langs = [("anna", "de"), ("bruno", "es-ES"), ("chloe", "fr"), ("dario", "it")]
    players = [guild.add_member(env.create_user(n)) for n, _ in names_langs]
    locales = {p.user.id: loc for p, (_, loc) in zip(players, names_langs, strict=True)}
    set_client_locales(monkeypatch, locales)
    langs = {uid: loc[:2] for uid, loc in locales.items()}
    watch = Watch(env, channel, players, langs, "en")

    host = players[0]
    result = await host.slash(channel, "hats new")
    watch.check_answer(host, result)
    lobby = result.response.message
    for p in players[1:]:
        r = await p.click(lobby, custom_id=f"hats:l:{session_id_of(lobby)}:{LobbyOp.JOIN.value}")
        watch.check_answer(p, r)
        watch.check_all()
    r = await host.click(lobby, custom_id=f"hats:l:{session_id_of(lobby)}:{LobbyOp.START.value}")
    watch.check_answer(host, r)
    session = await session_of(env, channel)
    game = session.game
    watch.check_all()

    # ephemeral answers: a wrong card, the rules, the hand, the card autocomplete
    for seat, p in enumerate(_player(players, session, s) for s in range(4)):
        r = await p.slash(channel, "hats blackhat", card="xyz9")
        assert r.ephemeral
        watch.check_answer(p, r)
        r = await p.click(
            _table(env, channel, session), custom_id=f"hats:t:{session.id}:{TableOp.RULES.value}"
        )
        watch.check_answer(p, r)
        r = await p.slash(channel, "hats hand")
        watch.check_answer(p, r)
        choices = await p.autocomplete(channel, "hats blackhat", "card", "")
        assert len(choices) == len(game.hands[seat])
        assert all(f"‹{langs[p.user.id]}›" in c["name"] for c in choices), choices

    rng = random.Random(11)
    swaps = {"answer": 0, "decline": 0, "lapse": 0}
    while not game.is_over:
        seat = game.to_move
        player = _player(players, session, seat)
        legal = game.legal_actions(seat)
        if game.pending_offer is not None:
            mode = ("answer", "decline", "lapse")[sum(swaps.values()) % 3]
            swaps[mode] += 1
            if mode == "lapse":
                await env.advance_time(SWAP_TIMEOUT + 1)
                watch.check_all()
                continue
            kind = ActionKind.ANSWER_SWAP if mode == "answer" else ActionKind.DECLINE_SWAP
            action = next(a for a in legal if a.kind is kind)
        else:
            kinds = {a.kind for a in legal}
            if ActionKind.OFFER_SWAP in kinds and rng.random() < 0.5:
                action = rng.choice([a for a in legal if a.kind is ActionKind.OFFER_SWAP])
            else:
                action = rng.choice([a for a in legal if a.kind is not ActionKind.OFFER_SWAP])
        await act_on_hand(session, player, _hand_dm(session, player, seat), action)
        watch.check_all()
    assert min(swaps.values()) >= 1, swaps
    # the end screen is public, in the server's language (English: no tag at all)
    final = bot_messages(env, channel)[-1]
    assert final.attachments and tags_of(final) == set()
    # team chat: the guard's answer in the sender's language
    r = await players[1].slash(channel, "hats team message", text="rojo")
    watch.check_answer(players[1], r)
    assert watch.answers == 18  # /hats new, 3 joins, start, 4 × (wrong card, rules, hand), guard


def session_id_of(lobby_message) -> int:
    """The lobby id carried by the lobby message's buttons."""
    for custom_id in custom_ids(lobby_message):
        if custom_id.startswith("hats:l:"):
            return int(custom_id.split(":")[2])
    raise AssertionError("no lobby button")


async def test_hats_language_sets_the_public_language_and_only_managers_may(
    simcord_env, monkeypatch
):
    env = simcord_env
    guild = env.create_guild("Sala da tè", preferred_locale="it")
    channel = guild.create_text_channel("hats")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    anna = guild.add_member(env.create_user("anna"), roles=[managers])
    bruno = guild.add_member(env.create_user("bruno"))
    set_client_locales(monkeypatch, {anna.user.id: "de", bruno.user.id: "es-ES"})
    watch = Watch(env, channel, [anna, bruno], {anna.user.id: "de", bruno.user.id: "es"}, "it")

    r = await anna.slash(channel, "hats new")
    lobby = r.response.message
    assert tags_of(lobby) == {"it"}  # the server's language, not the host's
    lobby_id = session_id_of(lobby)
    r = await bruno.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.JOIN.value}")
    watch.check_answer(bruno, r)
    watch.check_all()  # still Italian after a Spanish player's click

    # only a server manager may change it; a bad value changes nothing
    r = await bruno.slash(channel, "hats settings language", language="fr")
    assert r.ephemeral and "Manage Server" in r.response.content
    watch.check_answer(bruno, r)
    r = await anna.slash(channel, "hats settings language", language="klingon")
    assert r.ephemeral and "'klingon'" in r.response.content
    watch.check_answer(anna, r)
    assert await env.bot.store.guild_settings.language(guild.id) is None
    watch.check_all()

    # a manager sets French: stored, the open lobby redrawn, everything public after it French
    r = await anna.slash(channel, "hats settings language", language="Français")
    assert r.ephemeral and "Français" in r.response.content
    watch.check_answer(anna, r)
    assert await env.bot.store.guild_settings.language(guild.id) == "fr"
    watch.server = "fr"
    watch.check_all()
    r = await anna.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.START.value}")
    watch.check_answer(anna, r)
    session = await session_of(env, channel)
    watch.check_all()  # the table in French, each DM in its player's language

    # back to the server default: the live table is redrawn in Italian
    r = await anna.slash(channel, "hats settings language", language="default")
    assert r.ephemeral and "Italiano" in r.response.content
    watch.check_answer(anna, r)
    assert await env.bot.store.guild_settings.language(guild.id) is None
    watch.server = "it"
    assert tags_of(_table(env, channel, session)) == {"it"}
    seat = session.game.to_move
    player = _player([anna, bruno], session, seat)
    action = next(a for a in session.game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
    await act_on_hand(session, player, _hand_dm(session, player, seat), action)
    assert tags_of(_table(env, channel, session)) == {"it"}
    for uid, lang in watch.langs.items():
        p = anna if uid == anna.user.id else bruno
        assert tags_of(_hand_dm(session, p, session.seat_of(uid))) == {lang}


async def test_a_player_not_seen_since_a_restart_gets_dms_in_the_servers_language(
    simcord_env, monkeypatch, make_bot, tmp_path
):
    env = simcord_env
    guild = env.create_guild("Sala da tè", preferred_locale="it")
    channel = guild.create_text_channel("hats")
    anna = guild.add_member(env.create_user("anna"))
    bruno = guild.add_member(env.create_user("bruno"))
    set_client_locales(monkeypatch, {anna.user.id: "de", bruno.user.id: "es-ES"})
    lobby = (await anna.slash(channel, "hats new")).response.message
    lobby_id = session_id_of(lobby)
    await bruno.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.JOIN.value}")
    await anna.click(lobby, custom_id=f"hats:l:{lobby_id}:{LobbyOp.START.value}")

    fresh = make_bot()
    fresh.translator = tagged_translator(tmp_path / "after-restart")
    await env.restart_bot(fresh)  # the new bot has seen nobody's locale yet
    session = await session_of(env, channel)
    seat = session.game.to_move
    mover, other = (anna, bruno) if session.seats[seat].user_id == anna.user.id else (bruno, anna)
    action = next(a for a in session.game.legal_actions(seat) if a.kind is ActionKind.EXCHANGE)
    await act_on_hand(session, mover, _hand_dm(session, mover, seat), action)
    langs = {anna.user.id: "de", bruno.user.id: "es"}
    assert tags_of(_hand_dm(session, mover, seat)) == {langs[mover.user.id]}  # just seen
    if session.game.to_move == seat:  # the turn did not end by itself
        end = next(a for a in session.game.legal_actions(seat) if a.kind is ActionKind.END_TURN)
        await act_on_hand(session, mover, _hand_dm(session, mover, seat), end)
    other_seat = session.seat_of(other.user.id)
    assert session.game.to_move == other_seat
    assert tags_of(_hand_dm(session, other, other_seat)) == {"it"}  # unknown: the server's
    await other.slash(channel, "hats hand")  # now the bot knows the other's language too
    action = next(
        a for a in session.game.legal_actions(other_seat) if a.kind is ActionKind.EXCHANGE
    )
    await act_on_hand(session, other, _hand_dm(session, other, other_seat), action)
    m = _hand_dm(session, other, other_seat)
    assert tags_of(m) == {langs[other.user.id]}, (m.content, [e.to_dict() for e in m.embeds])
