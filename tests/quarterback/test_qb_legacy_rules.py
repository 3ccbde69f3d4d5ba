"""A changed default ruling (QB-R-TACKLE-PAIRS read as groups) leaves games made under the old one as they
were made: a session stored before the ruleset gained ``tackle_reading`` opens with its hash intact and plays
on under the older reading; a transcript recorded then replays under it; the ruleset hash of the older
reading is the hash those games were stored with."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from qb_helpers import G

from gm.core.game import legacy_values, ruleset_hash
from gm.games.quarterback.rules import QuarterbackRules
from gm.session import Session
from gm.transcript.format import Transcript
from gm.transcript.replay import header_rules, replay

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "transcripts" / "quarterback"
#: the default ruleset's hash before the field existed, as the transcripts recorded then hold it
OLD_DEFAULT_HASH = "06ec9a0c36"


def test_the_older_reading_hashes_as_before_the_field_existed() -> None:
    assert legacy_values(QuarterbackRules) == {"tackle_reading": "pairs"}
    old = G.load_rules({}, legacy=True)
    assert old.tackle_reading == "pairs" and G.load_rules({}).tackle_reading == "groups"
    data = old.model_dump(mode="json")
    del data["tackle_reading"]  # what the model dumped before it had the field
    blob = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    assert ruleset_hash(old) == hashlib.sha256(blob).hexdigest()
    assert ruleset_hash(old).startswith(OLD_DEFAULT_HASH)
    assert ruleset_hash(G.load_rules({})) != ruleset_hash(old)  # the new default is another game
    # a field given explicitly wins over the legacy fill
    assert G.load_rules({"tackle_reading": "groups"}, legacy=True).tackle_reading == "groups"


def test_a_transcript_recorded_under_the_old_default_replays_under_it() -> None:
    tr = Transcript.load(TRANSCRIPTS / "bots_default_seed1.jsonl")
    assert tr.header.rules == {} and tr.header.rules_hash.startswith(OLD_DEFAULT_HASH)
    assert header_rules(tr) is not None and header_rules(tr)["tackle_reading"] == "pairs"  # type: ignore[index]
    res = replay(tr, source="bots_default_seed1.jsonl")
    assert res.ok, res.report()
    # a transcript whose header names today's default keeps its overrides as they are
    tr.header.rules_hash = ruleset_hash(G.load_rules({}))
    assert header_rules(tr) is None


def test_a_session_stored_before_the_field_opens_and_plays_the_older_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session is written as the code before the field wrote it (its ruleset dumped without the field,
    hashed so), then opened by today's code: the chained header checks, and a Triple may not tackle a
    Triple there; a session made today plays the new default."""
    dump = QuarterbackRules.model_dump

    def old_dump(self: QuarterbackRules, **kw: Any) -> dict[str, Any]:
        data = dump(self, **kw)
        data.pop("tackle_reading", None)
        return data

    rules = {"format": "game", "first_attacker": "red", "tackle_reading": "pairs"}
    with monkeypatch.context() as m:
        m.setattr(QuarterbackRules, "model_dump", old_dump)
        old = Session.create("quarterback", seed=3, rules=rules, home=tmp_path, players={"red": "human", "blue": "human"})
    header = json.loads(old.store.path(old.id).read_text().splitlines()[0])  # type: ignore[attr-defined]
    assert header["rules"]["format"] == "game" and "tackle_reading" not in header["rules"]  # as the code before stored it
    reopened = Session.open(old.id, home=tmp_path)
    assert reopened.state.rules.tackle_reading == "pairs"
    assert ruleset_hash(reopened.state.rules).startswith(ruleset_hash(G.load_rules(rules))[:10])
    new = Session.create("quarterback", seed=3, rules={"format": "game"}, home=tmp_path, players={"red": "human", "blue": "human"})
    assert Session.open(new.id, home=tmp_path).state.rules.tackle_reading == "groups"
