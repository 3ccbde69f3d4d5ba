"""``gm import`` of a session document exported by gm: the same game comes back, for every game
(the document's token gives a game with chance its ruleset and seed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chat_helpers import moves, played
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.registry import find_game
from gm.core.token import settled

runner = CliRunner()
GAMES = ["grid-football", "gridmaster4", "quarterback", "chess-football", "brawl"]


def _ok(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, (res.output, res.stderr)
    return res.stdout


@pytest.mark.parametrize("game_id", GAMES)
def test_export_session_then_import_gives_the_same_game(game_id: str, tmp_path: Path) -> None:
    from gm.session import Session

    game = find_game(game_id)
    state = played(game, 7, "random", 2, 90)
    src = tmp_path / "state.json"
    src.write_text(json.dumps(state.to_json()), encoding="utf-8")
    doc = tmp_path / "session.md"
    _ok("export", "session", "--session", str(src), "-o", str(doc))
    out = _ok("import", str(doc), "--gm-home", str(tmp_path), "--id", "back", "--player", f"{game.seats[-1]}=bot:random")
    assert "Result: the chatbot kept the game exactly." in out
    back = Session.open("back", home=tmp_path)
    public = settled(state)[0]
    assert moves(back.state) == moves(public) and back.state.snapshot() == public.snapshot()
    assert back.players[game.seats[-1]] == "bot:random"


def test_a_running_hidden_seed_game_comes_back_as_a_copy_with_a_new_hidden_seed(tmp_path: Path) -> None:
    """The document's sealed token opens in the same gm home; the game is still running, so its seed is
    never reused (playing the copy on would tell the original's chance to come): the copy has a new
    hidden seed, the coin as everyone saw it, and the same moves (more in tests/security)."""
    from gm.session import Session

    s = Session.create("grid-football", players={"home": "human", "away": "bot:default"}, home=tmp_path, id="hidden")
    assert str(s.state.log[0].action) in ("heads", "tails")  # the bot called the toss; the coin fell by the hidden seed
    doc = tmp_path / "session.md"
    _ok("export", "session", "--session", "hidden", "--gm-home", str(tmp_path), "-o", str(doc))
    text = doc.read_text(encoding="utf-8")
    assert "gm2.grid-football." in text and str(s.secret.seed) not in text
    out = _ok("import", str(doc), "--gm-home", str(tmp_path), "--id", "again")
    assert "the copy has a new hidden seed" in out and "(a hidden seed)" in out and str(s.secret.seed) not in out
    again = Session.open("again", home=tmp_path)
    assert again.state.seed != s.state.seed and not again.practice
    assert moves(again.state) == moves(settled(s.state)[0]) and again.state.snapshot() == settled(s.state)[0].snapshot()
