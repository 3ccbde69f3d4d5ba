"""Issue #36 item 6: what gm does with the files of the machine it runs on.

- Every file gm reads is read with a size limit: ``/dev/zero`` and oversized files end at once with one
  line (on gm before this work ``gm new --rules /dev/zero`` read 8 GB in 20 s).
- A command that only reads never creates a key or a file; a missing key while sessions need it is a
  one-line error, never a new key (which made the old sessions unreadable for good).
- A key, session or database file other users could read is refused, with the ``chmod`` that fixes it.
- A ruleset refuses ``true``/``false`` where a number goes (pydantic read ``true`` as 1).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import SECRET_KEY, cli

from gm.core.errors import GameError
from gm.core.files import MIB
from gm.core.registry import all_games
from gm.session import Session

#: a child that reads without bound dies of this, rather than taking the machine's memory
MEMORY_LIMIT = 1024 * MIB


def _gm(home: Path, *args: str, env: dict[str, str] | None = None, stdin: Any = None, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``gm ARGS`` in a child process with a memory limit (an unbounded read fails it at once).
    ``stdin``: bytes, or an open file."""
    full = {k: v for k, v in os.environ.items() if k not in ("GM_SECRET_KEY", "GM_KEY_FILE", "GM_STORE")}
    full.update(GM_HOME=str(home), NO_COLOR="1", COLUMNS="200", **(env or {}))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    kw: dict[str, Any] = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin if stdin is not None else subprocess.DEVNULL}
    return subprocess.run([sys.executable, "-m", "gm", *args], env=full, capture_output=True, timeout=timeout, preexec_fn=limit, **kw)


def _one_line(r: subprocess.CompletedProcess[bytes], *words: str) -> str:
    err = r.stderr.decode()
    assert r.returncode != 0 and "Traceback" not in err and "MemoryError" not in err, err[-2000:]
    line = err.strip()
    assert line.count("\n") == 0 and line.startswith("gm: error:"), err
    for w in words:
        assert w in line, line
    return line


# ------------------------------------------------------------------ sizes
def test_dev_zero_as_any_file_gm_reads_ends_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _one_line(_gm(home, "new", "grid-football", "--rules", "/dev/zero"), "[CORE-FILE] rules file /dev/zero is larger than 1 MiB")
    r = _gm(home, "replay", "/dev/zero")
    out = r.stdout.decode() + r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in out and "transcript /dev/zero is larger than 64 MiB" in out, out[-2000:]
    _one_line(_gm(home, "record", "brawl", "-o", str(tmp_path / "t.jsonl"), "--script", "/dev/zero"), "script /dev/zero is larger than 64 MiB")
    with open("/dev/zero", "rb") as zero:
        _one_line(_gm(home, "import", "-", stdin=zero), "the document on stdin is larger than 16 MiB")
    _one_line(_gm(home, "serve", "--port", "0", "--keys-file", "/dev/zero"), "keys file /dev/zero is larger than 1 MiB")
    _one_line(_gm(home, "new", "brawl", env={"GM_KEY_FILE": "/dev/zero"}), "the gm key /dev/zero")  # (a device others may read: refused before it is read)
    assert not home.exists()  # and nothing was made


def test_endless_piped_input_to_gm_play_ends_at_once_and_the_game_is_kept(tmp_path: Path) -> None:
    """``gm play < /dev/zero``: a line that never ends (read whole before, a MemoryError) stops the
    game at the limit with one error line; the game is saved, and an ordinary long line still plays."""
    from gm.core.files import LINE_LIMIT

    home = tmp_path / "home"
    with open("/dev/zero", "rb") as zero:
        r = _gm(home, "play", "brawl", stdin=zero)
    out = r.stdout.decode()
    assert r.returncode == 1 and "Traceback" not in r.stderr.decode() + out, r.stderr.decode()[-2000:]
    assert f"gm: error: [CORE-FILE] a line of input is longer than {LINE_LIMIT} characters, the most gm reads: not read\n" in out, out[-2000:]
    assert "Game paused (input line too long); saved as" in out and len(list((home / "sessions").glob("brawl-*.jsonl"))) == 1
    r = _gm(home, "play", "brawl", stdin=("x" * (LINE_LIMIT - 1) + "\nquit\n").encode())
    assert r.returncode == 0 and "Game paused (quit)" in r.stdout.decode(), r.stdout.decode()[-2000:]


