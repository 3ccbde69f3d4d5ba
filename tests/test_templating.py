"""One jinja environment (gm.templating) loads every template from the installed packages: gm's own
from gm/prompts, each game's from the templates/ folder of the package that defines it. A missing
template is a clear error naming the file and the package, never a silent fallback."""

from __future__ import annotations

import ast
import uuid
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import pytest

import gm
from gm import templating
from gm.core.errors import GameError
from gm.core.registry import all_games, find_game, register_game
from gm.export import DOCS, ExportError, render_doc
from gm.games.gridmaster4 import GridMaster4
from gm.mcp_server.host import document
from gm.referee.llm.prompts import rules_summary, summary_template, system_prompt

ROOT = Path(__file__).resolve().parents[1]
GM = Path(gm.__file__).resolve().parent


# ------------------------------------------------------------ a game of our own
TempGame = Callable[..., Any]


@pytest.fixture
def temp_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TempGame]:
    """Make a registered game (GridMaster4's rules and engine) in a fresh package of its own whose
    templates/ folder holds exactly ``files`` (path -> text); unregistered afterwards."""
    from gm.core import registry

    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def make(files: dict[str, str]) -> Any:
        pkg = f"tmpgame_{uuid.uuid4().hex[:10]}"
        folder = tmp_path / pkg
        (folder / "templates").mkdir(parents=True)
        (folder / "__init__.py").write_text("")
        for name, text in files.items():
            (folder / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / "templates" / name).write_text(text, encoding="utf-8")
        game = type("TempGame", (GridMaster4,), {"id": pkg.replace("_", "-"), "aliases": (), "package": pkg})()
        made.append(game.id)
        return register_game(game)

    yield make
    for gid in made:
        registry._registered.pop(gid, None)


# ------------------------------------------------------------ where templates live
def test_every_game_ships_its_templates_in_its_own_package() -> None:
    names = templating.environment().list_templates()
    for game in all_games():
        folder = templating.game_folder(game)
        package = Path(str(resources.files(game.package)))
        assert Path(str(folder)) == package / "templates"
        if game.package.startswith("gm.games."):  # gm's own five; a plugin's package is wherever it is installed
            assert package == GM / "games" / game.id.replace("-", "_")
        assert {f"{d}.md.j2" for d in DOCS} <= set(templating.game_templates(game))
        assert templating.game_name(game, "rules.md.j2") in names
    for own in ("referee_system.md.j2", "mcp_referee.md.j2", "rules_summary.md.j2"):
        assert (GM / "prompts" / own).is_file() and f"gm/{own}" in names


def test_nothing_is_read_from_the_checkout() -> None:
    """Templates live only inside the package; no module finds data next to its source file."""
    assert not (ROOT / "rules_md" / "templates").exists() and not (ROOT / "prompts").exists()
    for path in GM.rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        assert "__file__" not in src, f"{path.relative_to(ROOT)} locates files through __file__"


def test_there_is_one_jinja_environment() -> None:
    """Only gm/templating.py builds a jinja environment or loader."""
    makers = []
    for path in GM.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "Environment", "FileSystemLoader", "PackageLoader", "Template",
            ):
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == []
    assert isinstance(templating.environment().loader, templating.ResourceLoader)
    assert templating.environment() is templating.environment()


# ------------------------------------------------------------ names and lookups
def test_a_game_template_imports_its_own_macros_by_a_relative_name(temp_game: TempGame) -> None:
    game = temp_game({
        "_macros.md.j2": "{% macro title(x) %}# {{ x }} (macro of this game){% endmacro %}\n",
        "rules.md.j2": '{% import "_macros.md.j2" as m %}{{ m.title(game.name) }}\n\n{{ ids("GM4-MOVE") }}\n',
    })
    assert render_doc(game, "rules") == "# GridMaster4 (macro of this game)\n\n`GM4-MOVE`\n"
    env = templating.environment()
    assert env.join_path("_macros.md.j2", f"games/{game.id}/rules.md.j2") == f"games/{game.id}/_macros.md.j2"
    assert env.join_path("gm/referee_system.md.j2", f"games/{game.id}/rules.md.j2") == "gm/referee_system.md.j2"


def test_a_missing_document_names_the_file_and_the_package(temp_game: TempGame) -> None:
    game = temp_game({"rules.md.j2": "# R\n"})
    with pytest.raises(ExportError) as info:
        render_doc(game, "quickstart")
    reason = info.value.reason
    assert f"game {game.id} has no template 'quickstart.md.j2'" in reason
    assert f"templates/ folder of package {game.package}" in reason and "it has: rules.md.j2" in reason
    assert info.value.rule == "CORE-EXPORT"


def test_a_missing_import_is_an_error_not_an_empty_macro(temp_game: TempGame) -> None:
    game = temp_game({"rules.md.j2": '{% import "_nope.md.j2" as m %}# R\n'})
    with pytest.raises(ExportError, match=r"has no template '_nope\.md\.j2'"):
        render_doc(game, "rules")


