"""Command line: ``python -m engine simulate ...`` and ``python -m engine bench ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine import bench, simulate


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m engine`` argument parser with its two commands."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="Hats rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    simulate.add_arguments(
        commands.add_parser("simulate", help="write random games as hats-record/1 JSON lines")
    )
    bench.add_arguments(commands.add_parser("bench", help="measure engine throughput"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process arguments) and run the command; exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        return simulate.run(args)
    return bench.run(args)


if __name__ == "__main__":
    sys.exit(main())
