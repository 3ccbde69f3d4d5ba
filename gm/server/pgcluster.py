"""A throwaway PostgreSQL cluster (tests, benchmarks, trying ``gm serve --store postgresql://``).

It runs the installed server binaries (``pg_ctl``, ``initdb``: ``$GM_PG_BIN``, else the newest
``/usr/lib/postgresql/*/bin``, else ``PATH``) in a fresh folder under ``/tmp``, listening on a unix
socket only (no TCP), and is removed when stopped.  ``initdb`` refuses to run as root, so as root the
cluster runs as the ``postgres`` user.  ``durable=False`` (the default) turns fsync off: it is for
tests and benchmarks of gm, not of the disk.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote


def pg_bin() -> Path | None:
    """The folder of the PostgreSQL server binaries, or ``None``."""
    env = os.environ.get("GM_PG_BIN")
    if env:
        return Path(env)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


class PgCluster:
    """One PostgreSQL cluster of its own; :meth:`dsn` names a database in it."""

    def __init__(self, *, durable: bool = False, port: int = 5432) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise RuntimeError("no PostgreSQL server binaries found (apt-get install postgresql, or set GM_PG_BIN)")
        self.bin = bindir
        self.port = port
        self.durable = durable
        self.dir = Path(tempfile.mkdtemp(prefix="gm-pg-", dir="/tmp"))
        self.data = self.dir / "data"
        self.user = "gm"
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            os.chmod(self.dir, 0o755)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.running = False

    def _run(self, *args: str) -> None:
        proc = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120, cwd=self.dir)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}")

    def start(self) -> PgCluster:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync", "--no-instructions")
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses='' -c max_connections=200"
        if not self.durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "-t", "60", "start")
        self.running = True
        return self

    def dsn(self, database: str = "postgres", *, schema: str | None = None) -> str:
        """A libpq URI of ``database`` (``schema``: its tables go into that schema, which must exist)."""
        uri = f"postgresql://{self.user}@/{database}?host={quote(str(self.dir))}&port={self.port}"
        if schema:
            uri += "&options=" + quote(f"-csearch_path={schema}")
        return uri

    def new_schema(self, name: str) -> str:
        """Create a schema (a clean namespace for one test) and return a DSN using it."""
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return self.dsn(schema=name)

    def stop(self) -> None:
        if self.running:
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            finally:
                self.running = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
