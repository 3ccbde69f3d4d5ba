"""Acceptance: chats of all five games as chatbots write them (tables of every kind, emoji, prefixes, logs
printed again with each answer, chatter, junk tables and code, moves typed in prose), clean, with mistakes
and with junk, each audited exactly as the rules say (``corpus/NAME.md`` -> ``corpus/NAME.audit``, the
audit ``gm import`` prints).  Written apart from the engine's own log writer: the chats are text files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app

CORPUS = Path(__file__).parent / "corpus"
CHATS = sorted(p.stem for p in CORPUS.glob("*.md"))
runner = CliRunner()


def test_every_game_has_clean_and_mistaken_chats() -> None:
    for prefix in ("gf_", "qb_", "gm4_", "br_", "cf_"):
        names = [c for c in CHATS if c.startswith(prefix)]
        assert any("clean" in n for n in names) and any("mistakes" in n for n in names), prefix


@pytest.mark.parametrize("name", CHATS)
def test_a_chat_is_audited_as_the_rules_say(name: str, tmp_path: Path) -> None:
    res = runner.invoke(app, ["import", str(CORPUS / f"{name}.md"), "--gm-home", str(tmp_path), "-o", str(tmp_path / "s.json")])
    assert res.exit_code == 0, res.output
    audit = res.stdout.split(f"wrote {tmp_path / 's.json'}")[0]
    assert audit == (CORPUS / f"{name}.audit").read_text(encoding="utf-8")
