"""The LLM referee: OpenAI (Chat Completions or Responses, and any OpenAI-compatible
server), Anthropic (Messages), and replay from a transcript.

:class:`LLMReferee` is the provider-neutral loop; :func:`build_referee` makes one for
``gm play --referee openai|anthropic``.  The SDKs are imported only when a live
client is built, so importing this package stays light.
"""

from __future__ import annotations

from typing import Any

from gm.referee.llm.providers import KINDS, SDKProvider, make_client, resolve_model
from gm.referee.llm.referee import LLMReferee
from gm.referee.llm.types import LLMError, MissingKeyError

__all__ = ["KINDS", "LLMError", "LLMReferee", "MissingKeyError", "build_referee", "referee_kind"]


def referee_kind(provider: str, api: str = "chat") -> str:
    """``openai`` + ``responses`` -> ``openai-responses``; ``anthropic`` -> ``anthropic``."""
    provider = provider.lower()
    if provider == "openai":
        if api not in ("chat", "responses"):
            raise ValueError(f"--api is chat or responses, not {api!r}")
        return "openai-responses" if api == "responses" else "openai"
    if provider == "anthropic":
        return "anthropic"
    raise ValueError(f"unknown LLM provider {provider!r}; choose openai or anthropic")


def build_referee(
    provider: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api: str = "chat",
    api_key: str | None = None,
    http_client: Any = None,
    timeout: float = 60.0,
    max_retries: int = 2,
    max_tokens: int | None = None,
    **options: Any,
) -> LLMReferee:
    """A live LLM referee.  Keys come from ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY`` unless
    given (a ``base_url`` server - OpenAI- or Anthropic-compatible - needs none); raises
    :class:`MissingKeyError` (with how to set one) when there is none.  ``max_tokens`` caps every
    reply's output tokens (sent to every provider)."""
    kind = referee_kind(provider, api)
    client = make_client(kind, api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries, http_client=http_client)
    return LLMReferee(SDKProvider(kind, resolve_model(kind, model), client, max_tokens=max_tokens), **options)
