"""A game from another distribution plugs in with no line of gm written for it.

``tests/plugin_game`` is a rock-paper-scissors game in a package of its own (written only against
``gm.core``) that declares itself in the ``gm.games`` entry-point group.  It is installed with pip
into a folder outside the shared venv and put on ``PYTHONPATH`` of real ``gm`` subprocesses, which
play it (``gm play``, ``gm new``/``gm call``, ``gm mcp`` through the real ``mcp`` client), export it,
replay a game they recorded, and simulate it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from plugin_helpers import install_plugin

import gm

ROOT = Path(__file__).resolve().parents[1]
GAME = "rock-paper-scissors"
TIMEOUT = 60


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin, installed by pip (no build isolation: no network) into a folder of its own."""
    target = install_plugin(tmp_path_factory.mktemp("plugin"))
    assert (target / "gm_rps" / "templates" / "prompts" / "rules_summary.md.j2").is_file()
    return target


@pytest.fixture
def env(site: Path, tmp_path: Path) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GM_", "PYTEST", "COV"))}
    out.update(PYTHONPATH=str(site), GM_HOME=str(tmp_path / "gm-home"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return out


def gm_run(env: dict[str, str], *args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gm", *args], env=env, input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False, cwd=cwd)


def ok(env: dict[str, str], *args: str, stdin: str = "") -> str:
    p = gm_run(env, *args, stdin=stdin)
    assert p.returncode == 0, p.stderr + p.stdout
    return p.stdout


def test_gm_has_no_line_for_the_plugin() -> None:
    sources = [p for p in Path(gm.__file__).resolve().parent.rglob("*") if p.suffix in (".py", ".j2")]
    for path in [*sources, ROOT / "pyproject.toml"]:
        text = path.read_text(encoding="utf-8").lower()
        assert not any(word in text for word in ("gm_rps", "rock-paper", "rps", "roshambo")), path


def test_gm_games_lists_it_and_the_default_game_stays(env: dict[str, str]) -> None:
    out = ok(env, "games").splitlines()
    assert "rock-paper-scissors Rock-Paper-Scissors (aliases: rps, roshambo)" in out
    assert any(ln.startswith("grid-football ") and ln.endswith("[default]") for ln in out)
    first, second = ok(env, "play", "--seed", "1", stdin="quit\n").splitlines()[:2]
    assert first.startswith("Turn-Based Grid Football: you play home (away = bot:default). Session ")
    assert second.startswith("Practice game: the seed (1) is known")


def test_gm_play_plays_it_to_the_end_and_gm_replay_replays_what_it_recorded(env: dict[str, str], tmp_path: Path) -> None:
    moves = "\n".join(["what can I do?", "rock", "paper", "lizard", "scissors"] * 20) + "\n"
    out = ok(env, "play", "rps", "--seed", "3", stdin=moves)
    lines = out.splitlines()
    assert lines[0].startswith("Rock-Paper-Scissors: you play alice (bob = bot:default). Session rock-paper-scissors-")
    assert lines[1].startswith("Practice game: the seed (3) is known")
    assert "You can (3): throw rock, throw paper, throw scissors" in out
    assert "Not allowed [RPS-SHAPES]: this match plays rock, paper, scissors. You can: throw rock, throw paper, throw scissors." in out
    assert re.search(r"^Round 1: (both throw rock: a tie|alice throws rock, bob throws (paper|scissors): "
                     r"(paper covers rock, bob|rock crushes scissors, alice) wins the round \((0-1|1-0)\))\.$", out, re.M)
    # every commitment the bot showed before alice threw is the SHA-256 of what it revealed after
    commits = re.findall(r"bob has locked in its choice\. Commitment: ([0-9a-f]{64})", out)
    reveals = re.findall(r"Reveal: bob chose (throw \w+) \(nonce ([0-9a-f]+); verified\)", out)
    assert commits and len(reveals) == len(commits)
    assert [hashlib.sha256(f"{n}:{c}".encode()).hexdigest() for c, n in reveals] == commits
    assert re.search(r"^Game over: (alice|bob) wins \(first to 2 round wins\)\.$", out, re.M)
    transcript = Path(lines[-1].removeprefix("Transcript: "))
    assert transcript.is_file() and transcript.parent == tmp_path / "gm-home" / "transcripts"
    rep = json.loads(ok(env, "replay", str(transcript), "--json", "--coverage"))
    assert rep["transcripts"] == 1 and rep["failed"] == [] and rep["updated"] == []
    assert rep["coverage"][GAME]["hits"]["RPS-ROUND"] == 1 and "RPS-LIMIT" in rep["coverage"][GAME]["unexercised"]


def test_gm_new_and_gm_call_play_it_under_a_custom_ruleset(env: dict[str, str], tmp_path: Path) -> None:
    rules = tmp_path / "five.toml"
    rules.write_text("lizard_spock = true\nbest_of = 1\n")
    new = json.loads(ok(env, "new", "roshambo", "--seed", "2", "--player", "bob=bot:random", "--rules", str(rules), "--json"))
    sid = new["id"]
    assert new["game"] == GAME and new["players"] == {"alice": "human", "bob": "bot:random"} and list(new["commitments"]) == ["bob"]
    assert new["status"] == "Round 1 (at most 20): alice 0, bob 0, first to 1; to throw: alice"
    bad = gm_run(env, "call", sid, "throw", '{"shape": "dynamite"}')
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]["rule"] == "RPS-SYNTAX"
    res = json.loads(ok(env, "call", sid, "throw", '{"shape": "spock"}'))
    assert res["ok"] and res["reveal"]["bob"]["verified"] and res["events"][0]["rule"] == "RPS-ROUND"
    while res["outcome"] is None:  # ties replay the round
        res = json.loads(ok(env, "call", sid, "throw", '{"shape": "lizard"}'))
    assert res["outcome"]["rule"] == "RPS-WIN" and sum(res["outcome"]["score"].values()) == 1
    over = gm_run(env, "call", sid, "throw", '{"shape": "rock"}')
    assert over.returncode == 1 and json.loads(over.stdout)["error"]["rule"] == "CORE-OVER"


def test_gm_sim_plays_it(env: dict[str, str]) -> None:
    rep = json.loads(ok(env, "sim", GAME, "-n", "40", "--seed", "5", "--player", "bob=bot:random", "--json"))
    assert rep["game"] == GAME and rep["players"] == {"alice": "bot:default", "bob": "bot:random"}
    assert sum(rep["wins"].values()) + rep["draws"] + rep["unfinished"] == 40 and rep["unfinished"] == 0
    assert rep["headlines"] == {"round": "decided rounds", "tie": "tied rounds"} and set(rep["rates"]) == {"round", "tie"}
    assert rep["events_per_game"]["match"] == 1.0 and rep["min_length"] >= 4
    assert rep == json.loads(ok(env, "sim", GAME, "-n", "40", "--seed", "5", "--player", "bob=bot:random", "--json"))


def test_gm_export_exports_its_documents(env: dict[str, str], tmp_path: Path) -> None:
    out = ok(env, "export", "bundle", "--game", GAME, "-o", str(tmp_path / "bundle"))
    assert out == f"wrote 4 files to {tmp_path / 'bundle'}: quick_start_new_chat.md, rules.md, session_template.md, glossary.md\n"
    docs = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "bundle").iterdir()}
    qs, rules = docs["quick_start_new_chat.md"], docs["rules.md"]
    assert qs.startswith("# Rock-Paper-Scissors - Quick Start\n") and "| rock | scissors | rock crushes scissors |" in qs
    assert "### RPS-WIN: The first to a majority of the best-of round wins takes the match\n\nBest of 3: 2 round wins take the match." in rules
    assert docs["glossary.md"].startswith("# Rock-Paper-Scissors: Glossary")
    assert "Status: Round 1 (at most 20): alice 0, bob 0, first to 2; to throw: alice, bob" in docs["session_template.md"]
    prompt = ok(env, "export", "prompt", "--game", GAME)
    assert prompt.startswith("You referee Rock-Paper-Scissors in a terminal for one player, alice (opponent: bob (bot:default)).")
    assert "- rock crushes scissors\n- paper covers rock\n- scissors cuts paper\n" in prompt


