"""``gm eval``: how good is a model at refereeing?

Each game ships a suite of player messages (:mod:`gm.eval.suite`); :func:`evaluate` sends every
message through the real :class:`~gm.referee.llm.LLMReferee` with the chosen provider, in a fresh
session at the case's position, and scores what reached the engine (:mod:`gm.eval.runner`).
``--referee scripted`` runs the built-in scripted model (:mod:`gm.eval.scripted`), whose scores
are known exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gm.eval.runner import CaseResult, Metered, report, run_case, score, table
from gm.eval.suite import Case, load_suite

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.referee.llm.providers import Provider

__all__ = ["Case", "CaseResult", "evaluate", "evaluate_offline", "load_suite", "report", "score", "scripted_provider", "table"]


def evaluate(
    games: Sequence[Game],
    provider: Provider,
    *,
    before_case: Callable[[Case], None] | None = None,
    after_case: Callable[[CaseResult], None] | None = None,
    **referee_options: Any,
) -> list[CaseResult]:
    """Every case of every game's suite through a fresh :class:`LLMReferee` over ``provider``."""
    from gm.referee.llm.referee import LLMReferee

    metered = Metered(provider)
    results: list[CaseResult] = []
    for game in games:
        for case in load_suite(game):
            if before_case:
                before_case(case)
            result = run_case(game, case, LLMReferee(metered, **referee_options), metered)
            results.append(result)
            if after_case:
                after_case(result)
    return results


class _NoModel:
    """The provider of a referee that asks no model (the offline one): never called."""

    kind = "offline"
    model: str | None = None

    def complete(self, request: Any) -> Any:
        raise AssertionError("the offline referee asks no model")


def evaluate_offline(
    games: Sequence[Game],
    *,
    before_case: Callable[[Case], None] | None = None,
    after_case: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Every case of every game's suite through a fresh offline referee, scored like a model
    (``gm eval --referee offline``: no requests, no tokens)."""
    from gm.referee.offline import OfflineReferee

    metered = Metered(_NoModel())  # type: ignore[arg-type]  # nothing is ever sent through it
    results: list[CaseResult] = []
    for game in games:
        for case in load_suite(game):
            if before_case:
                before_case(case)
            result = run_case(game, case, OfflineReferee(), metered)
            results.append(result)
            if after_case:
                after_case(result)
    return results


def scripted_provider() -> tuple[Provider, Callable[[Case], None]]:
    """The scripted model behind the real openai SDK, and the hook telling it the case at hand."""
    from gm.eval.scripted import MODEL, ScriptedEndpoint
    from gm.referee.llm.providers import SDKProvider, make_client

    endpoint = ScriptedEndpoint()

    def set_case(case: Case) -> None:
        endpoint.case = case

    client = make_client("openai", api_key="scripted", max_retries=0, http_client=endpoint.client())
    return SDKProvider("openai", MODEL, client), set_case
