"""The contract kit for game authors: checks any game package runs on itself.

A game that passes them keeps the promises every front end of gm relies on::

    # tests/test_contract.py of a game package
    import pytest
    import gm.testing
    from my_game import GAME

    def test_my_game_keeps_gm_s_contract() -> None:
        gm.testing.check_game(GAME)

    # or one test per check, each reported on its own:
    @pytest.mark.parametrize("check", gm.testing.CHECKS)
    def test_contract(check: str) -> None:
        gm.testing.check_game(GAME, only=[check])

Each check plays seeded random games of the ruleset (``seeds``, at most ``plies`` moves each) and
looks at every position it passes (chance comes only from the seeds, so a failure replays):

- ``legal``: the legal actions agree with ``in``, ``is_legal`` and ``apply`` (each listed action
  applies to a copy; a seat that need not act has none; a seat to act has some);
- ``refusal``: an action refused (another position's move, a move out of turn, words that are no
  move, an unknown seat) raises a :class:`~gm.core.errors.GameError` and leaves the state
  byte-identical (``to_json`` and ``snapshot``);
- ``round_trip``: every action's text form parses back to it (``Game.parse_action`` and the
  state's) and its JSON form too (``Game.action_from_json``), and is plain JSON;
- ``determinism``: two games of one seed played by the same seeded bots make the same moves,
  events and snapshot, and ``to_json`` rebuilds the very game (``from_json``, ``rebuilt``);
- ``hidden``: the counterfactual - two states differing only in a secret (a locked pick of a seat
  choosing alongside another, or a public move still carrying a secret with the same public text)
  look identical to every other seat and to a spectator: view, status, board text, ``board_json``,
  ``move_builder``, who is expected to act with which tools, and that seat's legal actions;
- ``templates``: the game's export documents and the referee's rules summary render;
- ``board_json``: every board the game draws validates against ``gm/core/board_json.schema.json``
  (the format ``gm/web/static/board.js`` draws) and every cell and piece is on the board; every
  move builder validates against ``gm/core/move_builder.schema.json``.

:func:`check_game` raises :class:`ContractError` (an :class:`AssertionError`, so pytest shows it as
a failed assertion) listing every broken promise with the position's log, and returns a
:class:`Report` of what it looked at, so a test can also assert the checks were not vacuous
(``report.pairs`` counterfactual pairs compared).  The ``board_json`` check needs ``jsonschema``
(``pip install 'gm[testing]'``).

A game that is not registered (``gm.core.registry``: an entry point or :func:`register_game`) is
registered for the duration of the check: rebuilding a state from JSON and rendering the game's
templates find it by its id.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from gm.core.actions import Action
from gm.core.errors import GameError
from gm.core.game import Game
from gm.core.playout import play_out
from gm.core.registry import find_game, register_game, unregister_game
from gm.core.state import GameState, LegalActions
from gm.core.tools import expected

#: the checks, in the order they run (names for ``check_game(only=...)``)
CHECKS = ("legal", "refusal", "round_trip", "determinism", "hidden", "templates", "board_json")
#: the board format's JSON Schema, inside the package next to the game contract
BOARD_SCHEMA = "board_json.schema.json"
#: actions tried per seat and position (all of them when the seat has no more)
PER_POSITION = 8
#: actions of other positions kept to try as refused moves, and how many of them a seat tries at a position
POOL = 40
TRIES = 6


class ContractError(AssertionError):
    """A game breaks gm's game contract: every broken promise found, one a line."""


@dataclass
class Report:
    """What the checks looked at (so a test can tell they were not vacuous)."""

    game: str
    positions: int = 0
    actions: int = 0
    refusals: int = 0
    pairs: int = 0
    boards: int = 0
    failures: list[str] = field(default_factory=list)


