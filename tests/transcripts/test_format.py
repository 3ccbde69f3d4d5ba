"""The transcript format: schema file in sync, round trips, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm.core.errors import StateError
from gm.transcript import Header, Recorder, Transcript
from gm.transcript.format import json_schema

ROOT = Path(__file__).resolve().parents[2]


def test_exported_schema_file_is_current() -> None:
    on_disk = json.loads((ROOT / "docs" / "transcript.schema.json").read_text())
    assert on_disk == json_schema(), "regenerate docs/transcript.schema.json from gm.transcript.format.json_schema()"


def test_recorder_writes_what_load_reads(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    rec = Recorder(Header(game="grid-football", seed=3), path)
    rec.player("home", "play 1 red")
    cid = rec.tool_call("home", "call_play", {"play": 1, "colour": "red"})
    rec.tool_result(cid, {"ok": True})
    rec.narration("fine", seat="home", flags=["checked"])
    rec.board("A B", seat="home")
    rec.usage(input_tokens=10, output_tokens=2)
    loaded = Transcript.load(path)
    assert loaded == rec.transcript
    assert Transcript.from_jsonl(loaded.to_jsonl()) == loaded


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty transcript"),
        ("not json\n", "line 1 is not a gm transcript header"),
        ('{"format":"gm-transcript","version":1,"game":"grid-football"}\n{"type":"nope"}\n', "line 2"),
        ('{"format":"gm-transcript","version":99,"game":"grid-football"}\n', "newer than this gm"),
        ('{"format":"other","game":"x"}\n', "line 1"),
    ],
)
def test_bad_transcripts_get_one_clear_error(text: str, needle: str) -> None:
    with pytest.raises(StateError) as exc:
        Transcript.from_jsonl(text, "t.jsonl")
    assert needle in exc.value.message
    assert "\n" not in exc.value.message
