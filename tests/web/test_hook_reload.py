"""``gm serve --reload``: a game author edits the board hook of a game while the server runs and the
next request draws with the edited hook; a game's rules are never read again under it; without the
switch a running server keeps the hook it loaded."""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from plugin_helpers import install_plugin
from serve_helpers import ServerProcess

from gm.core.errors import GameError
from gm.core.game import reload_view_hooks

HEADLINE = 'headline = f"Rock-Paper-Scissors: '


def _edit_headline(site: Path, new: str) -> None:
    """Rewrite the plugin's board headline in its installed ``board_json.py``."""
    path = site / "gm_rps" / "board_json.py"
    text = path.read_text()
    assert HEADLINE in text
    path.write_text(text.replace(HEADLINE, f'headline = f"{new}: '))


def _request(url: str, token: str | None = None, body: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


@pytest.fixture
def rps_site(tmp_path: Path) -> Iterator[Path]:
    """The plugin game installed into a folder of its own, imported in this process from there (its
    modules are put back as they were afterwards)."""
    site = install_plugin(tmp_path)
    saved = {k: v for k, v in sys.modules.items() if k == "gm_rps" or k.startswith("gm_rps.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(site))
    try:
        yield site
    finally:
        reload_view_hooks(False)
        sys.path.remove(str(site))
        for k in [k for k in sys.modules if k == "gm_rps" or k.startswith("gm_rps.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _headline(site: Path) -> str:
    import gm_rps

    game = gm_rps.GAME
    state = game.new_state(seed=1)
    return str(game.board_json(state, None)["headline"])


def test_a_view_hook_edited_under_a_running_process_is_read_again_only_while_reloading(rps_site: Path) -> None:
    assert _headline(rps_site) == "Rock-Paper-Scissors: alice 0, bob 0"
    _edit_headline(rps_site, "RPS")
    assert _headline(rps_site) == "Rock-Paper-Scissors: alice 0, bob 0"  # the loaded hook is kept
    reload_view_hooks()
    assert _headline(rps_site) == "RPS: alice 0, bob 0"
    path = rps_site / "gm_rps" / "board_json.py"
    path.write_text(path.read_text().replace('headline = f"RPS: ', 'headline = f"RPs: '))  # same size, same second
    assert _headline(rps_site) == "RPs: alice 0, bob 0"
    reload_view_hooks(False)
    path.write_text(path.read_text().replace('headline = f"RPs: ', 'headline = f"Rps: '))
    assert _headline(rps_site) == "RPs: alice 0, bob 0"


def test_an_edit_that_breaks_the_hook_is_a_game_error_naming_the_line_and_the_fixed_file_is_read(rps_site: Path) -> None:
    reload_view_hooks()
    assert _headline(rps_site) == "Rock-Paper-Scissors: alice 0, bob 0"
    path = rps_site / "gm_rps" / "board_json.py"
    good = path.read_text()
    path.write_text(good + "\ndef broken(:\n")
    with pytest.raises(GameError) as raised:
        _headline(rps_site)
    err, line = raised.value, len(good.splitlines()) + 2
    assert err.rule == "CORE-HOOK" and err.input == f"{path}:{line}"
    assert err.reason == f"the game's hook gm_rps.board_json does not load after an edit: SyntaxError: invalid syntax (board_json.py, line {line})"
    path.write_text(good.replace(HEADLINE, 'headline = f"Fixed: '))
    assert _headline(rps_site) == "Fixed: alice 0, bob 0"


def test_the_rules_are_never_read_again(rps_site: Path) -> None:
    """Only the view hooks are: an edited engine module stays as loaded under a running game."""
    import gm_rps.game

    reload_view_hooks()
    before = gm_rps.game
    path = rps_site / "gm_rps" / "game.py"
    path.write_text(path.read_text() + "\nEDITED = True\n")
    _headline(rps_site)
    assert sys.modules["gm_rps.game"] is before and not hasattr(sys.modules["gm_rps.game"], "EDITED")


def test_gm_serve_reload_draws_the_edited_board_on_the_next_request(tmp_path: Path) -> None:
    site = install_plugin(tmp_path / "plugin")
    home = tmp_path / "home"
    home.mkdir()
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet", "--reload", env=env) as srv:
        assert any("--reload: the games' board and move-builder hooks are read again" in line for line in srv.lines)
        made = _request(srv.url + "/api/games", body={"game": "rock-paper-scissors", "opponent": "bot:random", "seed": 3})
        table = f"{srv.url}/api/games/{made['session']}/table"
        assert _request(table, made["token"])["board"]["headline"] == "Rock-Paper-Scissors: alice 0, bob 0"
        _edit_headline(site, "Edited")
        assert _request(table, made["token"])["board"]["headline"] == "Edited: alice 0, bob 0"
    home2 = tmp_path / "home2"
    home2.mkdir()
    with ServerProcess(f"sqlite:{home2 / 'gm.sqlite'}", home2, "--rate", "0", "--quiet", env=env) as srv:
        made = _request(srv.url + "/api/games", body={"game": "rock-paper-scissors", "opponent": "bot:random", "seed": 3})
        table = f"{srv.url}/api/games/{made['session']}/table"
        assert _request(table, made["token"])["board"]["headline"] == "Edited: alice 0, bob 0"
        path = site / "gm_rps" / "board_json.py"
        path.write_text(path.read_text().replace('headline = f"Edited: ', 'headline = f"Later: '))
        assert _request(table, made["token"])["board"]["headline"] == "Edited: alice 0, bob 0"  # kept until restart
