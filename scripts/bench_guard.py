"""Table-talk guard benchmark: precision, recall and false blocks per language.

Usage:
    python scripts/bench_guard.py [--errors] [--lang en,de,es,fr,it] [--markdown]
        [--set main|heldout] [--guard path/to/table_talk.py]

Reads the labelled sentences in ``tests/guard/sentences/<lang>.tsv`` (``leak`` or ``ok``, a
tab, the sentence; see that folder's README; ``--set heldout``: the smaller set in
``tests/guard/sentences/heldout/``, written after the guard was tuned and not used to tune
it) and runs every sentence through ``texts.table_talk.check_table_talk`` (R10), or through
``check_table_talk`` of the file given with ``--guard`` (an older version, e.g.
``git show main:texts/table_talk.py > /tmp/old_guard.py``). A sentence counts as blocked when
the verdict is not allowed. Per language it prints: the number of leaks and of ordinary
sentences, true blocks (leaks blocked), missed leaks, false blocks (ordinary sentences
blocked), precision = true blocks / all blocks, recall = true blocks / leaks. ``--errors``
also lists every missed leak and false block with the guard's hits; ``--markdown`` prints the
table as Markdown (for BENCHMARKS.md). ``--worst`` also prints the time of one check of
adversarial 6,000-character messages (the longest a slash command option takes), in ms of
``time.process_time``, median of 5. Pure CPU, well under a second.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from texts.table_talk import TalkVerdict, check_table_talk  # noqa: E402

SENTENCES = ROOT / "tests" / "guard" / "sentences"
LANGUAGES = ("en", "de", "es", "fr", "it")
LABELS = ("leak", "ok")


@dataclass(frozen=True, slots=True)
class Labelled:
    """One labelled sentence: ``leak`` is True when it names a card (R10)."""

    text: str
    leak: bool
    line: int


@dataclass(frozen=True, slots=True)
class Score:
    """How a guard did on one language's sentences (counts; rates in 0..1)."""

    lang: str
    leaks: int
    ordinary: int
    true_blocks: int
    false_blocks: int
    missed: tuple[Labelled, ...]
    wrongly_blocked: tuple[Labelled, ...]

    @property
    def precision(self) -> float:
        """Blocked leaks / every blocked sentence (1.0 when nothing is blocked)."""
        blocked = self.true_blocks + self.false_blocks
        return self.true_blocks / blocked if blocked else 1.0

    @property
    def recall(self) -> float:
        """Blocked leaks / every leak (1.0 without leaks)."""
        return self.true_blocks / self.leaks if self.leaks else 1.0


def load_sentences(lang: str, folder: Path = SENTENCES) -> list[Labelled]:
    """The labelled sentences of ``lang``. Raises ValueError on a malformed line."""
    out = []
    path = folder / f"{lang}.tsv"
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        label, sep, text = line.partition("\t")
        if not sep or label not in LABELS or not text.strip():
            raise ValueError(f"{path}:{number}: expected 'leak|ok<TAB>sentence', got {line!r}")
        out.append(Labelled(text, label == "leak", number))
    return out


def score(
    lang: str,
    sentences: Iterable[Labelled],
    guard: Callable[[str], TalkVerdict] = check_table_talk,
) -> Score:
    """Run ``guard`` over ``sentences`` and count its blocks."""
    leaks = ordinary = true_blocks = false_blocks = 0
    missed: list[Labelled] = []
    wrong: list[Labelled] = []
    for item in sentences:
        blocked = not guard(item.text).allowed
        if item.leak:
            leaks += 1
            if blocked:
                true_blocks += 1
            else:
                missed.append(item)
        else:
            ordinary += 1
            if blocked:
                false_blocks += 1
                wrong.append(item)
    return Score(lang, leaks, ordinary, true_blocks, false_blocks, tuple(missed), tuple(wrong))


def _table(scores: list[Score], markdown: bool) -> str:
    head = ("lang", "leaks", "ordinary", "blocked leaks", "missed", "false blocks",
            "precision", "recall")  # fmt: skip
    rows = [
        (
            s.lang,
            str(s.leaks),
            str(s.ordinary),
            str(s.true_blocks),
            str(len(s.missed)),
            str(s.false_blocks),
            f"{s.precision:.3f}",
            f"{s.recall:.3f}",
        )
        for s in scores
    ]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    return "\n".join(
        "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
        for row in (head, *rows)
    )


def _load_guard(path: Path) -> Callable[[str], TalkVerdict]:
    """``check_table_talk`` of another version of the guard module at ``path``."""
    spec = importlib.util.spec_from_file_location("guard_under_test", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module.check_table_talk


def main(argv: list[str] | None = None) -> int:
    """Print the table (and with ``--errors`` every mistake); exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default=",".join(LANGUAGES))
    parser.add_argument("--errors", action="store_true", help="list missed leaks and false blocks")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--set", choices=("main", "heldout"), default="main")
    parser.add_argument("--guard", type=Path, help="a table_talk.py to measure instead")
    parser.add_argument("--worst", action="store_true", help="time adversarial long messages")
    args = parser.parse_args(argv)
    folder = SENTENCES if args.set == "main" else SENTENCES / "heldout"
    guard = check_table_talk if args.guard is None else _load_guard(args.guard)
    scores = [score(lang, load_sentences(lang, folder), guard) for lang in args.lang.split(",")]
    print(_table(scores, args.markdown))
    if args.errors:
        for s in scores:
            for item in s.missed:
                print(f"[{s.lang}] missed leak     {item.text!r}")
            for item in s.wrongly_blocked:
                hits = ", ".join(h.text for h in guard(item.text).hits)
                print(f"[{s.lang}] false block     {item.text!r}  ({hits})")
    if args.worst:
        _print_worst(guard)
    return 0


WORST_CASES = {
    "spaced letters 'a b a b …'": "a b " * 1500,
    "spelled colour 'r e d r e d …'": "r e d " * 1000,
    "public numbers 'slots 1 and 2 and …'": "slots " + "1 and 2 and " * 600,
    "card numbers '5 and 5 and …'": "5 and " * 1000,
    "chat 'take slot 2 and wait for round 3 ok …'": "take slot 2 and wait for round 3 ok " * 170,
}


def _print_worst(guard: Callable[[str], TalkVerdict]) -> None:
    guard("warm up 1")
    for name, text in WORST_CASES.items():
        text = text[:6000]
        runs = []
        for _ in range(5):
            start = time.process_time()
            guard(text)
            runs.append((time.process_time() - start) * 1000)
        print(f"{statistics.median(runs):9.1f} ms  {name}")


if __name__ == "__main__":
    raise SystemExit(main())
