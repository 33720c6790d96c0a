"""Reading the project's own source as syntax trees, for tests that check the code itself.

CPython 3.11.7 (python/cpython#106905) keeps the AST converter's recursion depth in module
state shared by every conversion: when a garbage collection inside ``ast.parse`` finalizes an
object whose finalizer formats a traceback (3.11's traceback module parses source lines with
``ast`` for its carets), the nested conversion moves the outer one's counter and the outer
``ast.parse`` fails with "SystemError: AST constructor recursion depth mismatch". Parsing with
the collector paused keeps finalizers out of the conversion.
"""

from __future__ import annotations

import ast
import gc
from pathlib import Path

__all__ = ["parse_source"]


def parse_source(path: Path) -> ast.Module:
    """The syntax tree of the Python file ``path`` (UTF-8), parsed with the collector paused."""
    text = path.read_text(encoding="utf-8")
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(text, filename=str(path))
    finally:
        if enabled:
            gc.enable()
