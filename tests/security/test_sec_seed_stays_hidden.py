"""Issue #36 item 3: the hidden seed never leaves the engine before the game ends.

The attacker holds a running game with a hidden seed in its own gm home and uses every command it
has: ``gm show`` / ``gm call`` / ``gm export`` (session, token, bundle), ``gm import`` of the token
and of the session document (text, ``--json``, ``--output``, ``--export``), ``gm replay`` of the
transcript, the MCP host.  The seed (and the bots' seed and the salt) must appear in no output and no
file it can read in the clear.  The import of a running game's token or document makes a *copy*
with a fresh hidden seed (what every side has seen is kept: the coin, the dice), says so, and never
reuses the seed - playing the copy to its end reveals only the copy's seed.  A game whose moves so
far need chance only its seed decided and not every side has seen (brawl's dealt hands) is not
copied at all: the import refuses with one line.  Once the game is over, its seed is public and its
token comes back with it.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import cli, decode_token

from gm.core.registry import find_game
from gm.core.token import settled
from gm.core.tools import call_for_action
from gm.session import SeedSecret, Session
from gm.session.commit import derive_int
from gm.session.token import session_token

SEED = 0x6D2B79F5A3C4E1B7
BOT_SEED = 0x1F83D9ABFB41BD6B
SALT = "a7" * 16
SID = "running"
RULES: dict[str, dict[str, Any]] = {
    "grid-football": {"quarters": 2, "downs_per_quarter": 2, "switch_after_quarters": [1], "warning_quarters": [2]},
    "chess-football": {"possessions_per_half": 1, "overtime_periods": 0},
    "quarterback": {"format": "game"},
    "brawl": {"rounds": 2},
}
#: (game, the human's moves made before the attack: enough for chance to have come up - a coin called,
#: dice rolled, a toss at the set-up; GridMaster4 has no chance to leak)
GAMES = [("grid-football", 8), ("chess-football", 6), ("quarterback", 6)]


def _forms(*values: int | str) -> list[str]:
    """Every way a secret number may be written: decimal, hex, and the hex of its 63-bit form."""
    out = []
    for v in values:
        if isinstance(v, str):
            out.append(v)
            continue
        out += [str(v), f"{v:x}", f"{v:X}", f"{v:016x}"]
    return out


def _play(game: str, moves: int, home: Path) -> Session:
    secret = SeedSecret(seed=SEED, salt=SALT, bot_seed=BOT_SEED, nonce_seed=None, practice=False)
    players = {seat: "human" if i == 0 else "bot:default" for i, seat in enumerate(find_game(game).seats)}
    s = Session.create(game, secret=secret, players=players, home=home, id=SID, rules=RULES[game])
    seat = s.human_seats[0]
    made = 0
    rng = random.Random(5)
    while made < moves and not s.state.is_terminal and seat in s.state.to_act():
        tool, args = call_for_action(s.tools, s.state.legal_actions(seat).sample(rng))
        assert s.call(tool, args, seat)["ok"]
        made += 1
    assert not s.state.is_terminal and (s.state.draws > 0 or game == "brawl")
    return s


def _files(home: Path) -> dict[str, str]:
    """Every file under ``home`` as its user reads it (the key file is the key: not searched)."""
    out = {}
    for p in sorted(home.rglob("*")):
        if p.is_file() and p.name != "secret.key":
            out[str(p.relative_to(home))] = p.read_bytes().decode("utf-8", "replace")
    return out


def _leaks(texts: dict[str, str], secrets: list[str]) -> list[str]:
    found = []
    for name, text in texts.items():
        for s in secrets:
            if re.search(rf"(?<![0-9a-fA-F]){re.escape(s)}(?![0-9a-fA-F])", text):
                found.append(f"{name}: {s}")
    return found


@pytest.mark.parametrize(("game", "moves"), GAMES, ids=[g for g, _ in GAMES])
def test_no_command_shows_the_seed_and_a_copy_never_reuses_it(game: str, moves: int, tmp_path: Path) -> None:
    home = tmp_path / "home"
    s = _play(game, moves, home)
    secrets = _forms(SEED, BOT_SEED, derive_int(SEED, "bots"), SALT)
    seen: dict[str, str] = {}

    def run(name: str, *args: str, code: int = 0) -> str:
        got, out = cli(home, *args)
        assert got == code, (name, out)
        seen[name] = out
        return out

    run("show", "show", SID)
    run("show --json", "show", SID, "--json")
    run("show --full", "show", SID, "--full")
    run("call get_status", "call", SID, "get_status")
    run("sessions show", "sessions", "show", SID)
    doc = tmp_path / "doc.md"
    run("export session", "export", "session", "--session", SID, "-o", str(doc))
    seen["the exported document"] = doc.read_text(encoding="utf-8")
    token = run("export token", "export", "token", "--session", SID).strip()
    seen["the token's JSON"] = json.dumps(decode_token(token))
    run("export bundle", "export", "bundle", "--session", SID, "-o", str(tmp_path / "bundle"))
    transcript = home / "transcripts" / f"{SID}.jsonl"
    out = run("replay", "replay", str(transcript), code=1)
    assert "the game's seed is still hidden" in out

    # the token: a copy with a fresh hidden seed, which says so
    out = run("import token", "import", token, "--id", "copy1")
    assert "the copy has a new hidden seed" in out
    copy1 = Session.open("copy1", home=home)
    assert not copy1.practice and copy1.secret.seed != SEED and copy1.secret.salt != SALT and copy1.bot_seed != BOT_SEED
    assert copy1.state.generator == "chacha20-v1"
    # what every side saw is kept: the same moves, and the same game (a secret pick left out, as always)
    public = settled(s.state)[0]
    assert [str(m.action) for m in copy1.state.log] == [str(m.action) for m in public.log]
    assert copy1.state.snapshot() == public.snapshot()
    # the document: the audit replays on the copy's hidden seed and never shows it; --output would write it: refused
    out = run("import document", "import", str(doc), "--id", "copy2")
    assert "(a hidden seed)" in out and "the copy has a new hidden seed" in out
    out = run("import document --json", "import", str(doc), "--id", "copy3", "--json")
    data = json.loads(out)
    assert data["seed"] is None and "new hidden seed" in data["note"]
    run("import document --export", "import", str(doc), "--id", "copy4", "--export", str(tmp_path / "again.md"))
    seen["the document it wrote"] = (tmp_path / "again.md").read_text(encoding="utf-8")
    out = run("import document -o", "import", str(doc), "-o", str(tmp_path / "state.json"), code=2)
    assert out.count("\n") == 1 and "seed is hidden" in out and not (tmp_path / "state.json").exists()
    for sid in ("copy2", "copy3", "copy4"):
        c = Session.open(sid, home=home)
        assert not c.practice and c.secret.seed not in (SEED, copy1.secret.seed)

    # MCP: resume, resources
    from gm.mcp_server.host import GameHost

    host = GameHost(home=home)
    seen["mcp resume"] = json.dumps(host.call("resume_session", {"session_id": SID}).result)
    for uri in ("gm://session/board", "gm://session/state"):
        seen[f"mcp {uri}"] = host.read_resource(uri)[0]

    assert _leaks({**seen, **_files(home), **_files(tmp_path / "bundle")}, secrets) == []

    # playing the copy to its end reveals the copy's seed, not the original's (a whole Chess-Football game
    # is long: its copy's seed is shown to differ above)
    if game == "chess-football":
        return
    seat = copy1.human_seats[0]
    rng = random.Random(8)
    last: dict[str, Any] = {}
    while not copy1.state.is_terminal:
        if seat not in copy1.state.to_act():
            copy1.advance()
            continue
        tool, args = call_for_action(copy1.tools, copy1.state.legal_actions(seat).sample(rng))
        last = copy1.call(tool, args, seat)
        assert last["ok"], last
    assert last["seed"]["seed"] == copy1.secret.seed != SEED


def test_a_running_brawl_game_is_not_copied_its_hands_need_its_seed(tmp_path: Path) -> None:
    """Brawl's moves name cards only the seed dealt and only one side has seen: a copy with a new seed
    cannot replay them, and with the same seed would tell the hands to come.  The import refuses in
    one line and makes no session; the document's import likewise."""
    home = tmp_path / "home"
    s = _play("brawl", 2, home)
    token = session_token(s)
    code, out = cli(home, "import", token, "--id", "copy")
    assert code == 2 and out.count("\n") == 1, out
    assert "still running, and its seed is hidden" in out and "deal" in out and "import its token once it is over" in out
    doc = tmp_path / "doc.md"
    assert cli(home, "export", "session", "--session", SID, "-o", str(doc))[0] == 0
    code, out2 = cli(home, "import", str(doc), "--id", "copy")
    assert code == 2 and out2.count("\n") == 1 and "still running, and its seed is hidden" in out2
    assert sorted(p.name for p in (home / "sessions").iterdir()) == [f"{SID}.jsonl"]
    assert _leaks({"token import": out, "document import": out2}, _forms(SEED, BOT_SEED, SALT)) == []


def test_a_finished_games_token_comes_back_with_its_seed_now_public(tmp_path: Path) -> None:
    home = tmp_path / "home"
    s = _play("quarterback", 0, home)
    seat = s.human_seats[0]
    rng = random.Random(2)
    while not s.state.is_terminal:
        tool, args = call_for_action(s.tools, s.state.legal_actions(seat).sample(rng))
        assert s.call(tool, args, seat)["ok"]
    code, out = cli(home, "import", session_token(s), "--id", "over")
    assert code == 0 and "new hidden seed" not in out
    back = Session.open("over", home=home)
    assert back.secret.seed == SEED and back.state.is_terminal and back.public_seed == SEED
