"""``gm export`` and ``gm import`` through the command line (typer's CliRunner)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from export_helpers import CUSTOM_TOML, GAME, check_markdown, random_state
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.token import encode_state, settled
from gm.export import BUNDLE_FILES, render_doc

runner = CliRunner()


def _ok(*args: str, input: str | None = None) -> str:
    res = runner.invoke(app, list(args), input=input)
    assert res.exit_code == 0, (res.output, res.stderr)
    return res.stdout


def _err(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: error: "), res.stderr
    assert "Traceback" not in res.output
    return lines[0]


@pytest.mark.parametrize("doc", ["quickstart", "rules", "glossary", "session"])
def test_export_prints_each_document(doc: str) -> None:
    out = _ok("export", doc, "--game", "grid-football")
    assert out == render_doc(GAME, doc)
    check_markdown(out)


def test_export_writes_a_file_and_the_committed_rules_are_regenerated_this_way(tmp_path: Path) -> None:
    dest = tmp_path / "out" / "grid_football.md"
    assert _ok("export", "rules", "--game", "gf", "-o", str(dest)).strip() == f"wrote {dest}"
    committed = Path(__file__).resolve().parents[2] / "rules_md" / "grid_football.md"
    assert dest.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8")


def test_export_with_a_rules_file(tmp_path: Path) -> None:
    toml = tmp_path / "my.toml"
    toml.write_text(CUSTOM_TOML)
    out = _ok("export", "quickstart", "--rules", str(toml))
    assert "travels 53 rows" in out and "columns A-V, rows 1-72" in out and "1st & 8" in out
    assert "travels 55 rows" not in out
    bad = tmp_path / "bad.toml"
    bad.write_text("kick_distance = -3\n")
    assert "kick_distance" in _err("export", "rules", "--rules", str(bad))


@pytest.mark.parametrize("suffix", ["", ".zip"])
def test_bundle_holds_every_document(tmp_path: Path, suffix: str) -> None:
    state = random_state(4, 50)
    state_file = tmp_path / "game.json"
    state_file.write_text(json.dumps(state.to_json()))
    dest = tmp_path / f"bundle{suffix}"
    out = _ok("export", "bundle", "--session", str(state_file), "-o", str(dest))
    assert out.startswith(f"wrote 4 files to {dest}")
    if suffix:
        with zipfile.ZipFile(dest) as zf:
            files = {Path(n).name: zf.read(n).decode() for n in zf.namelist()}
            assert all(n.startswith("bundle/") for n in zf.namelist())
    else:
        files = {p.name: p.read_text(encoding="utf-8") for p in dest.iterdir()}
    assert sorted(files) == sorted(BUNDLE_FILES.values())
    for text in files.values():
        check_markdown(text)
    assert encode_state(state) in files["session_template.md"]


def test_session_template_of_a_saved_session(tmp_path: Path) -> None:
    from gm.session import Session

    s = Session.create("grid-football", seed=9, home=tmp_path, players={"home": "human", "away": "bot:random"}, bot_seed=1)
    state = random_state(9, 0)
    assert state.to_json()["log"] == []
    while len(s.state.log) < 30 and not s.state.is_terminal:
        seat = next(e["seat"] for e in s.expected() if e.get("player") == "human")
        action = next(iter(s.state.legal_actions(seat)))
        from gm.core.tools import call_for_action

        assert s.call(*call_for_action(s.tools, action), seat)["ok"]
    out = _ok("export", "session", "--session", s.id, "--gm-home", str(tmp_path))
    check_markdown(out)
    view = settled(s.state)[0].view(None)
    assert f"| Quarter | {view['quarter']} of 4 |" in out
    assert f"| Score | home {view['score']['home']} - {view['score']['away']} away |" in out
    for square in view["blocked"]:
        assert square in out
    assert GAME.render(settled(s.state)[0], full=True) in out
    token = _ok("export", "token", "--session", s.id, "--gm-home", str(tmp_path)).strip()
    assert token in out


def test_import_creates_a_session_that_continues_the_game(tmp_path: Path) -> None:
    from gm.session import Session

    state = random_state(7, 90)
    token = encode_state(state)
    out = _ok("import", token, "--gm-home", str(tmp_path), "--id", "from-chat")
    # a gm1 token (a bare state) names no players: every seat is human unless --player says otherwise
    assert out.startswith(f"imported grid-football session from-chat ({len(settled(state)[0].log)} moves; home human, away human)")
    again = Session.open("from-chat", home=tmp_path)
    assert again.state.to_json() == settled(state)[0].to_json()
    assert GAME.status(settled(state)[0]) in out


def test_import_reads_a_wrapped_token_from_stdin_and_writes_json(tmp_path: Path) -> None:
    state = random_state(8, 70)
    token = encode_state(state)
    wrapped = "\n".join(token[i : i + 40] for i in range(0, len(token), 40)) + "\n"
    dest = tmp_path / "state.json"
    _ok("import", "-", "-o", str(dest), input=wrapped)
    assert json.loads(dest.read_text()) == state.to_json()


def test_import_rejects_a_changed_token_in_one_line(tmp_path: Path) -> None:
    token = encode_state(random_state(6, 40))
    i = len(token) // 2
    bad = token[:i] + ("x" if token[i] != "x" else "y") + token[i + 1 :]
    line = _err("import", bad, "--gm-home", str(tmp_path))
    assert "[CORE-TOKEN]" in line and "checksum mismatch" in line
    assert not (tmp_path / "sessions").exists()


def test_export_errors_are_one_line(tmp_path: Path) -> None:
    assert "unknown export" in _err("export", "poster")
    assert "CORE-GAME" in _err("export", "rules", "--game", "tiddlywinks")
    state_file = tmp_path / "g.json"
    state_file.write_text(json.dumps(random_state(1, 10).to_json()))
    toml = tmp_path / "r.toml"
    toml.write_text("kick_distance = 50\n")
    assert "--rules cannot be combined with --session" in _err("export", "rules", "--session", str(state_file), "--rules", str(toml))
    assert "no session" in _err("export", "session", "--session", "nope", "--gm-home", str(tmp_path))
    state_file.write_text("{not json")
    assert "is not JSON" in _err("export", "session", "--session", str(state_file))
