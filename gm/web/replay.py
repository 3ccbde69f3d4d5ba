"""The transcript viewer's data: recorded games replayed through the engine, move by move, each step
with the board drawn, and where the replay differs from the recording (as ``gm replay`` reports it).

The games come from one folder of transcripts (``$GM_TRANSCRIPTS``, else ``transcripts/`` in the folder
gm serve was started from: a checkout's corpus), ``<game folder>/<name>.jsonl``; nothing else is read.
Players' own games stay out of it: a served transcript is another player's record.  When the folder
has a ``viewer.toml``, only the games it lists are offered, with its titles: a corpus that is also a
test suite keeps its fixtures (a referee's edge cases, one rule at a time) out of the viewer.
"""

from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

#: steps one viewer answer carries at most (the corpus' games are far shorter)
MAX_STEPS = 3000


def corpus_root() -> Path | None:
    env = os.environ.get("GM_TRANSCRIPTS")
    root = Path(env) if env else Path.cwd() / "transcripts"  # a checkout's corpus, where gm serve was started
    return root if root.is_dir() else None


#: the viewer's list of games in a corpus folder (else every recorded game there)
MANIFEST = "viewer.toml"


def corpus() -> list[dict[str, str]]:
    """The recorded games the viewer offers: ``{"game": folder, "name": file stem, "title"}`` - those
    the corpus' ``viewer.toml`` lists (``[[games]]`` with ``folder``, ``name``, ``title``) that exist,
    else every ``<folder>/<name>.jsonl``."""
    root = corpus_root()
    if root is None:
        return []
    manifest = root / MANIFEST
    if manifest.is_file():
        listed = tomllib.loads(manifest.read_text(encoding="utf-8")).get("games", [])
        return [
            {"game": str(g["folder"]), "name": str(g["name"]), "title": str(g.get("title") or g["name"])}
            for g in listed
            if isinstance(g, dict) and "/" not in f"{g.get('folder')}{g.get('name')}" and (root / str(g.get("folder")) / f"{g.get('name')}.jsonl").is_file()
        ]
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for f in sorted(folder.glob("*.jsonl")):
            out.append({"game": folder.name, "name": f.stem, "title": f.stem.replace("_", " ")})
    return out


def steps(folder: str, name: str) -> dict[str, Any]:
    """Every position of a recorded game: the move that led to it, the board (geometry and ASCII),
    and the first divergence from the recording, marked on the step where the replay reached it."""
    if not any(item["game"] == folder and item["name"] == name for item in corpus()):
        return {"ok": False, "error": {"status": 404, "message": f"no recorded game {folder}/{name}"}}
    root = corpus_root()
    assert root is not None
    path = root / folder / f"{name}.jsonl"
    return _steps(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _steps(path: str, mtime: int) -> dict[str, Any]:
    from gm.core.errors import GameError
    from gm.transcript.format import ToolCallEntry, ToolResultEntry, Transcript
    from gm.transcript.replay import normalise, session_of

    try:
        tr = Transcript.load(path)
        session = session_of(tr)
    except (GameError, OSError, ValueError) as exc:
        return {"ok": False, "error": {"status": 400, "message": f"cannot replay it: {exc}"}}
    divergence: dict[str, Any] | None = None
    pending: dict[str, dict[str, Any]] = {}
    for i, e in enumerate(tr.entries):
        if isinstance(e, ToolCallEntry):
            pending[e.id] = session.call(e.tool, e.args, e.seat, board=e.board if e.board is not None else True)  # as gm replay calls
        elif isinstance(e, ToolResultEntry) and divergence is None:
            actual = pending.pop(e.id, None)
            if actual is None or normalise(actual) != normalise(e.result):
                divergence = {"line": i + 2, "moves": len(session.state.log), "what": f"the result of call {e.id} differs from the recording"}
    game = session.game
    st = session.state.fresh()
    out: list[dict[str, Any]] = [_step(game, st, None, None)]
    for n, move in enumerate(session.state.log[:MAX_STEPS], start=1):
        st.apply(move.seat, move.action)
        step = _step(game, st, move.seat, str(move.action))
        if divergence is not None and n == divergence["moves"]:
            step["divergence"] = f"line {divergence['line']}: {divergence['what']}"
        out.append(step)
    if game.status(st) != game.status(session.state):  # the log must rebuild the replayed game
        return {"ok": False, "error": {"status": 500, "message": "the moves of the replay do not rebuild its game"}}
    if divergence is not None and divergence["moves"] == 0:
        out[0]["divergence"] = f"line {divergence['line']}: {divergence['what']}"
    return {
        "ok": True,
        "game": game.id,
        "title": tr.header.title,
        "players": tr.header.players,
        "steps": out,
        "divergence": divergence,
        "final": game.status(st),
    }


def _step(game: Any, st: Any, seat: str | None, move: str | None) -> dict[str, Any]:
    return {"seat": seat, "move": move, "status": game.status(st), "board": game.board_json(st, None), "ascii": game.render(st, None)}