def test_a_template_citing_an_unknown_rule_id_fails_to_render(temp_game: TempGame) -> None:
    game = temp_game({"rules.md.j2": "# X\n\n{{ ids('GM4-NO-SUCH-RULE') }}\n"})
    with pytest.raises(ExportError, match="GM4-NO-SUCH-RULE") as info:
        render_doc(game, "rules")
    assert info.value.reason == "a template cites a rule id the game does not define"


def test_ids_in_a_macro_imported_without_context_still_checks_the_games_rule_ids(temp_game: TempGame) -> None:
    game = temp_game({
        "_macros.md.j2": "{% macro cite(rid) %}see {{ ids(rid) }}{% endmacro %}\n",
        "rules.md.j2": '{% import "_macros.md.j2" as m %}# R\n\n{{ m.cite("GM4-MOVE") }}\n',
        "glossary.md.j2": '{% import "_macros.md.j2" as m %}# G\n\n{{ m.cite("GF-KICK") }}\n',
    })
    assert "see `GM4-MOVE`" in render_doc(game, "rules")
    with pytest.raises(ExportError, match="GF-KICK"):
        render_doc(game, "glossary")


def test_template_errors_say_where() -> None:
    with pytest.raises(templating.TemplateError, match=r"gm's template 'nope\.md\.j2' is missing from the prompts/ folder"):
        templating.render("gm/nope.md.j2", {})
    with pytest.raises(templating.TemplateError, match="names start with gm/ or games/"):
        templating.template("rules_md/templates/x.md.j2")
    with pytest.raises(templating.TemplateError, match=r"no template '\.\./\.\./pyproject\.toml'"):
        templating.template("games/grid-football/../../pyproject.toml")
    with pytest.raises(GameError, match="no such game"):
        templating.template("games/tiddlywinks/rules.md.j2")


def test_a_syntax_error_and_an_undefined_name_are_template_errors(temp_game: TempGame) -> None:
    game = temp_game({"rules.md.j2": "# R\n{% if %}\n", "glossary.md.j2": "# G {{ no_such_name }}\n"})
    with pytest.raises(ExportError, match="template syntax error at line 2"):
        render_doc(game, "rules")
    with pytest.raises(ExportError, match="'no_such_name' is undefined"):
        render_doc(game, "glossary")


def test_the_filters_are_shared_by_every_template() -> None:
    env = templating.environment()
    tpl = env.from_string("{{ 4 | signed }} {{ -2 | signed }} {{ 11 | ordinal }} {{ 22 | ordinal }} {{ [1, 2, 3] | join_and }} "
                          "{{ 'a|b' | cell }} {{ ['H11', 'H8'] | natural | join(',') }}")
    assert tpl.render() == "+4 -2 11th 22nd 1, 2 and 3 a\\|b H8,H11"
    assert isinstance(env.undefined, type) and issubclass(env.undefined, jinja2.StrictUndefined)


# ------------------------------------------------------------ the referee prompts
def test_a_game_without_a_rules_summary_gets_the_default_one_with_its_rule_ids() -> None:
    gm4, gf = find_game("gridmaster4"), find_game("grid-football")
    assert summary_template(gm4) == "gm/rules_summary.md.j2"
    assert summary_template(gf) == "games/grid-football/prompts/rules_summary.md.j2"
    players = {s: "human" if i == 0 else "bot:default" for i, s in enumerate(gm4.seats)}
    text = rules_summary(gm4, gm4.default_rules(), "orange", players)
    assert text.startswith("- GM4-") and text.endswith("Look up any rule with get_rules.")
    prompt = system_prompt(gf, gf.default_rules(), "home", {"home": "human", "away": "bot:default"})
    assert prompt.startswith("You referee Turn-Based Grid Football in a terminal for one player, home (opponent: away (bot:default)).")
    assert "- Kickoff: 55 rows from the kicker's goal line." in prompt


def test_a_game_with_its_own_rules_summary_uses_it(temp_game: TempGame) -> None:
    game = temp_game({"prompts/rules_summary.md.j2": "- {{ r.tiles }} tiles for {{ seat }}\n"})
    players = {s: "human" for s in game.seats}
    assert rules_summary(game, game.default_rules(), "lime", players) == "- 100 tiles for lime"
    assert system_prompt(game, game.default_rules(), "lime", players).endswith("Rules (you may quote them):\n- 100 tiles for lime")


# ------------------------------------------------------------ no silent fallback
def test_the_mcp_rules_resource_of_a_game_without_templates_is_an_error(temp_game: TempGame) -> None:
    game = temp_game({})
    with pytest.raises(ExportError, match=rf"game {game.id} has no template 'rules\.md\.j2'.*it has: none"):
        document(game, "rules")
    with pytest.raises(ExportError, match=r"no template 'quickstart\.md\.j2'"):
        document(game, "quickstart")
