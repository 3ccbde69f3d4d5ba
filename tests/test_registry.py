"""Games are plugins: the registry finds them through the ``gm.games`` entry points (gm's own five
are declared in pyproject.toml like any other), the default game is the one that says so, and a
broken, duplicated or mislabelled plugin gets a clear error instead of taking gm down."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gm
from gm.cli.app import app
from gm.core import registry
from gm.core.errors import GameError, UnknownGameError
from gm.core.registry import (
    ENTRY_POINT_GROUP,
    all_games,
    broken_games,
    default_game,
    find_game,
    game_ids,
    register_game,
)

ROOT = Path(__file__).resolve().parents[1]
GM = Path(gm.__file__).resolve().parent
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"][ENTRY_POINT_GROUP]
#: every file of gm outside its games' own packages serves every game, and so may name none: code,
#: templates, prompts, schemas and the page's and the MCP view's static files alike
GENERIC = sorted(p for p in GM.rglob("*") if p.is_file() and "games" not in p.relative_to(GM).parts[:1] and "__pycache__" not in p.parts and p.suffix != ".pyc")
#: words no generic file may hold besides the games' ids and aliases: the seats and scoring of the grid-football family
GAME_WORDS = {"home", "away", "touchdown", "touchdowns", "downs"}

def test_gm_declares_its_games_as_entry_points() -> None:
    assert sorted(DECLARED) == ["brawl", "chess-football", "grid-football", "gridmaster4", "quarterback"]
    installed = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert {k: installed[k] for k in DECLARED} == DECLARED, "reinstall gm (make setup): its entry points are stale"
    assert game_ids() == sorted(installed)
    for gid, value in DECLARED.items():
        module, _, attr = value.partition(":")
        game = find_game(gid)
        assert game.id == gid and type(game).__module__ == module and attr == "GAME"


def test_the_default_game_is_the_one_that_says_so() -> None:
    assert default_game().id == "grid-football"
    assert [g.id for g in all_games() if g.default] == ["grid-football"]


def test_an_unknown_game_lists_the_installed_ones() -> None:
    with pytest.raises(UnknownGameError) as info:
        find_game("tiddlywinks")
    # every installed game, gm's five and any other distribution's (a plugin installed next to gm)
    installed = ", ".join(game_ids())
    assert {"brawl", "chess-football", "grid-football", "gridmaster4", "quarterback"} <= set(game_ids())
    assert info.value.message == f"[CORE-GAME] 'tiddlywinks': no such game; installed games: {installed}"
    assert list(info.value.legal) == game_ids()
    res = CliRunner().invoke(app, ["play", "tiddlywinks"])
    assert res.exit_code == 2 and res.output.strip().splitlines() == [
        f"gm: error: [CORE-GAME] 'tiddlywinks': no such game; installed games: {installed}"
    ]


def test_gm_games_marks_the_default() -> None:
    out = CliRunner().invoke(app, ["games"]).output.splitlines()
    assert [ln.split()[0] for ln in out] == game_ids()
    assert [ln for ln in out if ln.endswith("[default]")] == [
        "grid-football    Turn-Based Grid Football (aliases: gf, football, grid, gridfootball) [default]"
    ]


def test_the_guard_reads_every_generic_file() -> None:
    """The guard below reads code, templates, prompts and static files, from every generic layer."""
    kinds = {p.suffix for p in GENERIC}
    assert kinds >= {".py", ".j2", ".js", ".css", ".html", ".json"}
    parts = {p.relative_to(GM).parts[0] for p in GENERIC}
    assert parts >= {"core", "session", "cli", "server", "web", "mcp_server", "referee", "prompts", "chatlog", "balance", "eval", "sim.py", "templating.py"}


def test_no_game_is_named_in_the_generic_code() -> None:
    """No string in the code of the layers every game goes through names a game (ids and aliases) or
    says one of the family's words; docstrings and comments may give examples."""
    names = {n.lower() for g in all_games() for n in (g.id, *g.aliases)} | GAME_WORDS
    found = []
    for path in [p for p in GENERIC if p.suffix == ".py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                hit = node.value.lower() in names or "football" in node.value.lower()
                if hit and not path.name == "check.py":  # the narration checker is issue 16's next step
                    found.append(f"{path.relative_to(GM)}:{node.lineno}: {node.value!r}")
    assert found == []


def test_no_game_is_named_in_the_generic_files() -> None:
    """Templates, prompts, schemas and static files (the page's script, style sheets and HTML, the MCP
    view's) name no game, no game's seat words and no game's vocabulary of kinds beyond the board's
    shared one: no word of them is a game's id or alias ("grid", the kind of every board's geometry,
    aside) or one of the family's words, and none says "football"; comments included, as a reviewer
    reads them.  Every game is drawn, played and refereed from its own hooks and templates."""
    names = {n.lower() for g in all_games() for n in (g.id, *g.aliases)} - {"grid"} | GAME_WORDS
    found = []
    files = [p for p in GENERIC if p.suffix not in {".py", ".typed"}]
    assert {p.parent.name for p in files} >= {"static", "prompts", "view"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        for lineno, line in enumerate(text.splitlines(), start=1):
            words = {w.lower() for w in re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", line)}
            parts = {p for w in words for p in w.split("-")}
            hit = sorted((words | parts) & names) + (["football"] if "football" in line.lower() else [])
            if hit:
                found.append(f"{path.relative_to(GM)}:{lineno}: {hit}: {line.strip()[:100]}")
    assert found == []


# ------------------------------------------------------------ plugins that go wrong
Dist = Callable[..., None]


@pytest.fixture
def fake_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Dist]:
    """Install a distribution (metadata only, plus optional modules) declaring ``games``
    (id -> "module:attr") on sys.path for this test; the registry forgets it afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_registered", {})
    registry._declared.cache_clear()

    def make(name: str, games: dict[str, str], modules: dict[str, str] | None = None) -> None:
        info = tmp_path / f"{name}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n" + "".join(f"{k} = {v}\n" for k, v in games.items()))
        for mod, src in (modules or {}).items():
            (tmp_path / f"{mod}.py").write_text(src)
        registry._declared.cache_clear()

    yield make
    registry._declared.cache_clear()


def test_a_plugin_that_cannot_be_imported_is_reported_not_fatal(fake_dist: Dist) -> None:
    fake_dist("broken-plugin", {"ghost": "no_such_module_xyz:GAME"})
    assert "ghost" in game_ids() and "ghost" not in [g.id for g in all_games()]
    with pytest.raises(GameError) as info:
        find_game("ghost")
    assert info.value.reason == (
        "the game ghost (no_such_module_xyz:GAME (from broken-plugin)) cannot be loaded: "
        "ModuleNotFoundError: No module named 'no_such_module_xyz'"
    )
    assert find_game("gf").id == "grid-football"  # every other game still plays
    assert set(broken_games()) == {"ghost"}
    out = CliRunner().invoke(app, ["games"]).output
    assert "ghost            cannot be loaded: the game ghost" in out and "grid-football" in out


def test_a_plugin_must_give_a_game_with_its_own_id(fake_dist: Dist) -> None:
    fake_dist("odd-plugin", {"not-a-game": "odd_plugin:GAME", "mislabelled": "odd_plugin:GF"},
              {"odd_plugin": "GAME = 'a string'\nfrom gm.games.grid_football import GAME as GF\n"})
    with pytest.raises(GameError, match=r"the entry point of game not-a-game \(odd_plugin:GAME \(from odd-plugin\)\) is a str, not a gm.core.Game"):
        find_game("not-a-game")
    with pytest.raises(GameError, match="loads a game whose id is 'grid-football'; name the entry point after the id"):
        find_game("mislabelled")


def test_two_packages_declaring_one_game_is_an_error_naming_both(fake_dist: Dist) -> None:
    fake_dist("copycat", {"grid-football": "copycat:GAME"}, {"copycat": "from gm.games.grid_football import GAME\n"})
    with pytest.raises(GameError) as info:
        find_game("grid-football")
    assert "several installed packages declare the game grid-football:" in info.value.reason
    assert "copycat:GAME (from copycat)" in info.value.reason and "gm.games.grid_football:GAME (from gm)" in info.value.reason


def test_register_game_wins_over_an_entry_point_and_adds_new_ids(fake_dist: Dist) -> None:
    from gm.games.gridmaster4 import GridMaster4

    other = type("Other", (GridMaster4,), {"id": "grid-football", "aliases": ()})()
    register_game(other)
    assert find_game("grid-football") is other
    extra = register_game(type("Extra", (GridMaster4,), {"id": "extra-game", "aliases": ("xg",)})())
    assert find_game("XG") is extra and "extra-game" in game_ids()


def test_the_default_game_must_be_unambiguous(fake_dist: Dist) -> None:
    from gm.games.gridmaster4 import GridMaster4

    register_game(type("Pretender", (GridMaster4,), {"id": "pretender", "aliases": (), "default": True})())
    with pytest.raises(UnknownGameError, match=r"several games declare themselves the default \(grid-football, pretender\): name the game"):
        default_game()
    res = CliRunner().invoke(app, ["sim", "-n", "1"])
    assert res.exit_code == 2 and "several games declare themselves the default" in res.output
    assert CliRunner().invoke(app, ["sim", "gf", "-n", "1", "--json"]).exit_code == 0


def test_with_no_game_declared_gm_says_how_to_fix_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_declared", lambda: {})
    monkeypatch.setattr(registry, "_registered", {})
    with pytest.raises(UnknownGameError, match=r"no games are installed \(no entry points in the group gm.games\): reinstall gm"):
        find_game("gf")
    with pytest.raises(UnknownGameError, match="no game declares itself the default: name the game; installed games: none"):
        default_game()
