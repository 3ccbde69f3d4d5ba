"""The exported documents: valid markdown, numbers from the ruleset, rule ids and rulings,
the worked example computed by the engine, and the committed rules markdown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from export_helpers import CUSTOM, GAME, check_markdown, prose, random_state, table_with_header

from gm.core.errors import GameError
from gm.export import DOCS, render_doc, template_dir
from gm.games.grid_football.ruleids import RULES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def default_docs() -> dict[str, str]:
    return {d: render_doc(GAME, d) for d in DOCS}


@pytest.fixture(scope="module")
def custom_docs() -> dict[str, str]:
    return {d: render_doc(GAME, d, CUSTOM) for d in DOCS}


# ------------------------------------------------------------------ markdown
@pytest.mark.parametrize("doc", DOCS)
def test_every_document_is_valid_markdown(doc: str, default_docs: dict[str, str], custom_docs: dict[str, str]) -> None:
    for text in (default_docs[doc], custom_docs[doc]):
        tables = check_markdown(text)
        assert tables or doc == "glossary", f"{doc} has no table"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_session_documents_of_games_in_progress_are_valid_markdown(seed: int) -> None:
    for moves in (5, 40, 400):
        state = random_state(seed, moves)
        text = render_doc(GAME, "session", state=state)
        check_markdown(text)
        view = state.view(None)
        for square in view["blocked"]:
            assert square in text


def test_the_markdown_check_catches_a_ragged_table() -> None:
    with pytest.raises(AssertionError, match="cells"):
        check_markdown("# T\n\n| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n")
    with pytest.raises(AssertionError, match="not in a table"):
        check_markdown("# T\n\n| a | b |\n| --- |\n| 1 | 2 |\n")


# ------------------------------------------------------ numbers from the ruleset
def _fwd(n: int) -> str:
    return f"+{n} forward" if n > 0 else f"{n} backward" if n < 0 else "0 forward"


def _lat(n: int) -> str:
    return f"up to {n} lateral" if n else "no lateral"


@pytest.mark.parametrize("rules", [None, CUSTOM], ids=["default", "custom"])
@pytest.mark.parametrize("doc", ["quickstart", "rules"])
def test_plays_table_is_the_rulesets(doc: str, rules: object) -> None:
    r = GAME.load_rules(rules)
    table = table_with_header(check_markdown(render_doc(GAME, doc, rules)), "Play", "Name")
    expected = [
        [str(n), s.name, f"{_fwd(s.wrong.forward)}, {_lat(s.wrong.lateral)}",
         f"{_fwd(s.matched.forward)}, {_lat(s.matched.lateral)}", f"Quarter {s.unlock_quarter}"]
        for n, s in sorted(r.plays.items())
    ]
    assert table[1:] == expected


@pytest.mark.parametrize("rules", [None, CUSTOM], ids=["default", "custom"])
def test_return_table_is_the_rulesets(rules: object) -> None:
    r = GAME.load_rules(rules)
    for doc in ("quickstart", "rules"):
        table = table_with_header(check_markdown(render_doc(GAME, doc, rules)), "Matches (position, colour)")
        got = {row[0]: row[1] for row in table[1:]}
        assert got["both"] == f"{r.return_steps[2]} steps"
        assert got["one"] == f"{r.return_steps[1]} steps"
        assert got["none"].startswith(f"{r.return_steps[0]} steps, then a number check 1-{r.number_max}:")


def test_default_documents_carry_the_guides_numbers(default_docs: dict[str, str]) -> None:
    qs = default_docs["quickstart"]
    for phrase in ("columns A-T, rows 1-64", "row 5 and row 59", "rows 1-5 and rows 59-64", "travels 55 rows",
                   "| both | 5 steps |", "| one | 10 steps |", "1st & 10", "4 downs to make progress",
                   "4 quarters, 15 downs each", "Switch ends after Quarters 1 and 3",
                   "Warning at 4 downs remaining in Quarters 2 and 4", "Play 4 is locked until Quarter 2",
                   "exactly +3 forward", "+2 bonus forward"):
        assert phrase in qs, phrase


def test_a_changed_ruleset_changes_every_number_that_depends_on_it(custom_docs: dict[str, str]) -> None:
    """No number of the default ruleset survives in prose rendered from a custom one (quotes
    of the guide and engine-printed boards aside), and the custom numbers are there."""
    defaults_only = ["10", "15", "40", "55", "58", "59", "60", "64"]
    for doc in ("quickstart", "rules", "glossary"):
        text = re.sub(r"^#+ \d+\. |section \d+", "", prose(custom_docs[doc]), flags=re.M)
        for n in defaults_only:
            hits = [m.start() for m in re.finditer(rf"(?<![\w.+-]){n}(?![\w-])", text)]
            assert not hits, f"{doc}: default number {n} left at {[text[max(0, h - 40):h + 20] for h in hits]}"
    qs, rules, gloss = (custom_docs[d] for d in ("quickstart", "rules", "glossary"))
    for phrase in ("columns A-V, rows 1-72", "row 4 and row 66", "rows 1-4 and rows 66-72", "travels 53 rows",
                   "comes down on row 57", "on row 13", "left D, center L, right S", "| both | 6 steps |",
                   "| one | 11 steps |", "17 steps, then a number check 1-12", "1st & 8", "5 downs to make progress",
                   "3rd or 5th down", "a punt travels 37 rows", "6 quarters, 13 downs each",
                   "Switch ends after Quarters 2 and 4", "Warning at 3 downs remaining in Quarters 3 and 6",
                   "Play 5 is locked until Quarter 3", "exactly +5 forward", "+1 bonus forward",
                   "+3 bonus forward", "The home team calls heads or tails", "Most points after Quarter 6 wins"):
        assert phrase in qs, phrase
    for phrase in ("row r becomes row 70 - r", "At the end of Quarter 3 (halftime)", "The field of play is rows 5-65",
                   "(row 65 or row 5)", "a touchdown scores 6 points", "This ruleset plays points mode",
                   "| 1 | +6 +1 = +7, up to 4 lateral | -1 +3 = +2, up to 3 lateral |", "| `rows` | 72 (changed) |",
                   "`[GF-LOCK] 'play 5 red': play 5 is locked until quarter 3`"):
        assert phrase in rules, phrase
    for phrase in ("rows 1-4 and rows 66-72", "from 1 to 12", "It scores 6 points", "13 downs; a game has 6"):
        assert phrase in gloss, phrase


def test_templates_type_no_game_numbers() -> None:
    """Every number in the documents comes from the ruleset or the engine: outside template
    tags and quotations of the guide, templates hold no digits but list and section numbers
    and the fixed first row / first down / first quarter (1) and zero."""
    for path in sorted(template_dir(GAME).glob("*.j2")):
        src = path.read_text(encoding="utf-8")
        literal = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", src, flags=re.S)
        literal = re.sub(r"“[^”]*”", " ", literal)
        literal = re.sub(r"^\s*\d+\.\s|^#+ \d+\. |section \d+|GF-[A-Z0-9-]+|\.md\.j2", " ", literal, flags=re.M)
        digits = {m.group() for m in re.finditer(r"\d+", literal)} - {"0", "1"}
        assert not digits, f"{path.name} types numbers by hand: {sorted(digits)}"


# ------------------------------------------------------------ worked example
def _engine_example(rules: object) -> tuple[str, str, str]:
    """The quick-start example played on the engine through its public API: the example kickoff
    (away kicks, one match), then home's first down from where the return ended.  The return
    square, the down's ending square and the down's events."""
    s = GAME.new_state(GAME.load_rules(rules), seed=0)
    s.apply(s.rules.toss_caller, "heads")
    s.apply(s.toss_winner, "receive" if s.toss_winner == "home" else "kick")
    s.apply("away", "center yellow")
    s.apply("home", "center red")
    start = s.snapshot()["ball"]
    events = s.apply("home", "play 1 red 2 right before") + s.apply("away", "play 3 black")
    assert s.snapshot()["blocked"] == [s.snapshot()["ball"]]
    return start, s.snapshot()["ball"], "\n".join(e.text for e in events if e.kind != "locked")


def test_worked_example_is_the_guides_and_the_engines(default_docs: dict[str, str]) -> None:
    """The guide's example (Play 1 Red 2 right before against Play 3 Black: +6, 2 right), played
    from where the example kickoff's return leaves the ball (issue #17)."""
    start, end, events = _engine_example(None)
    assert (start, end) == ("K14", "M20")
    qs = default_docs["quickstart"]
    assert "home returns the ball to K14.\n\n**Down 1: ball at row 14, column K**" in qs
    assert "`play 1 red 2 right before`" in qs and "`play 3 black`" in qs
    assert "**Result: no match!**" in qs
    assert "- Base Play 1 (defense wrong): +4 forward, up to 3 lateral allowed" in qs
    assert "- Bonus: +2 forward" in qs
    assert "- Total: +6 forward, lateral 2 right" in qs
    assert "Movement: row 14 to row 20, column K to column M." in qs
    assert "New position: **M20** (now blocked)." in qs
    assert events in qs


