"""Issue 9, a new player's rough edges in what the renderers print: no rule ids, plain words,
no empty piles with 4 players, each seat named once, one line per swap offer, short AI lines,
a closed lobby without stale status."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from render_support import EN, finished_game, game_after, seat_labels

from tests.source import parse_source
from texts import LobbyInfo
from texts.common import seat_mention
from texts.end import end_texts
from texts.lobby import lobby_texts
from texts.table import table_texts

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "texts" / "locales" / "messages.pot"
RULE_ID = re.compile(r"\bR([1-9]|1[0-9]|2[01])\b")


def _msgids() -> list[str]:
    text = POT.read_text(encoding="utf-8")
    out, current = [], None
    for line in text.splitlines():
        if line.startswith(("msgid ", "msgid_plural ")):
            if current is not None:
                out.append(current)
            current = line.split(" ", 1)[1].strip().strip('"')
        elif line.startswith('"') and current is not None:
            current += line.strip().strip('"')
        elif current is not None:
            out.append(current)
            current = None
    return [m for m in out if m]


def test_no_rule_id_in_any_player_text():
    assert [m for m in _msgids() if RULE_ID.search(m)] == []
    # every string in the words and the two surfaces that is not a docstring (errors included)
    found = []
    for path in [p for room in ("texts", "cogs", "web") for p in (ROOT / room).rglob("*.py")]:
        tree = parse_source(path)
        bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        found += [
            f"{path.name}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in bare
            and RULE_ID.search(node.value)
        ]
    assert found == []


def test_no_jargon_about_turned_down_slots_in_the_end_screen():
    for seed in range(1, 30):
        game = finished_game(3, seed)
        result = game.observation(None).result
        if len(result.face_up_slots) < len(result.board):
            break
    obs = game.observation(None)
    texts = end_texts(obs, seat_labels(3), EN, game_id=1, pictures=False)
    text = "\n".join([texts.head, texts.results, texts.alt])
    assert "its type shows" not in text and "their types show" not in text
    assert "~~" in texts.results and "(×)" in texts.alt  # struck through, marked for readers


def _table(seats: int, seed: int, steps: int) -> str:
    """Everything the public table says with pictures off, and its picture's alt text."""
    obs = game_after(seats, seed, steps).observation(None)
    texts = table_texts(obs, seat_labels(seats), EN, game_id=1, pictures=False)
    return "\n".join([texts.head, texts.recent, texts.state or "", texts.alt])


def test_four_player_table_has_no_empty_piles_but_three_players_do():
    four = _table(4, 2, 5)
    assert "Draw deck" not in four and "Discard pile" not in four
    three = _table(3, 2, 5)
    assert "Draw deck" in three and "Discard pile" in three


def test_each_seat_is_named_once_on_the_table_and_the_end_screen():
    labels = seat_labels(3, ai=(2,))
    obs = game_after(3, 3, 9).observation(None)
    state = table_texts(obs, labels, EN, game_id=1, pictures=False).state
    for label in labels:
        (line,) = [x for x in state.splitlines() if label.mention() in x]
        assert line.count(label.mention()) == 1, line
    assert "🤖 Robo2" in state
    obs = finished_game(3, 3).observation(None)
    results = end_texts(obs, labels, EN, game_id=1, pictures=False).results
    for label in labels:
        named = seat_mention(labels, label.seat, EN)
        assert len([x for x in results.splitlines() if named in x]) == 1, named
    assert "🤖" in next(x for x in results.splitlines() if "Robo2" in x)


def test_ai_in_the_lobby_is_one_short_line():
    labels = tuple(seat_labels(3, ai=(1,)))
    text = "\n".join(lobby_texts(LobbyInfo(host_id=1001, seats=labels), EN))
    assert "🤖 Robo1 · hard" in text
    assert "(AI," not in text


def test_closed_lobby_shows_one_line_and_nothing_stale():
    """A lobby that is over is one line (LobbyCog.closed_view): its status, nothing else."""
    from cogs.lobby import LobbyCog

    view = LobbyCog.closed_view("The game has started.")
    (item,) = view.children
    assert item.content == "The game has started."
