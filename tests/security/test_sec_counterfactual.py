"""Issue #36 item 2: a seat is told the same whatever is hidden from it - who acts next included.

One attack over every hidden thing of every game: a locked pick, a brawl hand and draw pile, the
Chess-Football ball holder, the hidden seed (and a plugin game's secret throw).  For each, two games
are built that differ *only* in that hidden thing - by the other side's move, or by the chance
outcomes supplied to the game (:mod:`gm.core.chance`: the same seed dealing the other side another
hand, or another seed with everything this seat has seen supplied as it was) - and both are driven
with the same moves.  Both seats are people, as in a game served to two players (each human pick
committed), so the seat under attack looks on while the *other* seat is still to act: the moment
the old ``expected`` told the defense that the Quarterback held the hidden ball.

At each checkpoint, everything the seat can see is gathered: the session API, every query tool,
refused calls and their legal options, the MCP host, the command line and the files
(:func:`sec_helpers.world`); ``gm serve``'s game view and the first events of its event stream
(moves as the seat may see them, and the state event with who acts next); and the MCP server
through the real ``mcp`` client (resources, tool results, a refused call).  The two worlds must be
equal once values random by design are masked, while the two games, seen from the test's own
(omniscient) vantage, really differ.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from sec_helpers import PROBES, assert_same_world, masked, world

from gm.core.chance import CURRENT, Chance, Deal, DrawRecord, Shuffle
from gm.core.registry import find_game
from gm.core.tools import call_for_action, expected
from gm.mcp_server.host import GameHost
from gm.mcp_server.server import build_server
from gm.server.access import SEAT, digest
from gm.server.app import ServeConfig, ServerState, _event_stream
from gm.server.hub import GameHub, Grant
from gm.session import FileStore, SeedSecret, Session

SID = "cf-game"
SALT = "3c" * 16
BOT_SEED = 6161
SEED = 101


def hidden(seed: int) -> SeedSecret:
    return SeedSecret(seed=seed, salt=SALT, bot_seed=BOT_SEED, nonce_seed=None, practice=False)


# ------------------------------------------------------------------ the driver
@dataclass
class Run:
    """One of the two games: its session, what its attacked seat was shown, and the worlds at its checkpoints."""

    session: Session
    home: Path
    viewer: str
    shown: list[Any] = field(default_factory=list)
    worlds: dict[str, dict[str, str]] = field(default_factory=dict)
    truth: dict[str, str] = field(default_factory=dict)

    def move(self, seat: str, text: str) -> None:
        s = self.session
        tool, args = call_for_action(s.tools, s.state.parse_action(text))
        r = s.call(tool, args, seat)
        assert r["ok"], (seat, text, r)
        if seat == self.viewer:
            self.shown.append(r)

    def check(self, label: str, who_acts: str) -> None:
        """Gather the viewer's world now (``who_acts``: a seat that must be to act, the viewer or not)."""
        st = self.session.state
        assert who_acts in st.to_act(), (label, st.to_act())
        w = world(self.home, SID, self.viewer, shown=self.shown, play=False)
        w.update(served(self.home, self.viewer))
        w.update(mcp_client(self.home, self.viewer))
        self.worlds[label] = masked(w, self.home)
        self.truth[label] = omniscient(self.session)


def omniscient(s: Session) -> str:
    """The whole game as the test knows it: the snapshot, the full log and any draw piles."""
    st: Any = s.state
    piles = {seat: {p: [str(c) for c in cs] for p, cs in st.piles[seat].items()} for seat in st.piles} if hasattr(st, "piles") else {}
    return json.dumps([st.snapshot(), [str(m.action) for m in st.log], piles, s.secret.seed], sort_keys=True, default=str)


def served(home: Path, seat: str) -> dict[str, str]:
    """``gm serve``: the API's game view, its snapshot, and the event stream's first events (every
    move so far as ``seat`` may see it, then the state event)."""
    hub = GameHub(FileStore(home))
    token = f"gms_counterfactual_{seat}"  # the seat's own token (the stream checks it before each change)
    hub.access.grant(digest(token), SEAT, SID, seat)
    grant = Grant(SID, seat)
    out = {"serve view": json.dumps(hub.view(grant), sort_keys=True), "serve snapshot": json.dumps(hub.snapshot(grant), sort_keys=True)}
    state = ServerState(hub, ServeConfig())

    async def first_events() -> list[str]:
        got: list[str] = []
        stream = _event_stream(state, grant, 0, token)
        async for chunk in stream:
            got.append(chunk)
            if "event: state" in chunk:
                break
        await stream.aclose()
        return got

    out["serve events"] = "".join(anyio.run(first_events))
    return out


