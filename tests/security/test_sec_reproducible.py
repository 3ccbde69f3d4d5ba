"""Issue #15, tests 5: a practice game (``--seed N``) reproduces byte for byte - ``gm play`` fed the
same moves, ``gm sim``, MCP ``new_game`` with a seed - apart from session ids, paths and times; each
run is a fresh process with its own hash seed, so nothing may hang on set order or process state.
Without ``--seed`` two games differ (hidden random seeds) and neither shows its seed."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import SECRET_KEY, mask

from gm.core.registry import find_game
from gm.core.tools import call_for_action
from gm.mcp_server.host import GameHost
from gm.referee.offline import OfflineReferee
from gm.session import Session

GAMES = ["grid-football", "brawl", "chess-football", "quarterback", "gridmaster4"]


def _script(game: str, seed: int, n: int) -> list[str]:
    """``n`` legal moves of the first seat against the default bot in the practice game ``seed``
    (what a player would type, as the offline referee reads it)."""
    g = find_game(game)
    me = g.seats[0]
    s = Session.create(g, seed=seed, players={x: "human" if x == me else "bot" for x in g.seats}, persist=False)
    rng = random.Random(seed)
    lines: list[str] = []
    ref = OfflineReferee()
    while len(lines) < n and not s.state.is_terminal and me in s.state.to_act():
        text = str(s.state.legal_actions(me).sample(rng))
        assert ref.handle(s, me, text).accepted, text
        lines.append(text)
    assert len(lines) >= 5
    return lines


def _gm(home: Path, *args: str, stdin: str = "", hash_seed: str = "0", key: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GM_SECRET_KEY", "GM_KEY_FILE")}
    env.update(GM_HOME=str(home), NO_COLOR="1", PYTHONHASHSEED=hash_seed, COLUMNS="200")
    if key:
        env["GM_SECRET_KEY"] = SECRET_KEY
    return subprocess.run([sys.executable, "-m", "gm", *args], input=stdin, env=env, capture_output=True, text=True,
                          timeout=120)


def _files(home: Path) -> str:
    """The session and transcript files of ``home``, one after the other."""
    return "\n".join(p.read_text() for sub in ("sessions", "transcripts") for p in sorted((home / sub).glob("*.jsonl")))


@pytest.mark.parametrize("game", GAMES)
def test_gm_play_with_a_seed_reproduces_the_game(game: str, tmp_path: Path) -> None:
    lines = _script(game, 3, 20)
    runs = []
    for i, hash_seed in enumerate(("1", "2")):
        home = tmp_path / f"run{i}"
        r = _gm(home, "play", game, "--seed", "3", stdin="\n".join(lines) + "\n", hash_seed=hash_seed)
        assert r.returncode == 0, r.stderr
        assert "Practice game: the seed (3) is known" in r.stdout
        # masked: the session id and the folder (each run has its own); the stored files also hold
        # sealed blobs and MACs, random by design (AES-GCM nonces)
        runs.append((mask(r.stdout, [home]), mask(r.stderr, [home]), mask(_files(home), [home])))
    assert runs[0] == runs[1]
    assert "Rejected" not in runs[0][0] and "not a legal" not in runs[0][0]


#: short rulesets for gm sim (the whole games of the default rules take a while)
SHORT = {
    "grid-football": "quarters = 2\ndowns_per_quarter = 2\nswitch_after_quarters = [1]\nwarning_quarters = [2]\n",
    "chess-football": "possessions_per_half = 1\novertime_periods = 0\n",
    "brawl": "rounds = 2\n",
}


@pytest.mark.parametrize("game", GAMES)
def test_gm_sim_with_a_seed_reproduces_its_report(game: str, tmp_path: Path) -> None:
    rules = []
    if game in SHORT:
        (tmp_path / "rules.toml").write_text(SHORT[game])
        rules = ["--rules", str(tmp_path / "rules.toml")]
    out = [_gm(tmp_path, "sim", game, "--games", "2", "--seed", "7", "--json", *rules, hash_seed=h) for h in ("1", "2")]
    assert out[0].returncode == 0, out[0].stderr
    assert json.loads(out[0].stdout) == json.loads(out[1].stdout)


@pytest.mark.parametrize("game", GAMES)
def test_mcp_new_game_with_a_seed_reproduces_the_game(game: str, tmp_path: Path) -> None:
    runs = []
    for i in range(2):
        home = tmp_path / str(i)
        host = GameHost(home=home)
        rng = random.Random(5)
        seen: list[Any] = [host.call("new_game", {"game": game, "seed": 12345}).result]
        assert seen[0]["seed"] == 12345 and seen[0]["practice"] and "predictable" in seen[0]["note"]
        g = find_game(game)
        for _ in range(25):
            status = host.call("get_status", {}).result
            if not status["expected"]:
                break
            legal = host.call("legal_actions", {}).result["legal"]
            tool, args = call_for_action(g.tools(), g.parse_action(rng.choice(legal)))
            seen.append(host.call(tool, args).result)
        seen.append(host.read_resource("gm://session/state")[0])
        runs.append(mask(json.dumps(seen, sort_keys=True), [home]))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("game", ["brawl", "grid-football"])
def test_gm_play_without_a_seed_differs_and_never_shows_its_seed(game: str, tmp_path: Path) -> None:
    lines = "board\nscore\nwhat can i do?\nquit\n"
    outs, secrets = [], []
    for i in range(2):
        home = tmp_path / str(i)
        r = _gm(home, "play", game, stdin=lines, key=False)
        assert r.returncode == 0, r.stderr
        assert "Seed hidden until the game ends" in r.stdout and "Practice game" not in r.stdout
        sid = re.search(rf"Session ({game}-[0-9a-f]{{8}})", r.stdout)
        assert sid, r.stdout
        with pytest.MonkeyPatch.context() as mp:
            mp.delenv("GM_SECRET_KEY", raising=False)
            sess = Session.open(sid.group(1), home=home, record=False)
        secret = sess.secret
        assert not secret.practice
        text = r.stdout + r.stderr + _files(home)
        for value in (secret.seed, secret.bot_seed):
            assert str(value) not in text and f"{value:x}" not in text
        assert secret.salt not in text
        outs.append(mask(r.stdout, [home]))
        secrets.append((secret.seed, secret.commitment))
    assert secrets[0][0] != secrets[1][0] and secrets[0][1] != secrets[1][1]
    if game == "brawl":  # the hand dealt differs (the seed deals it); GF may toss alike
        assert outs[0] != outs[1]