def test_gm_export_token_and_gm_import_bring_a_game_back(env: dict[str, str]) -> None:
    sid = ok(env, "new", GAME, "--seed", "4").splitlines()[0]
    res = json.loads(ok(env, "call", sid, "throw", '{"shape": "rock"}'))
    bob = res["events"][0]["bob"]
    token = ok(env, "export", "token", "--session", sid).strip()
    assert token.startswith(f"gm2.{GAME}.")
    out = ok(env, "import", token, "--id", "back")
    assert out.startswith(f"imported {GAME} session back (2 moves; alice human, bob bot:default)")  # the players stay
    assert re.search(rf"^1 +rock +{bob} ", out, re.M)


async def _mcp_session(env: dict[str, str]) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "gm", "mcp"], env=env)
    async with Client(params, read_timeout_seconds=TIMEOUT) as c:
        r = await c.call_tool("new_game", {"game": "rps", "seed": 1})
        assert not r.is_error and r.structured_content["game"] == GAME
        assert "throw" in [t.name for t in (await c.list_tools()).tools]
        r = await c.call_tool("throw", {"shape": "scissors"})
        data = r.structured_content
        assert not r.is_error and data["events"][0]["rule"] == "RPS-ROUND" and data["reveal"]["bob"]["verified"]
        r = await c.call_tool("throw", {"shape": "dynamite"})
        assert r.is_error and "[RPS-SYNTAX]" in r.content[0].text
        uris = [str(x.uri) for x in (await c.list_resources()).resources]
        assert f"gm://games/{GAME}/rules" in uris and f"gm://games/{GAME}/quickstart" in uris
        rules = (await c.read_resource("gm://rules")).contents[0].text
        assert rules.startswith("# Rock-Paper-Scissors: Rules\n")
        board = (await c.read_resource("gm://session/board")).contents[0].text
        assert "you play alice" in board and "score: alice" in board
        prompt = await c.get_prompt("referee", {})
        text = prompt.messages[0].content.text
        assert prompt.description == "Referee of Rock-Paper-Scissors"
        assert text.startswith("You are the referee of Rock-Paper-Scissors. The user plays alice; the built-in bot plays bob (bot:default).")
        assert "Game decisions: throw." in text and "- rock crushes scissors" in text


