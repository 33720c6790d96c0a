"""Store commands: ``python -m data migrate-to URL`` copies the SQLite database to PostgreSQL.

Usage::

    python -m data migrate-to postgresql://hats:PASSWORD@localhost/hats [--from hats.sqlite3]
                                                                        [--replace]

The source defaults to ``HATS_DB_PATH`` (from the environment or ``.env``). Stop the bot
first. Exit codes: 0 copied and verified; 1 written but the verification found differences;
2 usage error, or the target already holds data (nothing written; ``--replace`` deletes it
first); 3 a database cannot be opened (the message says why).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from data.config import database_path
from data.copy import CopyRefused, VerifyFailed, copy_store
from data.errors import StoreError
from data.pg import is_postgres_url, redact
from data.store import Store, open_store


async def _open(target: Path | str, name: str) -> Store | None:
    """The opened store, or None after printing why it cannot be opened."""
    try:
        return await open_store(target)
    except StoreError as exc:
        print(f"Cannot open the database {name}: {exc}", file=sys.stderr)
        return None


async def migrate_to(url: str, source: Path, *, replace: bool) -> int:
    """Copy ``source`` (SQLite) into ``url`` (PostgreSQL) and verify; print; exit code."""
    if not source.exists():
        print(f"No SQLite database at {source} (set HATS_DB_PATH or pass --from).", file=sys.stderr)
        return 3
    src = await _open(source, str(source))
    if src is None:
        return 3
    try:
        dst = await _open(url, redact(url))
        if dst is None:
            return 3
        try:
            report = await copy_store(src, dst, replace=replace)
        except CopyRefused as exc:
            print(f"Refused: {exc}", file=sys.stderr)
            return 2
        except VerifyFailed as exc:
            print(f"Copied, but the verification failed: {exc}", file=sys.stderr)
            return 1
        finally:
            await dst.close()
    finally:
        await src.close()
    total = sum(report.rows.values())
    print(f"Copied {source} to {redact(url)}: {total:,} rows in {report.seconds:.1f} s")
    for table, n in report.rows.items():
        print(f"  {table:19} {n:>10,}")
    print(
        f"Verified: every table's rows are equal and all {report.live_games:,} live games "
        "rebuild identically from both. Start the bot with HATS_DATABASE_URL set to this URL."
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the command; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m data", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser(
        "migrate-to", help="copy the SQLite database into an empty PostgreSQL database"
    )
    copy.add_argument("url", help="postgresql://user:password@host:port/dbname")
    copy.add_argument("--from", dest="source", type=Path, help="SQLite file (default HATS_DB_PATH)")
    copy.add_argument(
        "--replace", action="store_true", help="delete the target's Hats rows before copying"
    )
    args = parser.parse_args(argv)
    if not is_postgres_url(args.url):
        parser.error(f"the target must be a postgresql:// URL, got {args.url[:30]!r}")
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:  # pragma: no cover (python-dotenv is a dependency)
        pass
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    source = args.source or database_path()
    return asyncio.run(migrate_to(args.url, source, replace=args.replace))


if __name__ == "__main__":
    sys.exit(main())
