"""pytest plugin: every transcript (``*.jsonl``) and scenario (``*.md``) under a folder
named ``transcripts`` is a test item.  Registered through the ``pytest11`` entry point,
so ``pytest`` in any project with a ``transcripts/`` folder runs them (``-k``/``-x`` work)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix not in (".jsonl", ".md") or file_path.name == "README.md":
        return None
    if "transcripts" not in file_path.parts:
        return None
    return TranscriptFile.from_parent(parent, path=file_path)


class TranscriptDiverged(Exception):
    """A transcript no longer replays as recorded."""


class TranscriptFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield TranscriptItem.from_parent(self, name=self.path.stem)


class TranscriptItem(pytest.Item):
    def runtest(self) -> None:
        from gm.transcript.replay import replay_path

        res = replay_path(self.path)
        self.user_properties.append(("rules", sorted(res.rules)))
        if not res.ok:
            raise TranscriptDiverged(res.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, TranscriptDiverged):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"transcript {self.path.name}"