def test_gm_mcp_serves_it_to_the_real_mcp_client(env: dict[str, str]) -> None:
    anyio.run(_mcp_session, env)


REFEREE_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from llm_fakes import Call, FakeLLM, Say
from llm_game import make_referee
from gm.referee.llm.referee import NO_MOVE
from gm.session import Session

s = Session.create("rock-paper-scissors", seed=1, players={"bob": "bot:random"}, persist=False, record=False)
status = s.game.status(s.state, "alice")
fake = FakeLLM([Say("Done! I threw rock for you."), Say("All set, your throw is in."),
                Call([("throw", {"shape": "rock"})]), Call([("throw", {"shape": "rock"})]), Say("Rock it is.")])
ref = make_referee("openai", fake)
claimed = ref.handle(s, "alice", "rock")
made = ref.handle(s, "alice", "rock")
print(json.dumps({"claimed": claimed.narration, "expected": f"{NO_MOVE} {status}", "calls": [c.ok for c in made.calls],
                  "moves": [m.action.to_json() for m in s.state.log if m.seat == "alice"], "said": made.narration, "flags": made.flags}))
"""


def test_the_llm_referee_knows_its_move_claims_from_the_core_words_alone(env: dict[str, str]) -> None:
    """The plugin declares no narration claims: gm's own words ("Done!", "your throw is in") still
    mark a move claimed without a call, and a repeated call is still made once."""
    p = subprocess.run([sys.executable, "-c", REFEREE_SCRIPT, str(ROOT / "tests" / "llm")], env=env, capture_output=True,
                       text=True, timeout=TIMEOUT, check=False)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["claimed"] == out["expected"]
    assert out["calls"] == [True] and out["moves"] == [{"type": "throw", "shape": "rock"}] and out["said"] == "Rock it is."
    assert out["flags"] == ['repeat-call: throw {"shape": "rock"} was already made for this message; not made again']


def test_gm_s_own_tests_of_the_registry_and_templates_hold_with_the_plugin_installed(env: dict[str, str]) -> None:
    """The tests that list the installed games or find the games' templates do not assume gm's five are all."""
    chosen = "unknown_game_lists or marks_the_default or declares_its_games or ships_its_templates or one_jinja"
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "tests/test_registry.py",
         "tests/test_templating.py", "-k", chosen],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=180, check=False,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert re.search(r"\b5 passed\b", p.stdout), p.stdout[-500:]
