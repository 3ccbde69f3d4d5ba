"""Helpers of the security tests: everything one seat can see of a game, gathered through every
front end, and masked only where a value is random by design.

A *world* is a dict ``name -> text`` holding what one seat reads: the session API (view, log,
status, boards), every query tool result, a rejected action's answer, the MCP host (resume result,
resources, query tools), the CLI (``gm show``, ``gm show --json``, ``gm call``, ``gm export
session`` / ``token``, ``gm play --resume`` with table talk), the transcript written so far, and
the session file as the seat's OS user could read it.  Two games that differ only in a secret must
give equal worlds, after :func:`mask`.
"""

from __future__ import annotations

import base64
import functools
import json
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import typer
import typer.main
import typer.testing
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.actions import Action
from gm.core.errors import GameError
from gm.core.state import GameState
from gm.core.tools import parse_args
from gm.mcp_server.host import GameHost
from gm.session import Session

#: one key for every home of a test: key ids and what the key derives are then equal in both games
#: of a comparison, so they need no mask (the key is not what differs between the two games)
SECRET_KEY = "5e" * 32

#: per game: query tools beyond the generic ones, with arguments, and a well-formed action that is
#: wrong now (its refusal lists the seat's options: they must not depend on another seat's secret)
EXTRA_QUERIES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "grid-football": [("get_square", {"square": "K20"}), ("get_square", {"square": "A1"})],
    "brawl": [("get_zone", {"zone": "MM"}), ("get_zone", {"zone": "DL"}), ("get_zone", {"zone": "SR"})],
    "chess-football": [("piece_options", {"piece": p}) for p in ("QB", "ST1", "FA1", "RU", "HV1")],
    "gridmaster4": [("get_cell", {"cell": "A1"}), ("get_cell", {"cell": "C3"})],
    "quarterback": [],
}
PROBES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "grid-football": [("call_play", {"play": 9, "colour": "red"}), ("pick_number", {"number": 11})],
    "brawl": [
        ("play_cards", {"placements": [{"player": "QB", "card": "F9", "zone": "MM"}]}),
        ("choose_fourth_down", {"option": "field_goal"}),
    ],
    "chess-football": [
        ("choose_ball_holder", {"holder": "QB"}),
        ("choose_ball_holder", {"holder": "ST1"}),
        ("play_action", {"partner": "ST1"}),
        ("pass_ball", {"receiver": "FA1"}),
        ("move_piece", {"piece": "QB", "to": "A1"}),
    ],
    "gridmaster4": [("place_tile", {"cell": "Z99"})],
    "quarterback": [("pass_ball", {"to": "A1"}), ("move_piece", {"piece": "QB", "to": "A1"})],
}
#: what a player might type at ``gm play`` to look around (table talk), then quit
TABLE_TALK = "help\nboard\nfull board\nscore\nwhat can i do?\nrules secret\nwhat is the seed?\nquit\n"

# ----------------------------------------------------------------- masking
# Values random by design, each replaced by a placeholder numbered in order of first appearance,
# so the structure (which values are equal to which) is still compared:
#  - 64 hex digits: SHA-256 commitments of picks and seeds, HMAC chain values (their inputs hold
#    random nonces or salts, so they differ whatever the game), and the ruleset hash (equal anyway);
#  - 32 hex digits: nonces and salts drawn at random;
#  - 16 hex digits: a token's checksum (over a payload holding a random sealed part);
#  - session ids drawn at random (game id + 8 hex digits) where a front end made the session;
#  - timestamps (created / updated);
#  - sealed blobs (AES-GCM with a random 96-bit nonce): replaced by their *length*, which is kept
#    and compared (a length that depends on the secret would leak it).
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)?")
_SEALED = re.compile(r"[A-Za-z0-9_-]{200,}")
_TOKEN = re.compile(r"gm2\.[a-z0-9-]+\.[A-Za-z0-9_-]+\.[0-9a-f]{16}")
_SID = re.compile(r"\b(grid-football|brawl|chess-football|gridmaster4|quarterback)-[0-9a-f]{8}\b")