def load_board_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``Game.board_json``: ``gm/core/board_json.schema.json``."""
    return dict(json.loads((files("gm.core") / BOARD_SCHEMA).read_text(encoding="utf-8")))


def check_game(
    game: Game,
    rules: Any = None,
    *,
    seeds: Sequence[int] = (0, 1),
    plies: int = 40,
    only: Sequence[str] | None = None,
) -> Report:
    """Run the contract checks (all, or ``only`` those named in :data:`CHECKS`) on ``game`` under
    ``rules`` (default: its defaults); raise :class:`ContractError` listing every failure."""
    names = tuple(only) if only is not None else CHECKS
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown checks {unknown}; the checks are {', '.join(CHECKS)}")
    report = Report(game.id)
    with _registered_game(game):
        rules = game.load_rules(rules)
        walks = [_walk(game, rules, seed, plies, report) for seed in seeds]
        report.positions = sum(len(w) for w in walks)
        for name in names:
            try:
                _CHECKS[name](game, rules, walks, seeds, plies, report)
            except Exception as exc:  # a check that cannot even run is a failure of that check, not a crash
                report.failures.append(f"{name}: raised {exc!r}")
    if report.failures:
        shown = report.failures[:40]
        more = len(report.failures) - len(shown)
        raise ContractError(
            f"{game.id} breaks gm's game contract ({len(report.failures)} failures):\n"
            + "\n".join(f"- {f}" for f in shown)
            + (f"\n- ... and {more} more" if more > 0 else "")
        )
    return report


# ------------------------------------------------------------------ helpers
@contextmanager
def _registered_game(game: Game) -> Iterator[None]:
    """``game`` findable by its id while the checks run (registered, then unregistered again when it
    was not; a game of its id registered before is registered again)."""
    before = _find(game.id)
    if before is game:
        yield
        return
    register_game(game)
    try:
        yield
    finally:
        unregister_game(game)
        if before is not None and _find(game.id) is not before:
            register_game(before)


def _find(gid: str) -> Game | None:
    try:
        return find_game(gid)
    except GameError:
        return None


class Position:
    """A position of a walk: an independent state, and its seats' legal actions listed once
    (a game's legal actions can be costly: every check reads the same lists)."""

    __slots__ = ("_legal", "state")

    def __init__(self, state: GameState[Any]) -> None:
        self.state = state
        self._legal: dict[str, LegalActions] = {}

    def legal(self, seat: str) -> LegalActions:
        got = self._legal.get(seat)
        if got is None:
            got = self._legal[seat] = self.state.legal_actions(seat)
        return got


def _walk(game: Game, rules: Any, seed: int, plies: int, report: Report) -> list[Position]:
    """The positions of a seeded random game (independent states: each one a clone); a legal action
    drawn that ``apply`` refuses ends the walk there (a failure of ``legal``)."""
    rng = random.Random(f"gm.testing {game.id} {seed}")
    state = game.new_state(rules, seed)
    out = [Position(state.clone())]
    for _ in range(plies):
        acting = state.to_act()
        if not acting:
            break
        seat = rng.choice(acting)
        action = state.legal_actions(seat).sample(rng)
        try:
            state.apply(seat, action)
        except GameError as exc:
            report.failures.append(f"legal: listed {action} is refused by apply for {seat}: {exc.message} ({_where(state)})")
            break
        out.append(Position(state.clone()))
    return out


def _where(state: GameState[Any]) -> str:
    log = [f"{m.seat}: {m.action}" for m in state.log]
    shown = "; ".join(log[-6:])
    return f"seed {state.seed}, after {len(log)} moves" + (f" (... {shown})" if shown else "")


def _some(legal: LegalActions, rng: random.Random) -> list[Action]:
    """Up to :data:`PER_POSITION` of the legal actions: all of them when few, else the first two and
    a seeded sample."""
    n = len(legal)
    if n <= PER_POSITION:
        return list(legal)
    picked = {str(a): a for a in legal.page(0, 2)}
    for _ in range(PER_POSITION * 3):
        if len(picked) >= PER_POSITION:
            break
        a = legal.sample(rng)
        picked.setdefault(str(a), a)
    return list(picked.values())


def _frozen(state: GameState[Any]) -> str:
    """The state's record and derived state as one string (``byte-identical`` means equal here)."""
    return json.dumps([state.to_json(), state.snapshot()], sort_keys=True, default=repr)


# ------------------------------------------------------------------- checks
Check = Callable[[Game, Any, "list[list[Position]]", Sequence[int], int, Report], None]


def _check_legal(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    rng = random.Random(0)
    for walk in walks:
        for pos in walk:
            state = pos.state
            acting = state.to_act()
            for seat in game.seats:
                legal = pos.legal(seat)
                if seat not in acting:
                    if len(legal):
                        report.failures.append(f"legal: {seat} need not act but has {len(legal)} legal actions ({_where(state)})")
                    continue
                if not len(legal):
                    report.failures.append(f"legal: {seat} must act but has no legal action ({_where(state)})")
                    continue
                if not legal.is_space and len(list(legal)) != len(legal):
                    report.failures.append(f"legal: {seat}'s legal actions list {len(list(legal))} but count {len(legal)} ({_where(state)})")
                for action in _some(pos.legal(seat), rng):
                    report.actions += 1
                    if action not in legal:
                        report.failures.append(f"legal: listed {action} is not `in` the legal actions of {seat} ({_where(state)})")
                    if not state.is_legal(seat, action):
                        report.failures.append(f"legal: listed {action} is not is_legal for {seat} ({_where(state)})")
                    try:
                        state.clone().apply(seat, action)
                    except GameError as exc:
                        report.failures.append(f"legal: listed {action} is refused by apply for {seat}: {exc.message} ({_where(state)})")


def _check_refusal(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    rng = random.Random(1)
    pool: dict[str, Action] = {}
    for walk in walks:
        for pos in walk:
            state = pos.state
            for seat in state.to_act():
                for a in _some(pos.legal(seat), rng)[:3]:
                    if len(pool) < POOL:
                        pool.setdefault(str(a), a)
    for walk in walks:
        for pos in walk:
            state = pos.state.clone()  # refused on a copy: a game that takes a refused move spoils no other check
            before = _frozen(state)
            tries: list[tuple[str, Action | str]] = [(seat, "no such move, no such words 0") for seat in game.seats]
            tries.append(("no such seat", next(iter(pool.values()), "x")))
            others = list(pool.values())
            for seat in game.seats:
                legal = pos.legal(seat)
                tries.extend((seat, a) for a in rng.sample(others, min(len(others), TRIES)) if a not in legal)
            for seat, action in tries:
                if state.is_legal(seat, action) if seat in game.seats else False:
                    report.failures.append(f"refusal: {action} is not a legal action of {seat} but is_legal says it is ({_where(state)})")
                    continue
                report.refusals += 1
                try:
                    state.apply(seat, action)
                except GameError:
                    pass
                except Exception as exc:
                    report.failures.append(f"refusal: {seat}: {action!s} raised {exc!r}, not a GameError ({_where(state)})")
                else:
                    report.failures.append(f"refusal: {seat}: {action!s} is not legal but apply took it ({_where(state)})")
                    return  # the first position that breaks it is shown (its copy has moved on)
                if _frozen(state) != before:
                    report.failures.append(f"refusal: {seat}: refused {action!s} changed the state ({_where(state)})")
                    return  # the first position that breaks it is shown


def _check_round_trip(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    rng = random.Random(2)
    seen: set[str] = set()
    for walk in walks:
        for pos in walk:
            state = pos.state
            for seat in state.to_act():
                for action in _some(pos.legal(seat), rng):
                    text = str(action)
                    if text in seen:
                        continue
                    seen.add(text)
                    for how, parse in (("Game.parse_action", game.parse_action), ("GameState.parse_action", state.parse_action)):
                        try:
                            back: Any = parse(text)
                        except GameError as exc:
                            report.failures.append(f"round_trip: {how}({text!r}) refuses it: {exc.message}")
                            continue
                        if back != action:
                            report.failures.append(f"round_trip: {how}({text!r}) gives {back!r}, not {action!r}")
                    data = action.to_json()
                    try:
                        wire = json.loads(json.dumps(data))
                    except (TypeError, ValueError) as exc:
                        report.failures.append(f"round_trip: {text}'s JSON form {data!r} is not plain JSON: {exc}")
                        continue
                    try:
                        back = game.action_from_json(wire)
                    except GameError as exc:
                        report.failures.append(f"round_trip: action_from_json({wire}) refuses it: {exc.message}")
                        continue
                    if back != action:
                        report.failures.append(f"round_trip: action_from_json({wire}) gives {back!r}, not {action!r}")


def _check_determinism(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    def play(seed: int) -> tuple[GameState[Any], list[str]]:
        state = game.new_state(rules, seed)
        bots = {seat: game.make_bot("", seed * 31 + i) for i, seat in enumerate(game.seats)}
        said: list[str] = [str(e) for e in state.opening_events()]

        def note(seat: str, action: Action, events: list[Any]) -> None:
            said.append(f"{seat}: {action}")
            said.extend(str(e) for e in events)

        play_out(state, bots, max_moves=plies, on_move=note)
        return state, said

    for seed in seeds:
        a, said_a = play(seed)
        b, said_b = play(seed)
        if said_a != said_b:
            at = next((i for i, (x, y) in enumerate(zip(said_a, said_b, strict=False)) if x != y), min(len(said_a), len(said_b)))
            report.failures.append(f"determinism: seed {seed}, the same bots: the games part at line {at} "
                                   f"({said_a[at:at + 1]} v {said_b[at:at + 1]})")
        elif _frozen(a) != _frozen(b):
            report.failures.append(f"determinism: seed {seed}, the same moves give different states")
        for walk in walks:
            for state in (walk[-1].state, a):
                try:
                    again = type(state).from_json(json.loads(json.dumps(state.to_json())))
                except GameError as exc:
                    report.failures.append(f"determinism: from_json(to_json()) fails: {exc.message} ({_where(state)})")
                    continue
                if _frozen(again) != _frozen(state):
                    report.failures.append(f"determinism: from_json(to_json()) rebuilds another game ({_where(state)})")
                if _frozen(state.rebuilt()) != _frozen(state):
                    report.failures.append(f"determinism: rebuilt() rebuilds another game ({_where(state)})")


def _face(game: Game, state: GameState[Any], viewer: str | None) -> str:
    """Everything ``viewer`` (``None``: a spectator) is shown of ``state``, as one string."""
    tools = game.tools(state.rules)
    out: dict[str, Any] = {
        "view": state.view(viewer),
        "status": game.status(state, viewer),
        "render": game.render(state, viewer),
        "board_json": game.board_json(state, viewer),
        "move_builder": game.move_builder(state, viewer),
        "expected": expected(state, tools, None, viewer),
        "to_act": state.to_act(),
    }
    if viewer is not None:
        out["legal"] = [str(a) for a in state.legal_actions(viewer).page(0, 50)]
        out["summary"] = state.legal_summary(viewer) if viewer in state.to_act() else []
    return json.dumps(out, sort_keys=True, default=repr)


def _check_hidden(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    rng = random.Random(3)
    for walk in walks:
        for pos in walk:
            state = pos.state
            if state.has_locked_picks():
                continue
            n = len(state.log)
            for seat in state.to_act():
                secret: dict[str, GameState[Any]] = {}  # a pair of each kind of secret: the first two found
                pairs: list[tuple[str, GameState[Any], GameState[Any]]] = []
                for action in _some(pos.legal(seat), rng):
                    if pairs:
                        break  # one pair of a seat's secrets per position is enough
                    after = state.clone()
                    after.apply(seat, action)
                    if after.has_locked_picks() and not after.is_terminal:
                        kind = "a locked pick"
                    elif n in after.secret_moves():
                        kind = f"a move with the public text {action.public_text()!r}"
                    else:
                        continue
                    if kind in secret:
                        pairs.append((kind, secret[kind], after))
                    else:
                        secret[kind] = after
                for kind, one, other in pairs:
                    report.pairs += 1
                    for viewer in (*[s for s in game.seats if s != seat], None):
                        if _face(game, one, viewer) != _face(game, other, viewer):
                            report.failures.append(
                                f"hidden: {viewer or 'a spectator'} can tell {one.log[-1].action} from {other.log[-1].action}, "
                                f"{kind} of {seat} ({_where(state)})"
                            )


def _check_templates(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    from gm.export import DOCS, render_doc
    from gm.referee.llm.prompts import rules_summary

    for doc in DOCS:
        try:
            text = render_doc(game, doc, rules, walks[0][-1].state if doc == "session" and walks else None)
        except GameError as exc:
            report.failures.append(f"templates: the {doc} document does not render: {exc.message}")
            continue
        if not text.strip():
            report.failures.append(f"templates: the {doc} document renders empty")
    for seat in game.seats:
        try:
            rules_summary(game, rules, seat, {s: "human" for s in game.seats})
        except GameError as exc:
            report.failures.append(f"templates: the rules summary for {seat} does not render: {exc.message}")


def _check_board_json(game: Game, rules: Any, walks: list[list[Position]], seeds: Sequence[int], plies: int, report: Report) -> None:
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - a dependency of gm[testing]
        report.failures.append("board_json: needs jsonschema (pip install 'gm[testing]')")
        return
    from gm.core.movebuilder import load_schema

    boards = jsonschema.Draft202012Validator(load_board_schema())
    builders = jsonschema.Draft202012Validator(load_schema())
    for walk in walks:
        for pos in walk[:: max(1, len(walk) // 12)]:
            state = pos.state
            for viewer in (*game.seats, None):
                board = game.board_json(state, viewer)
                if board is None:
                    continue
                report.boards += 1
                problems = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in boards.iter_errors(board)]
                if not problems:
                    order = set(board.get("row_order") or range(1, board["rows"] + 1))
                    for what in ("cells", "pieces"):
                        for item in board.get(what) or ():
                            if not (0 <= item["col"] < board["columns"]) or item["row"] not in order:
                                problems.append(f"{what}: {item.get('kind')} at col {item['col']}, row {item['row']} is off the board")
                for p in problems[:3]:
                    report.failures.append(f"board_json for {viewer or 'a spectator'}: {p} ({_where(state)})")
                built = game.move_builder(state, viewer)
                for e in list(builders.iter_errors(built))[:3]:
                    report.failures.append(f"move_builder for {viewer or 'a spectator'}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: "
                                           f"{e.message} ({_where(state)})")


_CHECKS: dict[str, Check] = {
    "legal": _check_legal,
    "refusal": _check_refusal,
    "round_trip": _check_round_trip,
    "determinism": _check_determinism,
    "hidden": _check_hidden,
    "templates": _check_templates,
    "board_json": _check_board_json,
}

__all__ = ["BOARD_SCHEMA", "CHECKS", "ContractError", "Report", "check_game", "load_board_schema"]