def mcp_client(home: Path, seat: str) -> dict[str, str]:
    """The MCP server through the SDK's own client, in process: resources, queries, a refused call."""
    host = GameHost(home=home, session=SID, seat=seat)
    game = host.game.id

    async def talk() -> dict[str, str]:
        out: dict[str, str] = {}
        async with Client(build_server(host)) as c:
            for uri in ("gm://session/board", "gm://session/state"):
                r = await c.read_resource(uri)
                out[f"mcp client {uri}"] = "".join(getattr(x, "text", "") for x in r.contents)
            for tool, args in [("get_status", {}), ("get_board", {"full": True}), ("legal_actions", {}), *PROBES.get(game, [])[:2]]:
                r = await c.call_tool(tool, args)
                body = "\n".join(getattr(x, "text", "") for x in r.content)
                out[f"mcp client {tool} {json.dumps(args, sort_keys=True)}"] = f"{r.is_error}\n{body}\n{json.dumps(r.structured_content, sort_keys=True)}"
        return out

    return anyio.run(talk)


# --------------------------------------------------------------------- cases
Script = Callable[[Run, int], None]


@dataclass(frozen=True)
class Case:
    game: str
    name: str
    viewer: str
    script: Script
    rules: dict[str, Any] | None = None
    #: chance outcomes both games are given (by draw number: a coin that gives the game its shape)
    fixed: dict[int, Any] = field(default_factory=dict)
    #: how the two games differ in chance: (variant, what variant 0 drew along the script) -> (seed,
    #: outcomes supplied); ``None``: the same seed, no more outcomes (the games differ by a move)
    vary: Callable[[int, list[DrawRecord]], tuple[int, dict[int, Any]]] | None = None
    #: the test-only plugin game (tests/plugin_game), registered for the test
    plugin: bool = False


def _players(game: str) -> dict[str, str]:
    return {s: "human" for s in find_game(game).seats}


def _seen(viewer: str) -> Callable[[int, list[DrawRecord]], tuple[int, dict[int, Any]]]:
    """The hidden seed: another seed for variant 1, with every outcome ``viewer`` has seen supplied as
    variant 0 drew it (both games are given them, so their records are alike)."""

    def vary(variant: int, log: list[DrawRecord]) -> tuple[int, dict[int, Any]]:
        supplied = {r.index: r.draw.to_json(r.outcome) for r in log if r.draw.seen_by is None or viewer in r.draw.seen_by}
        return (SEED if variant == 0 else SEED + 7919), supplied

    return vary


def _first(log: list[DrawRecord], label: str, about: str) -> DrawRecord:
    return next(r for r in log if r.draw.label == label and r.draw.about == about)


def _away_hand(variant: int, log: list[DrawRecord]) -> tuple[int, dict[int, Any]]:
    """The same seed; away's first player is dealt other cards of its pile in variant 1."""
    deal = _first(log, "deal", "away CB1")
    assert isinstance(deal.draw, Deal)
    dealt = [str(c) for c in deal.outcome]
    other = [str(c) for c in deal.draw.pile[: deal.draw.n]]
    assert sorted(other) != sorted(dealt)
    return SEED, {deal.index: dealt if variant == 0 else other}


def _away_pile(variant: int, log: list[DrawRecord]) -> tuple[int, dict[int, Any]]:
    """The same seed and hands; away's first player's draw pile in another order in variant 1."""
    shuffle = _first(log, "shuffle", "away CB1")
    deal = _first(log, "deal", "away CB1")
    assert isinstance(shuffle.draw, Shuffle)
    pile = [str(c) for c in shuffle.outcome]
    return SEED, {shuffle.index: pile if variant == 0 else pile[::-1], deal.index: [str(c) for c in deal.outcome]}


def _gf_to_play_call(r: Run) -> None:
    """Grid Football, both sides people: the toss, the kickoff and its number picks, up to the first play call."""
    picks = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left yellow", "number_pick": "number 5"}
    st = r.session.state
    while True:
        acting = st.to_act()
        decisions = {s: st.decision(s) for s in acting}
        if "play_call" in decisions.values():
            return
        seat = acting[0]
        r.move(seat, picks[str(decisions[seat])])
        st = r.session.state


