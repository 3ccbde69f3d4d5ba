"""State tokens: round trip, chatbot mangling, tamper detection, hidden picks."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
from export_helpers import CUSTOM, GAME, random_state

from gm.core.errors import StateError
from gm.core.token import _checksum, decode_token, encode_state, settled, state_from_token


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_rebuilds_the_same_game(seed: int) -> None:
    for moves in (0, 7, 60, 600):
        rules = CUSTOM if seed % 2 else None
        state = random_state(seed, moves, rules)
        token = encode_state(state)
        assert token.startswith("gm1.grid-football.")
        back = state_from_token(token)
        public, _ = settled(state)
        assert back.to_json() == public.to_json()
        assert back.snapshot() == public.snapshot()
        assert GAME.render(back, full=True) == GAME.render(public, full=True)


def test_a_default_ruleset_is_left_out_and_a_custom_one_kept() -> None:
    assert decode_token(encode_state(GAME.new_state(seed=4)))["rules"] == {}
    custom = decode_token(encode_state(GAME.new_state(CUSTOM, seed=4)))["rules"]
    assert custom["kick_distance"] == 53 and "toss_caller" in custom
    assert state_from_token(encode_state(GAME.new_state(CUSTOM, seed=4))).rules == GAME.load_rules(CUSTOM)


def test_whitespace_line_breaks_and_quotes_from_a_chatbot_are_ignored() -> None:
    state = random_state(3, 80)
    token = encode_state(state)
    wrapped = "\n".join(token[i : i + 30] for i in range(0, len(token), 30))
    for pasted in (f"  {token}\n", f"`{token}`", f'"{token}"', wrapped, f"```\n{wrapped}\n```", token.replace(".", " . ")):
        assert state_from_token(pasted).to_json() == state.to_json()


def test_any_changed_character_is_rejected() -> None:
    token = encode_state(random_state(5, 120))
    rng = random.Random(0)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    positions = sorted(set(rng.sample(range(len(token)), 60)) | {0, 4, len(token) - 1})
    for i in positions:
        if token[i] == ".":
            continue
        new = rng.choice([c for c in alphabet if c != token[i]])
        bad = token[:i] + new + token[i + 1 :]
        with pytest.raises(StateError) as err:
            state_from_token(bad)
        assert err.value.rule == "CORE-TOKEN"
        assert "\n" not in err.value.message


def test_a_mismatch_says_so_in_one_clear_line() -> None:
    token = encode_state(random_state(5, 30))
    head, payload, check = token.rsplit(".", 2)
    flipped = payload[:10] + ("A" if payload[10] != "A" else "B") + payload[11:]
    with pytest.raises(StateError, match="checksum mismatch: the token was changed or mangled") as err:
        state_from_token(f"{head}.{flipped}.{check}")
    assert err.value.message.startswith("[CORE-TOKEN] 'gm1.grid-football")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not a gm state token"),
        ("hello world", "not a gm state token"),
        ("gm1.grid-football.abc", "not a gm state token"),
        ("gm9.grid-football.abc.0123456789abcdef", "unsupported token version"),
    ],
)
def test_malformed_tokens(text: str, reason: str) -> None:
    with pytest.raises(StateError, match=reason):
        state_from_token(text)


def _forge(game_id: str, data: object, raw: bytes | None = None) -> str:
    """A token with a correct checksum around any payload (what a careful forger could make)."""
    blob = raw if raw is not None else zlib.compress(json.dumps(data).encode())
    payload = base64.urlsafe_b64encode(blob).decode().rstrip("=")
    body = f"gm1.{game_id}.{payload}"
    return f"{body}.{_checksum(body)}"


def test_a_well_checksummed_token_still_cannot_carry_an_illegal_game() -> None:
    with pytest.raises(StateError, match="cannot be read"):
        state_from_token(_forge("grid-football", None, raw=b"not zlib"))
    with pytest.raises(StateError, match="not a grid-football state"):
        state_from_token(_forge("grid-football", {"game": "chess", "seed": 0, "log": []}))
    with pytest.raises(StateError, match=r"does not replay.*log entry 0"):
        state_from_token(_forge("grid-football", {"game": "grid-football", "rules": {}, "seed": 0, "log": [["home", "heads"]]}))
    with pytest.raises(StateError, match=r"does not replay.*no such game"):
        state_from_token(_forge("no-such-game", {"game": "no-such-game", "rules": {}, "seed": 0, "log": []}))
    with pytest.raises(StateError, match=r"does not replay.*kick_distance"):
        state_from_token(_forge("grid-football", {"game": "grid-football", "rules": {"kick_distance": -1}, "seed": 0, "log": []}))


def test_an_unrevealed_pick_never_goes_into_a_token() -> None:
    state = random_state(2, 6)
    while state.phase != "play" or len(state.to_act()) != 2:
        seat = state.to_act()[0]
        state.apply(seat, next(iter(state.legal_actions(seat))))
    state.apply("home", "play 1 red 3 left after")  # locked, the defense has not chosen
    assert state.view(None)["pending"] == {"home": "locked"}
    token = encode_state(state)
    data = decode_token(token)
    assert len(data["log"]) == len(state.log) - 1
    assert "play 1 red 3 left after" not in json.dumps(data)
    back = state_from_token(token)
    assert back.to_act() == ("home", "away")
    public, dropped = settled(state)
    assert dropped == 1 and public.to_json() == back.to_json()


def test_one_framing_for_every_token_version() -> None:
    """``gm1`` state tokens and ``gm2`` session tokens share one codec (:func:`gm.core.token.frame`)."""
    from gm.core.errors import StateError
    from gm.core.token import frame, unframe

    data = {"game": "grid-football", "log": [["home", "x"]], "note": "é"}
    token = frame("gm2", "grid-football", data)
    assert token.startswith("gm2.grid-football.") and unframe(f" `{token[:30]}\n{token[30:]}` ", "gm2") == data
    with pytest.raises(StateError, match=r"unsupported token version 'gm2'; this gm reads gm1 tokens"):
        decode_token(token)
    with pytest.raises(StateError, match="checksum mismatch"):
        unframe(token[:-1] + ("0" if token[-1] != "0" else "1"), "gm2")
