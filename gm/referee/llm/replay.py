"""Replay of an LLM referee from a transcript: the recorded model responses, served in order.

``gm replay`` re-runs the whole referee loop – prompts, payloads, tool plumbing,
narration check – with :class:`ReplayProvider` in place of the model, and reports
where the referee would now make different tool calls.  No SDK and no network.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gm.referee.llm.providers import KINDS, PARSERS, PAYLOADS
from gm.referee.llm.referee import LLMReferee
from gm.referee.llm.types import LLMError, Reply, Request

if TYPE_CHECKING:
    from gm.transcript.format import Transcript


class ReplayProvider:
    """Serves recorded responses (``model_dump()`` JSON) in order; a recorded failure
    (``{"gm_error": ...}``) is raised again.  Every request is still built in the
    provider's wire format, and its size kept in :attr:`payload_chars`."""

    def __init__(self, kind: str, model: str | None, responses: Iterable[dict[str, Any]]) -> None:
        if kind not in KINDS:
            raise ValueError(f"cannot replay referee kind {kind!r}; kinds: {', '.join(KINDS)}")
        self.kind = kind
        self.model = model or "replay"
        self._queue = deque(responses)
        self.payload_chars: list[int] = []

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def complete(self, request: Request) -> Reply:
        payload = PAYLOADS[self.kind](self.model, request)
        self.payload_chars.append(len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False)))
        if not self._queue:
            raise LLMError("the transcript has no further recorded model response", kind="replay")
        raw = self._queue.popleft()
        err = raw.get("gm_error")
        if isinstance(err, dict):
            raise LLMError(str(err.get("message", "recorded failure")), kind=str(err.get("kind", "error")), status=err.get("status"))
        return PARSERS[self.kind](raw)


def recorded_responses(tr: Transcript, kind: str) -> list[dict[str, Any]]:
    return [e.response for e in tr.entries if e.type == "llm_response" and e.provider == kind]


def replay_referee(tr: Transcript) -> LLMReferee:
    """An LLM referee for ``tr`` that answers from its recorded responses."""
    kind = tr.header.referee.kind
    return LLMReferee(ReplayProvider(kind, tr.header.referee.model, recorded_responses(tr, kind)), kind=kind)