def mask(text: str, homes: Sequence[Path] = ()) -> str:
    """``text`` with random-by-design values replaced (see above) and the test's folders named."""
    for home in homes:
        text = text.replace(str(home), "<home>")
    # a token is shown as the JSON it holds (zlib's output length varies with the random sealed part)
    text = _TOKEN.sub(lambda m: "<token " + _dump(decode_token(m.group(0))) + ">", text)
    text = _TIME.sub("<time>", text)
    text = _SEALED.sub(lambda m: f"<sealed:{len(m.group(0))}>", text)
    names: dict[str, str] = {}

    def rename(kind: str) -> Callable[[re.Match[str]], str]:
        def sub(m: re.Match[str]) -> str:
            v = m.group(0)
            if v not in names:
                names[v] = f"<{kind}#{sum(1 for n in names.values() if n.startswith('<' + kind))}>"
            return names[v]

        return sub

    text = _SID.sub(rename("sid"), text)
    for n in (64, 32, 16):
        text = re.sub(rf"(?<![0-9a-fA-F])[0-9a-f]{{{n}}}(?![0-9a-fA-F])", rename(f"hex{n}"), text)
    return text


def decode_token(token: str) -> dict[str, Any]:
    """The JSON inside a ``gm2`` token (its text is a deterministic function of this JSON, whose
    only random parts, the sealed blob and the commitment, are masked by :func:`mask`)."""
    _, _, payload, _ = token.strip().split(".")
    data: dict[str, Any] = json.loads(zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))))
    return data


# ------------------------------------------------------------------ worlds
def _dump(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False, default=str)


@functools.cache
def _command(typer_app: Any) -> Any:
    return typer.main.get_command(typer_app)