def gf_pick(r: Run, v: int) -> None:
    _gf_to_play_call(r)
    assert set(r.session.state.to_act()) == {"home", "away"}
    r.move("home", ["play 1 black", "play 3 red"][v])
    r.check("home's play call locked, away to call", "away")


def gf_seed(r: Run, v: int) -> None:
    r.check("before the toss", "away")
    _gf_to_play_call(r)
    r.check("at the first play call", "home")
    r.move("home", "play 2 black")
    r.check("home's call locked", "away")


def _brawl_place(r: Run, seat: str, k: int = 0) -> None:
    r.move(seat, str(r.session.state.legal_actions(seat)[k]))


def brawl_placement(r: Run, v: int) -> None:
    _brawl_place(r, "away", v)
    r.check("away's placement locked, home to place", "home")


def brawl_hidden_cards(r: Run, v: int) -> None:
    r.check("the deal", "home")
    _brawl_place(r, "home")
    r.check("home's placement locked, away to place", "away")


def cf_captains(r: Run, v: int) -> None:
    r.move("home", ["captains scrambler nickelback", "captains deep_threat safety"][v])
    r.check("home's captains locked, away to name", "away")


def _cf_to_snap(r: Run) -> None:
    r.move("home", "captains scrambler nickelback")
    r.move("away", "captains lead_blocker rusher")
    r.move("away", "heads")  # (the coin is supplied: home wins the toss and has the ball)
    assert r.session.state.offense == "home"  # type: ignore[attr-defined]


def cf_plan(r: Run, v: int) -> None:
    _cf_to_snap(r)
    plans = r.session.state.legal_actions("home").page(0, 2)
    r.move("home", str(plans[v]))
    r.check("home's snap plan locked, away to plan", "away")


def cf_holder(r: Run, v: int) -> None:
    _cf_to_snap(r)
    r.move("home", "plan: hold")
    r.move("away", "plan: hold")
    r.move("home", "done")
    r.move("away", "done")
    r.move("home", f"play action ST1 ball {['QB', 'ST1'][v]}")
    assert r.session.state.field.hidden  # type: ignore[attr-defined]
    r.check("the ball hidden, the offense still to act", "home")
    r.move("home", "done")
    r.check("the ball hidden, the defense to act", "away")
    r.move("away", "done")
    if r.session.state.field is not None and r.session.state.field.hidden and "home" in r.session.state.to_act():  # type: ignore[attr-defined]
        r.check("the next offense turn, the ball still hidden", "home")


def cf_seed(r: Run, v: int) -> None:
    r.check("before the toss", "home")
    _cf_to_snap(r)
    r.move("home", "plan: hold")
    r.move("away", "plan: hold")
    r.check("the first reaction turn", "home")


def qb_seed(r: Run, v: int) -> None:
    seat = r.session.state.to_act()[0]
    r.check("the first turn", seat)


def gm4_seed(r: Run, v: int) -> None:
    st = r.session.state
    first = st.to_act()[0]
    r.check("the first turn", first)
    r.move(first, str(st.legal_actions(first)[0]))
    r.check("the second turn", r.session.state.to_act()[0])


def rps_throw(r: Run, v: int) -> None:
    r.move("alice", ["throw rock", "throw paper"][v])
    r.check("alice's throw locked, bob to throw", "bob")


#: away calls heads: the coin shows tails and home has the ball first
CF_TOSS = {0: "tails"}
CASES = [
    Case("grid-football", "locked play call", "away", gf_pick, fixed={0: "heads"}),
    Case("grid-football", "hidden seed", "away", gf_seed, vary=_seen("away")),
    Case("brawl", "locked placement", "home", brawl_placement, rules={"first_offense": "home"}),
    Case("brawl", "other side's hand", "home", brawl_hidden_cards, rules={"first_offense": "home"}, vary=_away_hand),
    Case("brawl", "other side's draw pile", "home", brawl_hidden_cards, rules={"first_offense": "home"}, vary=_away_pile),
    Case("brawl", "hidden seed", "home", brawl_hidden_cards, rules={"first_offense": "home"}, vary=_seen("home")),
    Case("chess-football", "locked captains", "away", cf_captains, fixed=CF_TOSS),
    Case("chess-football", "locked snap plan", "away", cf_plan, fixed=CF_TOSS),
    Case("chess-football", "hidden ball holder", "away", cf_holder, fixed=CF_TOSS),
    Case("chess-football", "hidden seed", "away", cf_seed, fixed=CF_TOSS, vary=_seen("away")),
    Case("quarterback", "hidden seed", "blue", qb_seed, rules={"format": "game"}, vary=_seen("blue")),
    Case("gridmaster4", "hidden seed", "orange", gm4_seed, vary=_seen("orange")),
    Case("rock-paper-scissors", "locked throw", "bob", rps_throw, plugin=True),
]


