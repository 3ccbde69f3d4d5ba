"""Typed errors of gm.

Every rejection carries a stable rule id, the offending input quoted, a reason and
what would have been legal, so that a tool result, a CLI line and a test can all
say exactly what went wrong.  Errors are raised inside the engine and turned into
tool results or CLI messages only at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

#: the longest quoted input an error carries (longer input is cut, with "...")
QUOTE_MAX = 200


def quote(text: object, limit: int = QUOTE_MAX) -> str:
    """``text`` as an error quotes it: its string form, cut to ``limit`` characters."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


class GameError(Exception):
    """Base of every domain error gm raises."""

    kind = "error"

    def __init__(
        self,
        reason: str,
        *,
        rule: str = "CORE",
        input: str | None = None,
        legal: Sequence[str] = (),
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.input = input
        self.legal = tuple(legal)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """One line: rule id, quoted input and reason."""
        quoted = f" {self.input!r}:" if self.input is not None else ""
        return f"[{self.rule}]{quoted} {self.reason}"

    # alike on purpose: a game's action to_json has the same literal shape; this is the one error shape's fields
    def to_json(self) -> dict[str, Any]:
        """The error as a JSON-ready dict (what a tool result carries)."""
        return {
            "error": self.kind,
            "rule": self.rule,
            "input": self.input,
            "reason": self.reason,
            "legal": list(self.legal),
        }


def error_json(exc: GameError) -> dict[str, Any]:
    """The one JSON shape of a refusal on every surface: ``kind``, ``rule``, ``input`` (quoted),
    ``reason`` and ``legal``.  A tool result (session, MCP, ``gm call``) carries it as its
    ``error``; an HTTP answer (API, page) as its ``error`` too, with ``status`` and the one-line
    ``message`` besides (:func:`http_error`)."""
    raw = exc.to_json()
    return {"kind": raw.pop("error"), **raw}


def http_error(exc: GameError, status: int = 400) -> dict[str, Any]:
    """``error`` of an HTTP answer refusing ``exc``: :func:`error_json` with ``status`` and ``message``."""
    return {"status": status, "message": exc.message, **error_json(exc)}


# alike on purpose: the error classes below share a shape; each is one kind of refusal (its ``kind`` in the one error shape)
class ActionError(GameError):
    """An action that was not accepted; the state is unchanged."""

    kind = "action_error"


class InvalidActionError(ActionError):
    """The input is not a well-formed action at all (syntax, types, ranges)."""

    kind = "invalid_action"


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow now."""

    kind = "illegal_action"


class UnknownGameError(GameError):
    """No registered game has that name or alias."""

    kind = "unknown_game"


class RulesetError(GameError):
    """A ruleset (e.g. a TOML rules file) failed validation."""

    kind = "bad_ruleset"


class StateError(GameError):
    """A serialized state or session cannot be read."""

    kind = "bad_state"


def bad_input(reason: str, text: object, *, rule: str, legal: Iterable[str] = ()) -> InvalidActionError:
    """The error for text that is not a well-formed action: the one way every game's parser says
    so (the input quoted and cut alike everywhere)."""
    return InvalidActionError(reason, rule=rule, input=quote(text), legal=tuple(legal))