def test_worked_example_follows_a_changed_ruleset(custom_docs: dict[str, str]) -> None:
    start, end, events = _engine_example(CUSTOM)
    assert (start, end) == ("L24", "N31")  # the return's end, Play 1 wrong +6 with +1 bonus, 2 right
    qs = custom_docs["quickstart"]
    assert f"New position: **{end}** (now blocked)." in qs
    assert "Movement: row 24 to row 31, column L to column N." in qs
    assert "- Total: +7 forward, lateral 2 right" in qs
    assert events in qs


def test_kickoff_example_is_played_by_the_engine(default_docs: dict[str, str]) -> None:
    s = GAME.new_state(seed=0)
    s.apply("away", "heads")
    s.apply(s.toss_winner, "receive" if s.toss_winner == "home" else "kick")
    s.apply("away", "center yellow")
    s.apply("home", "center red")
    assert s.snapshot()["ball"] == "K14"
    assert "The kick comes down at K4;\n1 match, so the return is 10 steps:\nhome returns the ball to K14." in default_docs["quickstart"]


# ------------------------------------------------------------- rule ids, rulings
def test_every_rule_id_is_in_the_rules(default_docs: dict[str, str]) -> None:
    text = default_docs["rules"]
    missing = [rid for rid in RULES if f"`{rid}`" not in text and f"### {rid}:" not in text]
    assert not missing


