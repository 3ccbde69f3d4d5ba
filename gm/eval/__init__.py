"""``gm eval``: how good is a model at refereeing?

Each game ships a suite of player messages (:mod:`gm.eval.suite`); :func:`evaluate` sends every
message through the real :class:`~gm.referee.llm.LLMReferee` with the chosen provider, in a fresh
session at the case's position, and scores what reached the engine (:mod:`gm.eval.runner`).
``--referee scripted`` runs the built-in scripted model (:mod:`gm.eval.scripted`), whose scores
are known exactly; ``--referee mediocre`` a deliberately mediocre one (:mod:`gm.eval.mediocre`),
whose many faults are known in advance too; ``--referee offline`` gm's own offline referee
(:func:`evaluate_offline`, no model at all), scored the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.eval.runner import CaseResult, Metered, Requests, report, run_case, score, table
from gm.eval.suite import Case, load_suite

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.referee.llm.providers import Provider

__all__ = ["Case", "CaseResult", "Requests", "Scripted", "evaluate", "evaluate_offline", "load_suite", "report", "score",
           "scripted_provider", "table"]


def evaluate(
    games: Sequence[Game],
    provider: Provider,
    *,
    requests: Requests | None = None,
    before_case: Callable[[Case], None] | None = None,
    on_session: Callable[[Any, str], None] | None = None,
    after_case: Callable[[CaseResult], None] | None = None,
    **referee_options: Any,
) -> list[CaseResult]:
    """Every case of every game's suite through a fresh :class:`LLMReferee` over ``provider``
    (``requests``: the counter on ``provider``'s HTTP client, :func:`gm.eval.runner.counting_client`)."""
    from gm.referee.llm.referee import LLMReferee

    metered = Metered(provider)
    results: list[CaseResult] = []
    for game in games:
        for case in load_suite(game):
            if before_case:
                before_case(case)
            result = run_case(game, case, lambda: LLMReferee(metered, **referee_options), metered, requests,
                              on_session=on_session)
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
            result = run_case(game, case, OfflineReferee, metered)
            results.append(result)
            if after_case:
                after_case(result)
    return results


@dataclass
class Scripted:
    """A scripted model behind the real openai SDK on a mock transport: the provider, the counter of
    its HTTP requests, and the hooks telling it the case and the session at hand."""

    provider: Provider
    requests: Requests
    endpoint: Any  # None: a live model, told nothing

    def before_case(self, case: Case) -> None:
        if self.endpoint is not None:
            self.endpoint.case = case

    def on_session(self, session: Any, seat: str) -> None:
        if self.endpoint is not None:
            self.endpoint.session_at(session, seat)


def scripted_provider(kind: str = "scripted") -> Scripted:
    """The built-in scripted model (``scripted``: right but for each suite's documented mistakes;
    ``mediocre``: many faults of every kind, known in advance - :mod:`gm.eval.mediocre`)."""
    from gm.eval.runner import counting_client
    from gm.referee.llm.providers import SDKProvider, make_client

    if kind == "mediocre":
        from gm.eval.mediocre import MODEL, MediocreEndpoint

        endpoint: Any = MediocreEndpoint()
        retries = 1  # its 'retry' fault: a 500 the SDK asks again
    else:
        from gm.eval.scripted import MODEL, ScriptedEndpoint

        endpoint = ScriptedEndpoint()
        retries = 0
    counter = Requests()
    client = make_client("openai", api_key="scripted", max_retries=retries, http_client=counting_client("openai", counter, transport=endpoint.transport()))
    return Scripted(SDKProvider("openai", MODEL, client), counter, endpoint)
