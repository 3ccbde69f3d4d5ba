"""The LLM referee for every game (#19): help from the game's own examples, a plain line when the
engine refused every move the model tried, and the model's timeout and retries from gm play."""

from __future__ import annotations

import pytest
from llm_fakes import Call, FakeLLM, Say, Timeout
from llm_game import make_referee

from gm.core.registry import all_games, find_game
from gm.session import Session


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_help_shows_the_games_own_examples(game: str) -> None:
    g = find_game(game)
    s = Session.create(g, seed=1, persist=False, record=False)
    text = make_referee("openai", FakeLLM()).help_text(s, g.seats[0])
    assert all(f"'{e}'" in text for e in g.move_examples[:4]), text
    assert text.startswith(f"You are playing {g.name} as {g.seats[0]}, refereed by openai (scripted).")
    if game != "grid-football":
        assert "play 1 red" not in text and "colour" not in text  # no Grid Football words in another game


def test_when_the_engine_refuses_every_move_the_player_is_told_nothing_happened() -> None:
    s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
    before = s.state.to_json()
    fake = FakeLLM([Call([("call_play", {"play": 1, "colour": "red"})]), Say("That play is not allowed right now.")])
    turn = make_referee("openai", fake).handle(s, "home", "play 1 red")
    assert not turn.accepted and s.state.to_json() == before
    err = turn.calls[-1].result["error"]
    assert turn.narration == (f"That play is not allowed right now.\n(Nothing happened in the game: the engine refused the move. "
                              f"[{err['rule']}] {err['reason']}.)")


def test_a_done_after_a_refused_move_is_never_shown() -> None:
    """A model that says "Done." after the engine refused its move gets the one reminder; saying it
    again, it is overruled: the player reads the engine's refusal, never the claim."""
    s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
    before = s.state.to_json()
    fake = FakeLLM([Call([("call_play", {"play": 1, "colour": "red"})]), Say("Done."), Say("Done!")])
    turn = make_referee("openai", fake).handle(s, "home", "play 1 red")
    assert not turn.accepted and s.state.to_json() == before and len(fake.requests) == 3
    err = turn.calls[-1].result["error"]
    legal = ", ".join(err["legal"])
    assert turn.narration == f"Not allowed [{err['rule']}]: {err['reason']}. You can: {legal}."
    assert turn.invented == 2 and "Done" not in turn.narration


def test_a_move_made_is_not_called_refused() -> None:
    s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
    fake = FakeLLM([Call([("call_play", {"play": 1, "colour": "red"}), ("pick_kick", {"position": "left", "colour": "red"})]),
                    Say("Kick picked.")])
    turn = make_referee("openai", fake).handle(s, "home", "left red")
    assert turn.accepted and "Nothing happened" not in turn.narration


def test_timeout_and_retries_reach_the_sdk_and_a_silent_model_gets_one_clear_line() -> None:
    s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
    before = s.state.to_json()
    fake = FakeLLM([Timeout(), Timeout(), Timeout(), Timeout()])
    ref = make_referee("openai", fake, max_retries=1, timeout=3.0)
    client = ref.provider.client  # type: ignore[attr-defined]
    assert client.max_retries == 1 and client.timeout == 3.0
    turn = ref.handle(s, "home", "left red")
    assert fake.attempts == 2  # one try and one retry, then the player is told
    assert turn.narration.startswith("The referee model is not answering: the model did not answer in time")
    assert "Nothing changed in the game." in turn.narration and s.state.to_json() == before


def test_gm_play_passes_timeout_and_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.cli.play_cmds import _make_referee

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    ref = _make_referee("openai", "some-model", "http://127.0.0.1:9/v1", "chat", timeout=7.5, retries=4)
    client = ref.provider.client  # type: ignore[attr-defined]
    assert (client.timeout, client.max_retries) == (7.5, 4)


def test_waiting_is_shown_on_a_terminal_only() -> None:
    import io

    from gm.play.terminal import Terminal

    out = io.StringIO()
    term = Terminal(stdin=io.StringIO(), stdout=out)
    with term.waiting("waiting for openai (m)..."):
        pass
    assert out.getvalue() == ""  # piped: a plain game log, no spinner


# ------------------------------------------------------------------ --max-tokens, --base-url for anthropic
@pytest.mark.parametrize(("kind", "base_url", "field"), [
    ("openai", None, "max_completion_tokens"),  # OpenAI itself
    ("openai", "http://localhost:11434/v1", "max_tokens"),  # a compatible server reads max_tokens
    ("openai-responses", None, "max_output_tokens"),
    ("anthropic", None, "max_tokens"),
])
def test_max_tokens_reaches_every_provider(kind: str, base_url: str | None, field: str) -> None:
    from gm.referee.llm import build_referee

    fake = FakeLLM([Say("Hello.")])
    provider = "anthropic" if kind == "anthropic" else "openai"
    ref = build_referee(provider, api="responses" if kind == "openai-responses" else "chat", model="m", api_key="k",
                        base_url=base_url, http_client=fake.client(), max_tokens=321)
    s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
    ref.handle(s, "home", "hello")
    body = fake.requests[0]["body"]
    assert body[field] == 321
    others = {"max_completion_tokens", "max_tokens", "max_output_tokens"} - {field}
    assert not others & set(body)


def test_without_max_tokens_only_anthropic_sends_its_required_cap() -> None:
    for provider in ("openai", "anthropic"):
        fake = FakeLLM([Say("Hello.")])
        s = Session.create("grid-football", seed=3, players={"away": "bot:default"}, persist=False, record=False)
        make_referee(provider, fake).handle(s, "home", "hello")
        body = fake.requests[0]["body"]
        assert body.get("max_tokens") == (1024 if provider == "anthropic" else None) and "max_completion_tokens" not in body


def test_gm_play_takes_max_tokens_and_an_anthropic_compatible_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.cli.play_cmds import _make_referee

    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    ref = _make_referee("anthropic", "glm-4.6", "http://127.0.0.1:9/anthropic", "chat", max_tokens=2048)
    client = ref.provider.client  # type: ignore[attr-defined]
    assert str(client.base_url).startswith("http://127.0.0.1:9/anthropic") and client.api_key == "not-needed"
    assert ref.provider.max_tokens == 2048 and ref.model == "glm-4.6"  # type: ignore[attr-defined]
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/anthropic")
    ref = _make_referee("anthropic", "glm-4.6", None, "chat")
    assert ref.provider.client.api_key == "not-needed"  # type: ignore[attr-defined]


def test_the_page_reads_its_referees_output_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.web.routes import LLMReferees

    monkeypatch.setenv("GM_WEB_REFEREE", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("GM_WEB_REFEREE_MAX_TOKENS", "777")
    refs = LLMReferees.from_env()
    assert refs.factory is not None and refs.factory().provider.max_tokens == 777  # type: ignore[attr-defined]
    monkeypatch.setenv("GM_WEB_REFEREE_MAX_TOKENS", "lots")
    assert LLMReferees.from_env().factory().provider.max_tokens is None  # type: ignore[union-attr,attr-defined]
