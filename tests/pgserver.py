"""A throwaway PostgreSQL server for the tests and the benchmarks (Debian's binaries).

``PgServer.start()`` runs ``initdb`` into a temporary directory and ``pg_ctl start`` on a free
loopback port (password authentication, so a wrong password is testable); ``stop()`` stops it
and removes the directory. PostgreSQL refuses to run as root: as root, every command runs as
the ``postgres`` user through ``runuser``. ``durable=False`` (tests) turns fsync off, which only
matters for power cuts; the benchmarks keep the defaults.

Usage::

    server = PgServer.start()
    url = server.create_database("hats_1")     # postgresql://postgres:…@127.0.0.1:PORT/hats_1
    url = server.create_schema("t1")           # …/postgres?search_path=t1 (much faster)
    ...
    server.stop()
"""

from __future__ import annotations

import asyncio
import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncpg

PASSWORD = "hats-test-" + secrets.token_hex(4)


def find_bin(name: str) -> str | None:
    """The newest Debian ``/usr/lib/postgresql/N/bin/<name>``, else ``<name>`` on PATH."""
    found = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@dataclass
class PgServer:
    """A running throwaway cluster: ``port``, ``folder``, ``url(dbname)``."""

    folder: Path
    port: int
    pg_ctl: str

    @classmethod
    def start(cls, *, durable: bool = False) -> PgServer:
        """initdb + start; raises RuntimeError (with the server's log) when it cannot start."""
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL's initdb/pg_ctl not found (apt-get install postgresql)")
        folder = Path(tempfile.mkdtemp(prefix="hats-pg-"))
        data = folder / "data"
        pwfile = folder / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
            shutil.chown(pwfile, "postgres", "postgres")
        folder.chmod(0o700)
        run = subprocess.run(
            _as_postgres(
                [
                    initdb,
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--pwfile",
                    str(pwfile),
                    "--auth",
                    "scram-sha-256",
                    "-E",
                    "UTF8",
                    "--locale",
                    "C",
                    "--no-sync",
                ]
            ),
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"initdb failed: {run.stderr or run.stdout}")
        port = _free_port()
        options = [
            f"-p {port}",
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={folder}",
            "-c max_connections=300",
            "-c shared_buffers=64MB",
        ]
        if not durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        log = folder / "server.log"
        run = subprocess.run(
            _as_postgres(
                [pg_ctl, "-D", str(data), "-l", str(log), "-o", " ".join(options), "-w", "start"]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        server = cls(folder, port, pg_ctl)
        if run.returncode != 0:
            text = log.read_text() if log.exists() else ""
            server.stop()
            raise RuntimeError(f"pg_ctl start failed: {run.stderr or run.stdout}\n{text[-2000:]}")
        return server

    def url(self, dbname: str = "postgres", *, password: str = PASSWORD) -> str:
        """The URL of database ``dbname`` as the superuser ``postgres``."""
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, dbname: str) -> str:
        """Create an empty database (from template0) and return its URL."""
        self._admin(f'CREATE DATABASE "{dbname}" TEMPLATE template0 STRATEGY FILE_COPY')
        return self.url(dbname)

    def drop_database(self, dbname: str) -> None:
        """Drop a database, ending its remaining connections."""
        self._admin(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')

    def create_schema(self, name: str, dbname: str = "postgres") -> str:
        """Create an empty schema and return a URL whose sessions use it (``search_path``).

        Milliseconds, where a new database takes about 0.4 s: the tests' per-test store.
        """
        self._admin(f'CREATE SCHEMA "{name}"', dbname)
        return f"{self.url(dbname)}?search_path={name}"

    def drop_schema(self, name: str, dbname: str = "postgres") -> None:
        """Drop a schema and everything in it."""
        self._admin(f'DROP SCHEMA IF EXISTS "{name}" CASCADE', dbname)

    def _admin(self, sql: str, dbname: str = "postgres") -> None:
        async def go() -> None:
            conn = await asyncpg.connect(self.url(dbname))
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        asyncio.run(go())

    def restart_command(self) -> list[str]:
        """The command that crashes the server and starts it again (``pg_ctl restart -m
        immediate``: every backend is killed, no checkpoint, crash recovery at start; same
        port and options), waiting until it accepts connections again. Run it with
        ``asyncio.create_subprocess_exec`` so the event loop goes on meanwhile."""
        data, log = str(self.folder / "data"), str(self.folder / "server.log")
        return _as_postgres(
            [self.pg_ctl, "-D", data, "-l", log, "-m", "immediate", "-w", "-t", "60", "restart"]
        )

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