def cli(home: Path, *args: str, input: str | None = None, env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """``gm ARGS`` in this process (stdout and stderr together), under ``home``.  (The click command
    is built once: typer rebuilds it on every call otherwise, a tenth of a second each.)"""
    full = {"GM_HOME": str(home), "GM_SECRET_KEY": SECRET_KEY, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    with mock.patch.object(typer.testing, "_get_command", _command):
        res = CliRunner().invoke(app, list(args), input=input, env=full, catch_exceptions=False)
    return res.exit_code, res.output


def cli_text(home: Path, *args: str, input: str | None = None) -> str:
    """``gm ARGS`` as one text: the exit code on the first line, then the output."""
    code, out = cli(home, *args, input=input)
    return f"{code}\n{out}"


def queries(game_id: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("get_board", {}),
        ("get_board", {"full": True}),
        ("get_status", {}),
        ("legal_actions", {}),
        ("get_rules", {}),
        ("get_rules", {"topic": "secret"}),
        ("get_rules", {"topic": "seed"}),
        *EXTRA_QUERIES.get(game_id, []),
    ]


def world(home: Path, sid: str, seat: str, *, shown: Sequence[Any] = (), play: bool = True) -> dict[str, str]:
    """Everything ``seat`` can see of session ``sid`` stored under ``home`` (and ``shown``: what it
    was shown while the game was played, e.g. its action results).  Reading writes no record, but
    query calls and ``gm play`` add transcript lines: both games of a comparison get the same ones."""
    w: dict[str, str] = {f"shown {i}": _dump(x) for i, x in enumerate(shown)}
    s = Session.open(sid, home=home, record=False)
    g, st = s.game, s.state
    w["view"] = _dump(s.view(seat))
    w["spectator view"] = _dump(s.view(None))
    w["log"] = _dump(s.log(seat))
    w["seed info"] = _dump(s.seed_info())
    w["render"] = g.render(st, seat)
    w["render full"] = g.render(st, seat, full=True)
    w["status"] = g.status(st, seat)
    w["legal summary"] = _dump(st.legal_summary(seat) if seat in st.to_act() else [])

    # every query tool, for the seat and as a spectator, and refusals of wrong actions
    s = Session.open(sid, home=home)
    for tool, args in queries(g.id):
        w[f"call {tool} {_dump(args)}"] = _dump(s.call(tool, args, seat))
        w[f"spectator {tool} {_dump(args)}"] = _dump(s.call(tool, args, None))
    for tool, args in PROBES.get(g.id, []):
        if _legal_now(s, tool, args, seat):  # a probe that would be a real move here is left out
            w[f"probe {tool} {_dump(args)}"] = "legal now"
            continue
        r = s.call(tool, args, seat)
        assert not r["ok"], f"the probe {tool} {args} was a legal move: {r}"
        w[f"probe {tool} {_dump(args)}"] = _dump(r)

    # MCP: the host resumes the session (nothing is owed, so nothing moves), resources, queries
    host = GameHost(home=home)
    w["mcp resume"] = _dump(host.call("resume_session", {"session_id": sid}).result)
    w["mcp list"] = _dump(host.call("list_sessions", {}).result)
    for uri in ("gm://session/board", "gm://session/state"):
        w[f"mcp {uri}"] = host.read_resource(uri)[0]
    for tool, args in queries(g.id):
        reply = host.call(tool, args)
        w[f"mcp {tool} {_dump(args)}"] = _dump(reply.result) + "\n" + reply.text

    # the command line
    for args in (("show", sid), ("show", sid, "--full"), ("show", sid, "--json"),
                 ("call", sid, "get_status"), ("call", sid, "legal_actions"),
                 ("export", "session", "--session", sid)):
        w["gm " + " ".join(args).replace(sid, "SID")] = cli_text(home, *args)
    code, out = cli(home, "export", "token", "--session", sid)
    w["gm export token"] = f"{code}\n{_dump(decode_token(out))}"
    if play:
        w["gm play --resume"] = cli_text(home, "play", "--resume", sid, input=TABLE_TALK)

    # the files, as the seat's OS user reads them (one line per record / entry)
    w["session file"] = (home / "sessions" / f"{sid}.jsonl").read_text(encoding="utf-8")
    tp = home / "transcripts" / f"{sid}.jsonl"
    w["transcript"] = tp.read_text(encoding="utf-8") if tp.exists() else ""
    return w


def _legal_now(s: Session, tool: str, args: dict[str, Any], seat: str) -> bool:
    spec = next(t for t in s.tools if t.name == tool)
    try:
        action = spec.handler(s.state, seat, parse_args(spec, args))
    except GameError:
        return False
    return s.state.is_legal(seat, action)


def masked(w: Mapping[str, str], home: Path) -> dict[str, str]:
    """``w`` masked (numbering shared across the whole world, in key order)."""
    keys = sorted(w)
    joined = "\n\x00\n".join(w[k] for k in keys)
    parts = mask(joined, [home]).split("\n\x00\n")
    return dict(zip(keys, parts, strict=True))


def assert_same_world(a: Mapping[str, str], b: Mapping[str, str], what: str) -> None:
    """Equal worlds, or the first differing entry with the first differing line."""
    assert sorted(a) == sorted(b), what
    for k in sorted(a):
        if a[k] != b[k]:
            la, lb = a[k].splitlines(), b[k].splitlines()
            i = next((i for i, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y), min(len(la), len(lb)))
            x = la[i] if i < len(la) else "<end>"
            y = lb[i] if i < len(lb) else "<end>"
            j = next((j for j, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), 0)
            raise AssertionError(f"{what}: {k!r} differs at line {i + 1}:\n  {x[max(0, j - 150):j + 150]}\n  {y[max(0, j - 150):j + 150]}")


# -------------------------------------------------------------------- bots
class Scripted:
    """A bot following ``policy(state, seat) -> action text`` (the session makes a fresh one per
    decision; the policy is the same object for all of them)."""

    name = "scripted"

    def __init__(self, policy: Callable[[GameState[Any], str], str]) -> None:
        self.policy = policy

    def choose(self, state: GameState[Any], seat: str) -> Action:
        return state.parse_action(self.policy(state, seat))

