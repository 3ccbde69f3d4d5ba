"""The Chess-Football transcript corpus: at least 10 transcripts of every kind, all replaying, every
rule id exercised, and no bot's snap plan or secret ball holder written down before it was revealed."""

from __future__ import annotations

import json
from pathlib import Path

from gm.core.registry import find_game
from gm.transcript import Transcript
from gm.transcript.replay import iter_transcript_files

GAME = "chess-football"
CORPUS = Path(__file__).resolve().parents[2] / "transcripts" / "chess_football"
MAX_BYTES = 400_000


def test_the_corpus_has_at_least_ten_transcripts_of_every_kind() -> None:
    files = iter_transcript_files([CORPUS])
    assert len(files) >= 10
    recorded = [Transcript.load(p) for p in files if p.suffix == ".jsonl"]
    assert {t.header.referee.kind for t in recorded} == {"none", "offline"}  # bot games and scripted games
    scripted = [t for t in recorded if t.header.referee.kind == "offline"]
    assert any("bot:default" in t.header.players.values() for t in scripted)
    assert any("bot:random" in t.header.players.values() for t in scripted)  # the bot that runs play action
    assert any(set(t.header.players.values()) == {"human"} for t in scripted)
    assert sum(p.suffix == ".md" for p in files) >= 5
    assert all(t.header.game == GAME for t in recorded)
    assert all(p.stat().st_size <= MAX_BYTES for p in files)


def _bot_games() -> list[tuple[str, Transcript, list[str]]]:
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        tr = Transcript.load(path)
        if any(who.startswith("bot:") for who in tr.header.players.values()):
            out.append((path.name, tr, [json.dumps(e.model_dump()) for e in tr.entries]))
    return out


def test_a_bots_snap_plan_is_written_only_once_revealed() -> None:
    """The first entry that holds a bot's snap plan is the result that revealed it (its
    commitment opened and verified), and the ``bot_move`` entry comes after it."""
    game = find_game(GAME)
    checked = 0
    for name, tr, entries in _bot_games():
        for i, e in enumerate(tr.entries):
            if e.type != "bot_move" or game.parse_action(e.action).type != "plan" or e.action == "plan: hold":
                continue
            first = next(j for j, text in enumerate(entries) if json.dumps(e.action)[1:-1] in text)
            shown = tr.entries[first]
            assert first < i and shown.type == "tool_result", (name, i)
            assert shown.result["reveal"][e.seat]["choice"] == e.action and shown.result["reveal"][e.seat]["verified"]
            checked += 1
    assert checked >= 10


def test_a_bots_secret_ball_holder_is_written_only_once_the_ball_is_revealed() -> None:
    """A bot's play action names its secret holder (``play action ST1 ball ST1``): nothing before
    its ``bot_move`` entry holds that text (but the bot's earlier moves), and the ball was revealed
    in a result before it; while the ball was hidden the human's results showed both pieces only as
    maybe holding it."""
    checked = 0
    for name, tr, entries in _bot_games():
        for i, e in enumerate(tr.entries):
            if e.type != "bot_move" or not (e.action.startswith("play action") and " ball " in e.action):
                continue
            earlier = [text for text, entry in zip(entries[:i], tr.entries, strict=False) if entry.type != "bot_move"]
            assert all(json.dumps(e.action)[1:-1] not in text for text in earlier), (name, i)
            declared = max(j for j in range(i) if '"kind": "play_action"' in entries[j])
            revealed = next(j for j in range(declared, i) if '"kind": "reveal"' in entries[j])
            between = [tr.entries[j] for j in range(declared, revealed) if tr.entries[j].type == "tool_result"]
            assert between and all("?" in r.result.get("board", "?") for r in between), (name, i)
            checked += 1
    assert checked >= 3
