"""The project's own docs: every relative link and anchor in README.md, docs/*.md and
BENCHMARKS.md resolves, docs/RULES.md keeps every rule id in our own words, docs/GAME_RECORD.md
is the hats-record/1 contract unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


DOCS = [
    "README.md",
    *sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/*.md")),
    "BENCHMARKS.md",
]
"""Every Markdown file a reader follows links through (paths relative to the repository)."""

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<img\s[^>]*src=\"([^\"]+)\"")


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks (a ``# comment`` there is no heading)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file, with GitHub's -1, -2 for repeated headings."""
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = _slug(match.group(1))
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _links(page: Path) -> list[str]:
    """The targets of a page's Markdown links, images and <img> tags (not in code)."""
    found = []
    for line in _prose(page.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", "", line)  # `a](b)` in code is no link
        found += [a or b for a, b in LINK.findall(line)]
    return found


def _broken(page: Path) -> list[str]:
    """The page's relative links whose file, or whose heading anchor, does not exist."""
    broken = []
    for target in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        file = page.parent / path if path else page
        missing_anchor = anchor and file.suffix == ".md" and anchor not in _anchors(file)
        if not file.exists() or missing_anchor:
            broken.append(target)
    return broken


def test_readme_links_point_into_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/RULES.md" not in readme and "shared/GAME_RECORD.md" not in readme
    assert "docs/RULES.md" in readme and "docs/GAME_RECORD.md" in readme


@pytest.mark.parametrize("name", DOCS)
def test_every_relative_link_and_anchor_resolves(name: str):
    assert _broken(ROOT / name) == []


def test_the_link_check_catches_a_missing_file_and_a_missing_anchor(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# A guide\n\n## Configuration (`.env`)\n")
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/guide.md#configuration-env) [top](#read-me) ![pic](docs/guide.md)\n"
        "[gone](docs/missing.md) [no anchor](docs/guide.md#nothing-here) [web](https://x.org/a)\n"
        '<img src="docs/missing.png" alt="">\n'
        "```bash\n# Read me\n[in code](docs/also-missing.md)\n```\n# Read me\n"
    )
    assert _broken(page) == ["docs/missing.md", "docs/guide.md#nothing-here", "docs/missing.png"]


def test_the_readme_is_a_five_minute_read_and_links_every_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 260
    for guide in ("players", "hosts", "translators", "contributors"):
        assert f"](docs/{guide}.md)" in readme, guide


def test_code_cites_the_docs_in_the_repository():
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("cogs/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "shared/RULES.md" not in text and "shared/GAME_RECORD.md" not in text, path


def test_rules_keep_every_rule_id_and_decision():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    for n in range(1, 22):
        assert re.search(rf"\*\*R{n}\b", rules), f"R{n}"
    for rule in ("R6", "R9", "R10", "R11", "R13", "R20"):  # the spec's decisions
        section = " ".join(rules.split(f"**{rule}", 1)[1].split("- **R", 1)[0].split())
        assert "Our choice" in section, rule


@pytest.mark.skipif(not (SHARED / "RULES.md").exists(), reason="no shared spec on this machine")
def test_rules_are_in_our_own_words():
    ours = _words((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))
    spec = _words((SHARED / "RULES.md").read_text(encoding="utf-8"))
    n = 9
    spec_runs = {tuple(spec[i : i + n]) for i in range(len(spec) - n + 1)}
    copied = [" ".join(ours[i : i + n]) for i in range(len(ours) - n + 1)]
    copied = [run for run in copied if tuple(run.split()) in spec_runs]
    assert copied == []


@pytest.mark.skipif(not (SHARED / "GAME_RECORD.md").exists(), reason="no shared contract here")
def test_game_record_is_the_contract_unchanged():
    ours = (ROOT / "docs" / "GAME_RECORD.md").read_bytes()
    assert ours == (SHARED / "GAME_RECORD.md").read_bytes()