def _sparse(path: Path, size: int, head: bytes = b"") -> Path:
    with path.open("wb") as f:
        f.write(head)
        f.truncate(size)
    return path


def test_oversized_files_are_refused_with_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    big_rules = _sparse(tmp_path / "rules.toml", MIB + 1, b"downs = 4\n#")
    _one_line(_gm(home, "new", "grid-football", "--rules", str(big_rules)), f"rules file {big_rules} is larger than 1 MiB")
    big_doc = _sparse(tmp_path / "chat.md", 16 * MIB + 1, b"# a chat\n")
    _one_line(_gm(home, "import", str(big_doc)), f"document {big_doc} is larger than 16 MiB")
    _one_line(_gm(home, "import", "-", stdin=b"x" * (16 * MIB + 1)), "the document on stdin is larger than 16 MiB")
    # a session file grown beyond any game (something else put in its place): refused, not read into memory
    Session.create("brawl", home=home, players={"away": "bot:random"}, id="huge")
    path = home / "sessions" / "huge.jsonl"
    _sparse(path, 64 * MIB + 1, path.read_bytes())
    path.chmod(0o600)
    _one_line(_gm(home, "show", "huge", env={"GM_SECRET_KEY": SECRET_KEY}), f"session file {path} is larger than 64 MiB")
    # the limits sit far above what gm writes: the largest transcript of the corpus is read whole
    from gm.core.files import TRANSCRIPT_LIMIT
    from gm.transcript.format import Transcript

    corpus = Path(__file__).resolve().parents[2] / "transcripts"
    largest = max(corpus.rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size * 50 < TRANSCRIPT_LIMIT and Transcript.load(largest).entries


# ------------------------------------------------------------- read-only
def _tree(home: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(home)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(home.rglob("*"))} if home.exists() else {}


def test_reading_commands_never_make_a_key_or_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GM_SECRET_KEY")
    home = tmp_path / "home"
    s = Session.create("grid-football", home=home, players={"away": "bot:default"}, id="kept")
    assert (home / "secret.key").exists()
    (home / "secret.key").unlink()  # the key is lost (or not restored with the sessions)
    before = _tree(home)
    reads = [("show", "kept"), ("show", "kept", "--json"), ("sessions",), ("sessions", "show", "kept"), ("sessions", "--json"),
             ("export", "session", "--session", "kept"), ("export", "token", "--session", "kept"), ("call", "kept", "get_status")]
    for args in reads:
        code, out = cli(home, *args, env={"GM_SECRET_KEY": ""})
        lines = 1 + ("--json" in args)  # --json: the refusal's JSON (gm.core.errors.error_json) on stdout too
        assert code == 2 and out.count("\n") == lines and "[CORE-KEY] the gm key" in out and "is missing" in out, (args, out)
        assert _tree(home) == before, f"gm {' '.join(args)} wrote to the gm home"
    # a command that would write says the same, and makes no key that would orphan the sessions
    code, out = cli(home, "new", "brawl", env={"GM_SECRET_KEY": ""})
    assert code == 2 and "gm makes no new key while sessions need the old one" in out and "1 saved session sealed with it" in out, out
    assert _tree(home) == before
    # a game whose key is lost can still be deleted (to start afresh)
    code, out = cli(home, "sessions", "delete", "kept", "--yes", env={"GM_SECRET_KEY": ""})
    assert code == 0 and "deleted kept" in out and not (home / "sessions" / "kept.jsonl").exists(), out
    assert not (home / "secret.key").exists()
    # and a home that does not exist stays so
    empty = tmp_path / "nothing-here"
    for args in (("sessions",), ("show", "x"), ("sessions", "show", "x"), ("sessions", "--json")):
        cli(empty, *args, env={"GM_SECRET_KEY": ""})
        assert not empty.exists(), args
    assert s.id == "kept"


def test_gm_admin_makes_no_database(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "gm.sqlite"
    for args in (("admin", "games", "--store", f"sqlite:{db}"), ("admin", "repair", "x", "--store", f"sqlite:{db}")):
        code, out = cli(tmp_path, *args)
        assert code == 2 and "no database at" in out, out
    assert not (tmp_path / "nowhere").exists()


# ------------------------------------------------------------------ modes
def test_files_others_could_read_are_refused_with_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GM_SECRET_KEY")
    home = tmp_path / "home"
    Session.create("brawl", home=home, players={"away": "bot:default"}, id="mine")
    key, session = home / "secret.key", home / "sessions" / "mine.jsonl"
    for path, what in ((key, "the gm key"), (session, "session file")):
        for mode in (0o644, 0o640, 0o604, 0o660):
            path.chmod(mode)
            code, out = cli(home, "show", "mine", env={"GM_SECRET_KEY": ""})
            assert code == 2 and out.count("\n") == 1, out
            assert f"{what} {path} can be read or changed by other users of this machine (mode {oct(mode)[2:]})" in out, out
            assert f"chmod 600 {path}" in out, out
            assert path.stat().st_mode & 0o777 == mode  # refused, not changed behind the owner's back
        path.chmod(0o600)
    assert cli(home, "show", "mine", env={"GM_SECRET_KEY": ""})[0] == 0
    # a server's key file, its database, its admin token file
    from gm.session.keys import read_key_file
    from gm.session.sql import SqliteStore

    server_key = tmp_path / "server.key"
    server_key.write_text("ab" * 32 + "\n")
    server_key.chmod(0o600)
    db = tmp_path / "db.sqlite"
    SqliteStore(db, read_key_file(server_key)).close()
    admin = ("admin", "games", "--store", f"sqlite:{db}", "--key-file", str(server_key))
    assert cli(tmp_path, *admin)[0] == 0
    server_key.chmod(0o644)
    code, out = cli(tmp_path, *admin)
    assert code == 2 and out.count("\n") == 1 and f"the server key {server_key} can be read" in out and f"chmod 600 {server_key}" in out, out
    server_key.chmod(0o600)
    db.chmod(0o644)
    code, out = cli(tmp_path, *admin)
    assert code == 2 and out.count("\n") == 1 and f"the database {db} can be read" in out and f"chmod 600 {db}" in out, out
    token = tmp_path / "admin.token"
    token.write_text("t" * 40 + "\n")
    token.chmod(0o640)
    _one_line(_gm(tmp_path, "serve", "--port", "0", "--store", "memory:", "--admin-token-file", str(token)),
              f"the admin token file {token} can be read", f"chmod 600 {token}")


# ---------------------------------------------------------------- rulesets
def _int_fields(model: Any, prefix: str = "") -> list[str]:
    """Every whole-number field of a ruleset, nested models too (dotted)."""
    from pydantic import BaseModel

    out = []
    for name, field in model.model_fields.items():
        ann = field.annotation
        if ann is int:
            out.append(prefix + name)
        elif isinstance(ann, type) and issubclass(ann, BaseModel):
            out.extend(_int_fields(ann, f"{prefix}{name}."))
    return out


def _nested(dotted: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for part in reversed(dotted.split(".")):
        out = {part: out}
    return dict(out)


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_a_ruleset_refuses_true_or_false_for_a_number(game: str) -> None:
    g = next(x for x in all_games() if x.id == game)
    fields = _int_fields(g.rules_model)
    assert fields, game
    for name in fields:
        for value in (True, False):
            with pytest.raises(GameError) as err:
                g.load_rules(_nested(name, value))
            assert err.value.rule == "CORE-RULES" and err.value.message == (
                f"[CORE-RULES] {name}: {json.dumps(value)} is a yes/no value, and a number goes here"), err.value.message


def test_a_ruleset_refuses_booleans_through_every_front_end(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("downs = true\npunt_downs = [4, false]\n")
    code, out = cli(tmp_path, "new", "grid-football", "--rules", str(rules))
    assert code == 2 and out.strip() == "gm: error: [CORE-RULES] rules file " + str(rules) + ": downs: true is a yes/no value, and a number goes here", out
    from gm.server.hub import GameHub
    from gm.session import MemoryStore

    hub = GameHub(MemoryStore())
    with pytest.raises(GameError, match=r"punt_downs\.1: false is a yes/no value"):
        hub.create("grid-football", rules={"punt_downs": [4, False]})
    # yes/no fields still take yes/no, and numbers still numbers
    g = next(x for x in all_games() if x.id == "grid-football")
    assert g.load_rules({"downs": 5, "punt_downs": [4]}).downs == 5
