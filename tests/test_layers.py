"""The house keeps its shape: imports go one way.

    engine ← data ← service ← texts ← {cogs, web} ← bot.py

Every module of the project's packages is parsed with ``ast`` (nothing is imported), and each
import is checked against the layer of the importing package: a package may import its own
layer and the ones below, never one above, and nothing below ``cogs`` imports discord.py.
``pictures``, ``history`` and ``coach`` are libraries over the engine (the store keeps ratings with
``history``), so they sit beside ``engine``'s first floor. ``telemetry`` (metrics, JSON logs)
sits on the ground floor beside ``engine`` and imports nothing of the project, so every layer
may count what it sees; ``runtime`` (the garbage collector's policy that ``bot.py``
installs) too; so does ``tournament`` (the pure rules of a Swiss tournament: tables,
pairings, points, standings), which the service uses. ``texts`` (the game's words: the
translator and its catalogs, every sentence about the game, user-text quoting, the team-chat
guard) stands between the service and the two surfaces and returns plain strings: neither it
nor anything below imports discord.py or aiohttp. The two surfaces, ``cogs`` (Discord chat)
and ``web`` (the Activity's server), stand side by side on one floor and never import each
other; ``bot.py`` wires them. The only exception: a cog may name
``bot.HatsBot`` in a type annotation (an import inside ``if TYPE_CHECKING:``), as RoboDanny's
cogs do; it is never imported at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.source import parse_source

ROOT = Path(__file__).resolve().parents[1]

LAYERS = {
    "runtime": 0,
    "telemetry": 0,
    "engine": 0,
    "tournament": 0,
    "coach": 1,
    "history": 1,
    "pictures": 1,
    "data": 2,
    "service": 3,
    "texts": 4,
    "cogs": 5,
    "web": 5,
    "bot": 6,
}
"""Each package's floor; an import may only name packages on the same floor or below."""

DISCORD = {"discord", "aiohttp"}
"""Discord's libraries: only ``cogs`` and ``bot.py`` may import them (``web`` aiohttp only)."""


def _modules(package: str) -> list[Path]:
    if package == "bot":
        return [ROOT / "bot.py"]
    return sorted((ROOT / package).rglob("*.py"))


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """Line numbers inside ``if TYPE_CHECKING:`` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, top-level module, type-only)`` for every import in ``path`` (any depth)."""
    return [(line, name.split(".")[0], typing) for line, name, typing in full_imports(path)]


def full_imports(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, module, type-only)`` for every import in ``path`` (any depth)."""
    tree = parse_source(path)
    typing_only = _type_checking_lines(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            found.append((node.lineno, name, node.lineno in typing_only))
    return found


def violations(package: str) -> list[str]:
    """The upward and Discord imports of ``package``, as ``path:line imports name``."""
    floor = LAYERS[package]
    bad = []
    for path in _modules(package):
        for line, name, type_only in full_imports(path):
            top = name.split(".")[0]
            where = f"{path.relative_to(ROOT)}:{line} imports {top}"
            if top in DISCORD and floor < LAYERS["cogs"]:
                bad.append(where + " (no Discord below cogs/)")
            elif package == "web" and top == "discord":
                bad.append(where + " (web/ speaks HTTP, not discord.py)")
            elif package == "web" and top == "cogs":
                bad.append(where + " (web/ is beside cogs/)")
            elif package == "cogs" and top == "web":
                bad.append(where + " (cogs/ is beside web/)")
            elif top in LAYERS and LAYERS[top] > floor:
                if package == "cogs" and top == "bot" and type_only:
                    continue  # the HatsBot annotation
                bad.append(where + " (an upward import)")
    return bad


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_go_downward_only(package):
    assert _modules(package), f"no modules found for {package}"
    assert violations(package) == []


def test_the_check_sees_an_upward_and_a_discord_import(tmp_path, monkeypatch):
    """The checker itself fails on what it must catch (a test that cannot fail is a defect)."""
    fake = tmp_path / "service"
    fake.mkdir()
    (fake / "bad.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "import discord\n"
        "if TYPE_CHECKING:\n"
        "    from cogs.play import PlayCog\n"
        "def f():\n"
        "    from bot import HatsBot\n"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    found = violations("service")
    assert [v.split(" imports ")[1] for v in found] == [
        "discord (no Discord below cogs/)",
        "cogs (an upward import)",
        "bot (an upward import)",
    ]


def test_the_check_keeps_web_beside_cogs(tmp_path, monkeypatch):
    """web/ uses the words but no cog, nor discord.py; cogs/ never imports web/."""
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "bad.py").write_text(
        "import discord\nimport aiohttp\nfrom texts import describe_event\n"
        "from cogs.replies import send_private\n"
    )
    (tmp_path / "cogs").mkdir()
    (tmp_path / "cogs" / "bad.py").write_text("from web import WebServer\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert [v.split(" imports ")[1] for v in violations("web")] == [
        "discord (web/ speaks HTTP, not discord.py)",
        "cogs (web/ is beside cogs/)",
    ]
    assert [v.split(" imports ")[1] for v in violations("cogs")] == ["web (cogs/ is beside web/)"]


def test_the_check_keeps_the_words_below_both_surfaces(tmp_path, monkeypatch):
    """texts/ imports neither a surface nor a Discord library (it returns plain strings)."""
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "bad.py").write_text(
        "import aiohttp\nfrom discord.utils import escape_markdown\nfrom cogs.style import COLOUR\n"
        "from web.views import view_frame\nfrom service import GameService\n"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert [v.split(" imports ")[1] for v in violations("texts")] == [
        "aiohttp (no Discord below cogs/)",
        "discord (no Discord below cogs/)",
        "cogs (an upward import)",
        "web (an upward import)",
    ]
