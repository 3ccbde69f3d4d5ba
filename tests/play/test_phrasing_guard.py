"""The generic half of the offline referee's understanding knows no game (#37): no string in the code of
``gm/core/phrasing.py``, ``gm/referee/offline.py``, ``gm/referee/corpus.py`` or ``gm/referee/base.py``
holds a word of any game's vocabulary, slang, table talk or move notation - beyond the plain English
the generic reader itself declares (``COMMON``, ``FILLER``).  Each game keeps its words in its package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import gm
from gm.core.phrasing import COMMON, FILLER
from gm.core.registry import all_games

GM = Path(gm.__file__).resolve().parent
GENERIC = ("core/phrasing.py", "referee/offline.py", "referee/corpus.py", "referee/base.py")


def _game_words() -> set[str]:
    words: set[str] = set()
    for game in all_games():
        p = game.phrasing()
        words |= set(p.vocabulary) | set(p.filler)
        for phrase in (*p.talk, *(r for _, r in p.synonyms)):
            words |= set(re.findall(r"[a-z]{3,}", phrase.lower()))
        for example in game.move_examples:
            words |= set(re.findall(r"[a-z]{3,}", example.lower()))
    return {w for w in words if len(w) >= 3} - COMMON - FILLER


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_the_generic_reader_names_no_game_word() -> None:
    words = _game_words()
    assert {"yellow", "receive", "triple", "push", "captains", "midfield", "tile", "huddle"} & words >= {
        "yellow", "receive", "triple", "push", "midfield"}  # the guard sees each game's words
    found = []
    for rel in GENERIC:
        for line, text in _strings(GM / rel):
            hits = sorted(words & set(re.findall(r"[a-z]+", text.lower())))
            if hits:
                found.append(f"{rel}:{line}: {hits}")
    assert found == []


def test_every_game_with_a_phrasing_of_its_own_keeps_it_in_its_package() -> None:
    from gm.core.phrasing import PLAIN

    for game in all_games():
        p = game.phrasing()
        if p is not PLAIN:
            assert p.hook is None or p.hook.__module__.startswith(game.package), game.id