def test_every_ruling_is_written_up_with_the_guide_the_ruling_and_why(default_docs: dict[str, str]) -> None:
    text = default_docs["rules"]
    rulings_section = text.split("\n## Rulings\n", 1)[1]
    for rid in (r for r in RULES if r.startswith("GF-R-")):
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |\Z)", rulings_section, flags=re.S | re.M)
        assert m, f"{rid} has no write-up under Rulings"
        body = m.group(1)
        for part in ("- **The guide:**", "- **Ruling:**", "- **Why:**"):
            assert part in body, f"{rid}: missing {part}"
        assert f"**Ruling `{rid}`.**" in text.split("\n## Rulings\n", 1)[0], f"{rid} is not stated where it applies"


def test_every_rule_id_the_engine_names_is_documented(default_docs: dict[str, str]) -> None:
    text = default_docs["rules"]
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "gm/games/grid_football").glob("*.py"))
    named = set(re.findall(r"\"((?:GF|CORE)-[A-Z0-9-]+)\"", src))
    assert named, "no rule ids found in the engine source"
    assert not sorted(rid for rid in named if rid not in text)


def test_unknown_document_is_a_clear_error() -> None:
    with pytest.raises(GameError, match="unknown document"):
        render_doc(GAME, "poster")


# ---------------------------------------------------------- committed markdown
def test_committed_rules_markdown_is_a_fresh_render(default_docs: dict[str, str]) -> None:
    """rules_md/grid_football.md is what GitHub readers see; regenerate it with
    ``gm export rules --game grid-football -o rules_md/grid_football.md``."""
    path = ROOT / "rules_md" / "grid_football.md"
    assert path.read_text(encoding="utf-8") == default_docs["rules"], (
        "rules_md/grid_football.md is stale: gm export rules --game grid-football -o rules_md/grid_football.md"
    )
