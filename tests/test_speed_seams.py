"""Every speed trick in ``gm/`` lives behind one named seam: a ``# speed seam: <name>`` comment at the
trick saying what it saves, and a row of the "Speed seams" table of ``docs/architecture.md`` naming it,
where it is, what it saves and the bench row that shows it.  The table is read from the document
itself (as ``test_layers`` reads the layer table), so a trick added without its row, or a row whose
trick is gone, fails here; the bench keeps the figures, no test times anything."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

from test_layers import GM, _section, _table_rows

ROOT = GM.parent
#: the marker: ``# speed seam: <name> - what it saves``
MARK = re.compile(r"#\s*speed seam:\s*(?P<name>[a-z0-9][a-z0-9-]*)(?P<rest>.*)$")


@cache
def marked() -> dict[str, dict[str, list[str]]]:
    """Seams marked in the code: name -> file (``gm/...``) -> the marker lines' text after the name."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(GM.rglob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "speed seam:" in line:
                match = MARK.search(line)
                assert match, f"{path.relative_to(ROOT)}: a speed seam marker is '# speed seam: <name> - what it saves': {line.strip()}"
                found[match["name"]][path.relative_to(ROOT).as_posix()].append(match["rest"])
    return {name: dict(files) for name, files in found.items()}


@cache
def documented() -> dict[str, tuple[set[str], str, tuple[str, str]]]:
    """The table: name -> (the files it is in, what it saves, (bench module, bench row))."""
    table = {}
    for row in _table_rows(_section("Speed seams")):
        assert len(row) == 4, f"a speed seam row is: name | where | what it saves | bench row: {row}"
        name, where, saves, bench = row
        names = re.findall(r"`([^`]+)`", name)
        assert len(names) == 1, f"a speed seam row names one seam: {row}"
        files = {re.split(r"::| ", p)[0] for p in re.findall(r"`(gm/[^`]+)`", where)}
        assert files, f"speed seam {names[0]!r} says where it is (a `gm/...` path): {row}"
        shown = re.findall(r"`([^`]+)`", bench)
        assert len(shown) == 2, f"speed seam {names[0]!r} names its bench row as `module` `row`: {row}"
        assert names[0] not in table, f"speed seam {names[0]!r} is listed twice"
        table[names[0]] = (files, saves, (shown[0], shown[1]))
    return table


def test_every_marked_seam_is_documented_and_every_documented_seam_is_marked() -> None:
    assert sorted(set(marked()) - set(documented())) == [], "marked in the code, missing from docs/architecture.md"
    assert sorted(set(documented()) - set(marked())) == [], "in docs/architecture.md, marked nowhere in gm/"


def test_a_seam_is_where_the_table_says() -> None:
    wrong = {name: (sorted(files), sorted(marked()[name])) for name, (files, _, _) in documented().items()
             if name in marked() and set(marked()[name]) != files}
    assert wrong == {}


def test_a_seam_says_what_it_saves() -> None:
    """At the trick (words after the marker's name: the comment it opens says the rest) and in the table."""
    assert [name for name, files in marked().items() for rests in files.values() if not any(r.strip(" -:") for r in rests)] == []
    assert [name for name, (_, saves, _) in documented().items() if len(saves.split()) < 4] == []


def test_a_seam_names_a_bench_row_there_is() -> None:
    """The bench module is one of ``bench/`` and its source makes the row (``<game>`` stands for any game)."""
    missing = []
    for name, (_, _, (module, row)) in documented().items():
        path = ROOT / "bench" / f"bench_{module}.py"
        source = path.read_text(encoding="utf-8") if path.exists() else ""
        if not source or not all(part in source for part in re.split(r"<[^>]+>", row) if part):
            missing.append(f"{name}: {module} {row}")
    assert missing == []


def test_the_reader_sees_the_seams() -> None:
    """The tests above cannot pass by reading nothing: the core's own seams are found on both sides."""
    assert {"event-slots", "made-actions", "shared-tables", "narration-memo"} <= set(marked()) & set(documented())
    assert MARK.search("x = 1  # speed seam: some-name - saves a lookup")["name"] == "some-name"  # type: ignore[index]