def _start(case: Case, home: Path, seed: int, supplied: dict[int, Any]) -> Run:
    s = Session.create(case.game, secret=hidden(seed), players=_players(case.game), home=home, id=SID, rules=case.rules,
                       chance=Chance(CURRENT, supplied, record=True))  # (the live game keeps a draw log)
    s.commit_human_picks = True  # as gm serve plays a game between two people
    return Run(s, home, case.viewer)


def _recording(case: Case, home: Path) -> list[DrawRecord]:
    """What variant 0's game draws along its script (its chance as the seed gives it, ``fixed`` apart)."""
    run = _start(case, home, SEED, dict(case.fixed))
    run.check = lambda label, who_acts: None  # type: ignore[method-assign]
    case.script(run, 0)
    log = run.session.state.draw_log
    assert log is not None
    return list(log)


def _run(case: Case, variant: int, home: Path, log: list[DrawRecord]) -> Run:
    seed, extra = case.vary(variant, log) if case.vary is not None else (SEED, {})
    run = _start(case, home, seed, {**case.fixed, **extra})
    case.script(run, variant)
    return run


@pytest.mark.parametrize("case", CASES, ids=[f"{c.game}: {c.name}" for c in CASES])
def test_a_seat_sees_the_same_whatever_is_hidden_from_it(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if case.plugin:  # the plugin game, from its own package, for this test only
        from gm.core import registry

        monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "plugin_game"))
        from gm_rps import GAME as RPS

        monkeypatch.setitem(registry._registered, RPS.id, RPS)
    log = _recording(case, tmp_path / "rec") if case.vary is not None else []
    a = _run(case, 0, tmp_path / "a", log)
    b = _run(case, 1, tmp_path / "b", log)
    assert list(a.worlds) == list(b.worlds) and a.worlds, "no checkpoint was reached"
    for label in a.worlds:
        assert a.truth[label] != b.truth[label], f"{label}: the two games do not differ: the comparison would be blind"
        assert_same_world(a.worlds[label], b.worlds[label], f"{case.game}, {case.name}, {label}")


def test_the_defense_is_told_the_offenses_tools_as_they_are_with_either_holder(tmp_path: Path) -> None:
    """The leak itself: with the ball hidden after the offense's play action, the offense's own tools
    say who holds it (only the carrier passes), so ``expected`` as the engine knows it differs between
    the two holders; the defense is told the tools the offense has with either holder, the same in both
    games, and the offense its own."""
    told, own, known = [], [], []
    for v in (0, 1):
        run = _start(Case("chess-football", "holder", "away", cf_holder), tmp_path / str(v), SEED, dict(CF_TOSS))
        s = run.session
        _cf_to_snap(run)
        for seat, text in (("home", "plan: hold"), ("away", "plan: hold"), ("home", "done"), ("away", "done"),
                           ("home", f"play action ST1 ball {['QB', 'ST1'][v]}")):
            run.move(seat, text)
        assert s.state.to_act() == ("home",) and s.state.field.hidden  # type: ignore[attr-defined]
        told.append(next(e["tools"] for e in s.expected("away") if e["seat"] == "home"))
        assert next(e["tools"] for e in s.expected(None) if e["seat"] == "home") == told[-1]  # a spectator too
        own.append(next(e["tools"] for e in s.expected("home") if e["seat"] == "home"))
        known.append(next(e["tools"] for e in expected(s.state, s.tools, s.players) if e["seat"] == "home"))
    assert known[0] != known[1] and own == known  # what the engine knows, and the offense is told, tells the holder
    assert "pass_ball" in known[0] and "pass_ball" not in known[1]
    assert told[0] == told[1] and "pass_ball" in told[0]  # the defense hears the same either way
