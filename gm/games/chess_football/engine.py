"""The Chess-Football Hybrid rules engine: game flow around the downs.

Phases: captain picks (simultaneous, secret) -> coin toss -> drives.  Every down:
[4th down: punt or go for it] -> the snap (both teams submit a plan, secret until both
are in; offense rows execute, then defense rows, then the ball moves) -> reaction turns
(offense acts, ``done``; defense acts, ``done``; the ball moves) until a tackle,
touchdown, safety, incomplete pass, interception or the whistle
(``max_turns_per_down``).  Four possessions per team per half, then overtime.

The down itself lives in the field modules (:mod:`.field` and the modules it names).

Legal actions are exact (iterating them lists exactly what ``in`` accepts): at the snap a
:class:`~.options.PlanSpace` (every plan, counted and indexed by dynamic programming - see
:mod:`.options` for why a plan's rows are checked per piece, ruling CF-R-PLAN-CHECK), in a
reaction turn a :class:`~.options.TurnSpace` (``done``, ball choices and every option of every
piece that may act), otherwise a short tuple.  ``home`` attacks toward row 48, ``away`` toward
row 1 (ruling CF-R-ENDS).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, cast

from gm.core.actions import Action
from gm.core.chance import Coin
from gm.core.errors import GameError, IllegalActionError, InvalidActionError
from gm.core.events import Event
from gm.core.outcome import Outcome
from gm.core.state import ActionSpace, GameState
from gm.core.wording import ordinal
from gm.games.chess_football import passing, resolution
from gm.games.chess_football.actions import (
    Ability,
    BallChoice,
    CaptainPick,
    CoinCall,
    Done,
    FourthDown,
    Move,
    Pass,
    PieceAction,
    Plan,
    PlayAction,
    public_text,
    split_rows,
)
from gm.games.chess_football.checks import check, row_piece
from gm.games.chess_football.field import DownEnd, Field, Piece, ev
from gm.games.chess_football.geometry import col_letter, parse_square, sq
from gm.games.chess_football.options import PlanSpace, TurnSpace, legal_summary, turn_kinds
from gm.games.chess_football.rules import ChessFootballRules

# alike on purpose: every game's engine declares its seats and its phases and decisions as enums of this
# shape; each names its own game's (the tools, the page and the bots read them)
HOME, AWAY = "home", "away"
SEATS = (HOME, AWAY)



class Phase(StrEnum):
    """The phases of a game (``state.phase``)."""

    CAPTAINS = "captains"
    COIN_TOSS = "coin_toss"
    FOURTH_DOWN = "fourth_down"
    SNAP = "snap"
    OFFENSE_TURN = "offense_turn"
    DEFENSE_TURN = "defense_turn"
    GAME_OVER = "game_over"


class Decision(StrEnum):
    """The kinds of decision a seat makes (``state.decision(seat)``; tools declare the ones they answer)."""

    CAPTAINS = "captains"
    COIN_CALL = "coin_call"
    FOURTH_DOWN = "fourth_down"
    SNAP_PLAN = "snap_plan"
    TURN = "turn"


CAPTAINS, COIN_TOSS, FOURTH_DOWN, SNAP = Phase.CAPTAINS, Phase.COIN_TOSS, Phase.FOURTH_DOWN, Phase.SNAP
OFFENSE_TURN, DEFENSE_TURN, GAME_OVER = Phase.OFFENSE_TURN, Phase.DEFENSE_TURN, Phase.GAME_OVER

#: what each phase asks a seat to decide (the tool layer maps these to tools)
DECISIONS: dict[Phase, Decision] = {
    CAPTAINS: Decision.CAPTAINS,
    COIN_TOSS: Decision.COIN_CALL,
    FOURTH_DOWN: Decision.FOURTH_DOWN,
    SNAP: Decision.SNAP_PLAN,
    OFFENSE_TURN: Decision.TURN,
    DEFENSE_TURN: Decision.TURN,
}
_PHASE_RULE = {
    CAPTAINS: "CF-R-CAPTAINS",
    COIN_TOSS: "CF-COIN-TOSS",
    FOURTH_DOWN: "CF-FOURTH-DOWN",
    SNAP: "CF-SNAP",
    OFFENSE_TURN: "CF-REACTION",
    DEFENSE_TURN: "CF-REACTION",
    GAME_OVER: "CORE-OVER",
}
#: the decision each action type answers
_ACTION_DECISION = {
    CaptainPick.type: Decision.CAPTAINS, CoinCall.type: Decision.COIN_CALL, FourthDown.type: Decision.FOURTH_DOWN,
    Plan.type: Decision.SNAP_PLAN, **{t.type: Decision.TURN for t in (Move, Ability, Pass, PlayAction, BallChoice, Done)},
}  # fmt: skip


def other(seat: str) -> str:
    return AWAY if seat == HOME else HOME


class ChessFootballState(GameState[ChessFootballRules]):
    """State of one game of the Chess-Football Hybrid."""


    # ----------------------------------------------------------------- setup
    def _setup(self) -> None:
        self.phase: Phase = CAPTAINS
        self.pending: dict[str, Action] = {}
        self.captains: dict[str, tuple[str, str]] = {}
        self.toss_winner: str | None = None
        self.period = 0  # 1, 2: halves; 3...: overtime periods
        self.poss_used = {HOME: 0, AWAY: 0}
        self.offense: str | None = None
        self.down = 0
        self.los = 0
        self.fdl = 0
        self.snap_no = 0
        self.last_used: dict[tuple[str, str, str], int] = {}
        self.score = {HOME: 0, AWAY: 0}
        self.field: Field | None = None
        self.last: dict[str, Any] = {}
        self._summary: tuple[Any, list[str]] = (None, [])  # (position, seat) -> its legal summary, for errors
        self.drives = 0

    # --------------------------------------------------------------- helpers
    def direction(self, seat: str) -> int:
        """+1 if ``seat`` attacks toward row 48 (home), -1 toward row 1 (away) - CF-R-ENDS."""
        return 1 if seat == HOME else -1

    @property
    def defense(self) -> str | None:
        return other(self.offense) if self.offense else None

    def square_row(self, team: str, square: int) -> int:
        """Row of square ``square`` counted from ``team``'s own goal line (CF-R-SQUARE8)."""
        r = self.rules
        return r.low_goal + square if self.direction(team) > 0 else r.high_goal - square

    def yard_square(self, team: str, row: int) -> int:
        """Inverse of :meth:`square_row`: squares from ``team``'s own goal line."""
        r = self.rules
        return row - r.low_goal if self.direction(team) > 0 else r.high_goal - row

    def quota(self) -> int:
        return self.rules.possessions_per_half if self.period <= 2 else self.rules.overtime_possessions

    @property
    def period_name(self) -> str:
        if self.period <= 0:
            return "pre-game"
        if self.period <= 2:
            return f"half {self.period}"
        return "overtime" if self.rules.overtime_periods <= 1 else f"overtime {self.period - 2}"

    def decision(self, seat: str) -> Decision | None:
        """The kind of decision ``seat`` must make now (``None``: nothing)."""
        if seat not in self.to_act():
            return None
        return DECISIONS.get(self.phase)

    def goal_to_go(self) -> bool:
        if not self.offense:
            return False
        d = self.direction(self.offense)
        r = self.rules
        return (self.fdl >= r.high_goal) if d > 0 else (self.fdl <= r.low_goal)

    def to_go(self) -> int | None:
        if not self.offense:
            return None
        if self.goal_to_go():
            return abs(self.yard_square(other(self.offense), self.los))
        return abs(self.fdl - self.los)

    # ------------------------------------------------------------ turn model
    def _to_act(self) -> tuple[str, ...]:
        p = self.phase
        if p in (CAPTAINS, SNAP):
            return tuple(s for s in SEATS if s not in self.pending)
        if p == COIN_TOSS:
            return (self.rules.toss_caller,)
        if p in (FOURTH_DOWN, OFFENSE_TURN):
            assert self.offense
            return (self.offense,)
        if p == DEFENSE_TURN:
            assert self.offense
            return (other(self.offense),)
        return ()

    def _turn_error(self, seat: str, action: Action) -> GameError:
        """What a seat that has nothing to do now is told, by the rule that says whose move it is."""
        p = self.phase
        waiting = " and ".join(self._to_act())
        if p in (CAPTAINS, SNAP):
            what = "its captains" if p == CAPTAINS else "its snap plan"
            reason = f"{seat} has locked {what}; waiting for {waiting}"
        elif p == COIN_TOSS:
            reason = f"{waiting} calls the toss"
        elif p == FOURTH_DOWN:
            reason = f"the offense ({waiting}) declares punt or go for it"
        else:
            reason = f"it is {waiting}'s part of the turn" + (" (the offense moves first)" if p == OFFENSE_TURN else "")
        rule = {COIN_TOSS: "CF-R-TOSS", FOURTH_DOWN: "CF-R-FOURTH"}.get(p, _PHASE_RULE[p])
        return IllegalActionError(reason, rule=rule, input=str(action))

    def _legal(self, seat: str) -> Iterable[Action] | ActionSpace:
        p = self.phase
        r = self.rules
        if p == CAPTAINS:
            return tuple(CaptainPick(o, d) for o in r.captain_roles("offense") for d in r.captain_roles("defense"))
        if p == COIN_TOSS:
            return (CoinCall("heads"), CoinCall("tails"))
        if p == FOURTH_DOWN:
            return (FourthDown("go"), FourthDown("punt"))
        if p == SNAP:
            return self.plan_space(seat)
        if p in (OFFENSE_TURN, DEFENSE_TURN):
            assert self.field is not None
            return TurnSpace(self.field, seat)
        return ()

    def action_kinds(self, seat: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """The kinds of action open to ``seat``; in a reaction turn read off the pieces (:func:`.options.turn_kinds`)
        rather than by walking the few thousand actions of the turn."""
        if self.phase in (OFFENSE_TURN, DEFENSE_TURN) and self.field is not None and seat in self.to_act():
            return turn_kinds(self.field, seat, wanted)
        if self.decision(seat) == Decision.SNAP_PLAN:  # (every plan is a plan: the space is not walked)
            return {Plan.type}
        return super().action_kinds(seat, wanted)

    def action_kinds_seen(self, seat: str, viewer: str | None, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """While the ball is hidden from ``viewer`` (CF-R-PA: the holder is secret), the offense's kinds of action as
        ``viewer`` may know them: those it has with either of the play-action pair holding the ball
        (only the carrier passes or fakes, so what the offense has now would tell who holds it)."""
        f = self.field
        if (f is None or seat != self.offense or not f.hidden or not f.pair or self.sees_ball(viewer)
                or self.phase not in (OFFENSE_TURN, DEFENSE_TURN) or seat not in self.to_act()):
            return self.action_kinds(seat, wanted)
        kinds: set[str] = set()
        for holder in f.pair:
            board = f.clone(sim=False)
            board.carrier = holder
            kinds |= turn_kinds(board, seat)
        return kinds

    def plan_space(self, seat: str) -> PlanSpace:
        """Every snap plan ``seat`` may submit now (ruling CF-R-PLAN-CHECK), counted and indexed."""
        return PlanSpace(self.plan_board(seat), seat, self.rules.plan_rows)

    def plan_board(self, seat: str) -> Field:
        """A simulation board for building ``seat``'s snap plan (public information only)."""
        assert self.field is not None
        sim = self.field.clone(sim=True)
        sim.start_phase(seat)
        return sim

    def legal_summary(self, seat: str) -> list[str]:
        """``seat``'s options in short: during a down ``done``, ball choices and one line per piece that
        may act (how many squares it can reach, its other options); at the snap the same for plan rows."""
        if seat not in self.to_act():
            return []
        if self.phase == SNAP:
            return ["plan: hold", *(f"plan row - {line}" for line in legal_summary(self.plan_board(seat), seat))]
        if self.phase in (OFFENSE_TURN, DEFENSE_TURN):
            assert self.field is not None
            f = self.field
            choices = [f"ball {h}" for h in (f.pair or ()) if h != f.carrier and not f.ball_choice_used and f.hidden]
            return ["done", *(choices if seat == f.offense else []), *legal_summary(f, seat)]
        return [str(a) for a in self._legal(seat)]

    def _illegal(self, rule: str, reason: str, action: Action, seat: str) -> IllegalActionError:
        """An :class:`IllegalActionError` with the legal alternatives (summarised during a down; the summary
        is worked out once per position)."""
        key = (len(self.log), seat)
        if self._summary[0] != key:
            self._summary = (key, self.legal_summary(seat))
        return IllegalActionError(reason, rule=rule, input=str(action), legal=self._summary[1])

    def _check(self, seat: str, action: Action) -> Any:
        """Pure: raise, or return the plan :meth:`_apply` carries out (a piece action's row plan)."""
        p = self.phase
        expected = DECISIONS.get(p)
        if _ACTION_DECISION.get(action.type) != expected:
            what = (expected or "nothing").replace("_", " ")
            if isinstance(action, FourthDown) and p != GAME_OVER:
                raise self._illegal("CF-R-FOURTH", f"punt or go for it is declared before the snap on 4th down; now is the "
                                    f"time for: {what}", action, seat)
            raise self._illegal(_PHASE_RULE[p], f"now is the time for: {what}", action, seat)
        r = self.rules
        if isinstance(action, CaptainPick):
            for side, role in (("offense", action.offense), ("defense", action.defense)):
                spec = r.captains.get(role)
                if spec is None:
                    rule = "CF-R-EIGHTH" if role in ("eighth", "8th", "unknown") else "CF-CAPTAIN"
                    raise self._illegal(rule, f"there is no captain role {role!r}", action, seat)
                if spec.side != side:
                    raise self._illegal("CF-R-CAPTAINS", f"{spec.name} is a {spec.side} captain, not an {side} one"
                                        if side == "offense" else f"{spec.name} is an {spec.side} captain, not a {side} one",
                                        action, seat)
            return None
        if isinstance(action, FourthDown) and self.down not in r.punt_downs:
            raise self._illegal("CF-FOURTH-DOWN", f"punt or go is declared on 4th down; it is {ordinal(self.down)} down", action, seat)
        if isinstance(action, Plan):
            self._check_plan(seat, action)
            return None
        if p in (OFFENSE_TURN, DEFENSE_TURN):
            assert self.field is not None
            try:
                return check(self.field, seat, action)
            except IllegalActionError as exc:
                raise self._illegal(exc.rule, exc.reason, action, seat) from None
        return None

    def _check_plan(self, seat: str, plan: Plan) -> None:
        """A plan is checked against the board at the snap: each row after the earlier rows of its own
        piece (and only those), the rows in movement order (ruling CF-R-PLAN-CHECK)."""
        r = self.rules
        if len(plan.rows) > r.plan_rows:
            raise self._illegal("CF-PLAN", f"the planning board has {r.plan_rows} rows", plan, seat)
        assert self.field is not None
        board = self.plan_board(seat)
        pids = [row_piece(board, row) for row in plan.rows]
        sims: dict[str | None, Field] = {}
        floor = board.floor
        for i, (row, pid) in enumerate(zip(plan.rows, pids, strict=True), start=1):
            if isinstance(row, PlayAction) and row.holder is not None:
                raise self._illegal("CF-R-PA", f"row {i} ({row}): a plan is revealed in full, so its play action names "
                                    f"no holder ('play action {row.partner}'); choose the holder later with 'ball X'",
                                    plan, seat)
            # A piece's only row is checked on the board at the snap itself: no later row of its own reads
            # what it does, and what it leaves for the rows after it is the movement-order floor, which
            # carrying out any row raises to its own piece's rank (CF-MOVE-ORDER).  A piece with more rows
            # plays them out on a copy of its own.
            alone = pid is not None and pids.count(pid) == 1
            sim = board if alone else sims.get(pid)
            if sim is None:
                sim = sims[pid] = board.clone(sim=True)
            sim.floor = floor
            try:
                row_plan = check(sim, seat, row)
            except IllegalActionError as exc:
                raise self._illegal(exc.rule, f"row {i} ({row}): {exc.reason}", plan, seat) from None
            if alone:
                floor = max(floor, board.pieces[pid].rank)  # type: ignore[index]  # (alone: pid is a piece's)
                continue
            resolution.apply(sim, seat, row, row_plan)
            floor = sim.floor

    # ------------------------------------------------------------------ apply
    def _lock(self, seat: str, action: Action, events: list[Event], locked: Event) -> dict[str, Action] | None:
        """Keep ``seat``'s secret pick: while the other side's is missing, the ``locked`` event and ``None``;
        once both are in, both picks (no longer pending), to be revealed together."""
        self.pending[seat] = action
        if len(self.pending) < len(SEATS):
            events.append(locked)
            return None
        picks, self.pending = self.pending, {}
        return picks

    def _apply(self, seat: str, action: Action, plan: Any = None) -> list[Event]:
        events: list[Event] = []
        p = self.phase
        if p == CAPTAINS:
            picks = self._lock(seat, action, events, ev("locked", "CF-R-CAPTAINS", "{seat} has named its captains", seat=seat, also=["CF-R-EIGHTH"]))
            if picks is None:
                return events
            for s in SEATS:
                pick = picks[s]
                assert isinstance(pick, CaptainPick)
                self.captains[s] = (pick.offense, pick.defense)
            r = self.rules
            events.append(ev("captains", "CF-CAPTAIN",
                             "captains: home {ho} (offense) / {hd} (defense); away {ao} (offense) / {ad} (defense)",
                             ho=r.captains[self.captains[HOME][0]].name, hd=r.captains[self.captains[HOME][1]].name,
                             ao=r.captains[self.captains[AWAY][0]].name, ad=r.captains[self.captains[AWAY][1]].name,
                             also=["CF-R-CAPTAINS", "CF-R-EIGHTH"]))
            self.last = {"kind": "captains", **{s: str(picks[s]) for s in SEATS}}
            self.phase = COIN_TOSS
        elif p == COIN_TOSS:
            assert isinstance(action, CoinCall)
            flip = self.draw(Coin("coin toss"))
            self.toss_winner = seat if flip == action.call else other(seat)
            events.append(ev("coin_toss", "CF-COIN-TOSS", "{caller} calls {call}; the coin shows {flip}: {winner} wins the toss "
                             "and has the first possession", caller=seat, call=action.call, flip=flip, winner=self.toss_winner,
                             also=["CF-R-TOSS"]))
            self.period = 1
            self._start_drive(self.toss_winner, None, events)
        elif p == FOURTH_DOWN:
            assert isinstance(action, FourthDown) and self.offense
            if action.choice == "punt":
                events.append(ev("punt", "CF-FOURTH-DOWN", "{team} punts: {other} starts at its square {n}",
                                 team=self.offense, other=other(self.offense), n=self.rules.drive_start_square,
                                 also=["CF-R-FOURTH"]))
                events.append(ev("turnover", "CF-TURNOVERS", "turnover: punt", how="punt", also=["CF-R-POSSESSION-END"]))
                self.last = {"kind": "punt", "team": self.offense}
                self._end_possession(other(self.offense), None, events)
            else:
                events.append(ev("go_for_it", "CF-FOURTH-DOWN", "{team} goes for it on 4th down", team=self.offense,
                                 also=["CF-R-FOURTH"]))
                self.phase = SNAP
        elif p == SNAP:
            picks = self._lock(seat, action, events, ev("locked", "CF-SNAP", "{seat} has locked its snap plan", seat=seat, also=["CF-PLAN"]))
            if picks is None:
                return events
            self._run_snap(picks, events)
        elif p in (OFFENSE_TURN, DEFENSE_TURN):
            self._turn_action(seat, action, plan, events)
        return events

    # ------------------------------------------------------------ the down
    def _start_drive(self, team: str, row: int | None, events: list[Event]) -> None:
        r = self.rules
        self.offense = team
        self.poss_used[team] += 1
        self.drives += 1
        self.down = 1
        self.los = row if row is not None else self.square_row(team, r.drive_start_square)
        self.fdl = self.los + self.direction(team) * r.first_down_squares
        also = ["CF-POSSESSIONS", "CF-SIDES", "CF-R-ENDS", *(["CF-R-SQUARE8"] if row is None else ["CF-R-SPOT"])]
        events.append(ev("drive_start", "CF-DRIVE-START" if row is None else "CF-FOURTH-DOWN",
                         "{team} ball ({period}, possession {n} of {q}): 1st & {togo} from row {row} (its square {square})",
                         team=team, period=self.period_name, n=self.poss_used[team], q=self.quota(),
                         togo=r.first_down_squares, row=self.los, square=self.yard_square(team, self.los), also=also))
        self._start_down(events)

    def _lineup(self) -> tuple[dict[str, Piece], str]:
        """Both teams set in their line-ups at the line of scrimmage (CF-R-LINEUP, CF-R-SPOT)."""
        r = self.rules
        off, de = self.offense, self.defense
        assert off and de
        d = self.direction(off)
        pieces: dict[str, Piece] = {}
        carrier = ""
        for side, team, lineup, role in (
            ("offense", off, r.offense_lineup, self.captains[off][0]),
            ("defense", de, r.defense_lineup, self.captains[de][1]),
        ):
            sign = -d if side == "offense" else d
            for s in lineup:
                row = self.los + sign * s.depth
                col = ord(s.column.upper()) - ord("A")
                pieces[s.id] = Piece(s.id, team, side, s.kind, None, (col, row), s.position)
                if side == "offense" and s.kind == "qb" and not carrier:
                    carrier = s.id
            c = r.captains[role]
            slot = r.captain_slots[role]
            row = self.los + sign * slot.depth
            pieces[c.code] = Piece(c.code, team, side, c.base, role, (ord(slot.column.upper()) - ord("A"), row), slot.position)
        return pieces, carrier

    def _start_down(self, events: list[Event]) -> None:
        assert self.offense and self.defense
        self.snap_no += 1
        pieces, carrier = self._lineup()
        self.field = Field(
            self.rules, offense=self.offense, defense=self.defense, off_dir=self.direction(self.offense),
            los=self.los, fdl=self.fdl, pieces=pieces, carrier=carrier, snap_no=self.snap_no,
            last_used=self.last_used, draw=self.draw,
        )
        self.field.events = events
        togo = "goal" if self.goal_to_go() else str(self.to_go())
        also = ["CF-LOS", "CF-TEAM", "CF-R-LINEUP", "CF-R-SNAP-BALL", *(["CF-R-GOAL-TO-GO"] if self.goal_to_go() else [])]
        events.append(ev("down", "CF-FIRST-DOWN", "{down} & {togo} at row {los} ({team} ball)",
                         down=ordinal(self.down), togo=togo, los=self.los, team=self.offense, also=also))
        self.phase = FOURTH_DOWN if self.down in self.rules.punt_downs else SNAP

    def _run_snap(self, picks: dict[str, Action], events: list[Event]) -> None:
        f = self.field
        assert f is not None and self.offense and self.defense
        f.events = events
        off, de = picks[self.offense], picks[self.defense]
        assert isinstance(off, Plan) and isinstance(de, Plan)
        self.last = {"kind": "snap", self.offense: off.public_text(), self.defense: de.public_text()}
        abilities = any(isinstance(row, Ability) for row in (*off.rows, *de.rows))
        events.append(ev("plans", "CF-SNAP", "the snap - {offense}: {oplan} | {defense}: {dplan}",
                         offense=self.offense, oplan=off.public_text(), defense=self.defense, dplan=de.public_text(),
                         also=["CF-PLAN", *(["CF-R-ABILITY-ORDER"] if abilities else [])]))
        for team, plan in ((self.offense, off), (self.defense, de)):
            f.start_phase(team)
            for n, row in enumerate(plan.rows, start=1):
                if f.result is not None:
                    break
                resolution.exec_row(f, team, row, n)
            if f.result is not None:
                break
        passing.ball_step(f)
        self._end_turn(events)

    def _turn_action(self, seat: str, action: Action, plan: Any, events: list[Event]) -> None:
        f = self.field
        assert f is not None
        f.events = events
        if isinstance(action, Done):
            if self.phase == OFFENSE_TURN:
                assert self.defense
                events.append(ev("done", "CF-REACTION", "{team} is done; {other} moves", team=seat, other=self.defense))
                f.start_phase(self.defense)
                self.phase = DEFENSE_TURN
            else:
                events.append(ev("done", "CF-REACTION", "{team} is done; the ball moves", team=seat))
                passing.ball_step(f)
                self._end_turn(events)
            return
        resolution.apply(f, seat, action, plan)
        if f.result is not None:
            self._end_down(events)

    def _end_turn(self, events: list[Event]) -> None:
        f = self.field
        assert f is not None and self.offense
        if f.result is None:
            f.turn += 1
            if f.turn > self.rules.max_turns_per_down:
                f.turn -= 1
                resolution.whistle(f)
            else:
                f.start_phase(self.offense)
                self.phase = OFFENSE_TURN
                events.append(ev("turn", "CF-REACTION", "turn {n} of {m}: {team} moves", n=f.turn,
                                 m=self.rules.max_turns_per_down, team=self.offense))
                return
        self._end_down(events)

    def _end_down(self, events: list[Event]) -> None:
        f = self.field
        assert f is not None and f.result is not None and self.offense and self.defense
        r = self.rules
        res = f.result
        kind = res.kind
        off, de = self.offense, self.defense
        self.last = {**self.last, "down_result": kind.value}
        if kind == DownEnd.TOUCHDOWN:
            self.score[off] += r.touchdown_points
            events.append(ev("score", "CF-TOUCHDOWN", "{team} +{n}: {home} {hs} - {as_} {away}", team=off,
                             n=r.touchdown_points, home=HOME, hs=self.score[HOME], as_=self.score[AWAY], away=AWAY,
                             also=["CF-R-POSSESSION-END"]))
            self._end_possession(de, None, events)
        elif kind == DownEnd.SAFETY:
            self.score[de] += r.safety_points
            events.append(ev("score", "CF-SAFETY", "{team} +{n}: {home} {hs} - {as_} {away}", team=de,
                             n=r.safety_points, home=HOME, hs=self.score[HOME], as_=self.score[AWAY], away=AWAY))
            events.append(ev("turnover", "CF-R-SAFETY-RESTART", "after the safety {team} takes over at its square {n}",
                             team=de, n=r.drive_start_square, how="safety", also=["CF-TURNOVERS", "CF-R-POSSESSION-END"]))
            self._end_possession(de, None, events)
        elif kind == DownEnd.INTERCEPTION:
            events.append(ev("turnover", "CF-R-INTERCEPT-SPOT", "turnover: interception - {team} takes over at its square {n}",
                             team=de, n=r.drive_start_square, how="interception", also=["CF-TURNOVERS", "CF-R-POSSESSION-END"]))
            self._end_possession(de, None, events)
        else:
            row = self.los if kind == DownEnd.INCOMPLETE or res.spot is None else res.spot[1]
            self._spot(row, events)

    def _spot(self, row: int, events: list[Event]) -> None:
        assert self.offense and self.defense
        r = self.rules
        d = self.direction(self.offense)
        gained = (row - self.los) * d
        if (row - self.fdl) * d >= 0:
            events.append(ev("first_down", "CF-FIRST-DOWN", "first down! ({gained:+d} rows; ball on row {row})", gained=gained, row=row,
                             also=["CF-R-SPOT"]))
            self.down = 1
            self.los = row
            self.fdl = row + d * r.first_down_squares
            self._start_down(events)
            return
        self.down += 1
        if self.down > r.downs:
            events.append(ev("turnover", "CF-FOURTH-DOWN", "turnover on downs: {team} takes over on row {row}",
                             team=self.defense, row=row, how="downs", also=["CF-TURNOVERS", "CF-R-POSSESSION-END"]))
            self._end_possession(self.defense, row, events)
            return
        events.append(ev("spot", "CF-LOS", "ball spotted on row {row} ({gained:+d} rows)", row=row, gained=gained,
                         also=["CF-R-SPOT"]))
        self.los = row
        self._start_down(events)

    def _end_possession(self, nxt: str, row: int | None, events: list[Event]) -> None:
        """A possession ended by a score or a turnover (CF-R-POSSESSION-END); next drive or period end."""
        if self.poss_used[nxt] < self.quota():
            self._start_drive(nxt, row, events)
            return
        self._end_period(events)

    def _end_period(self, events: list[Event]) -> None:
        r = self.rules
        assert self.toss_winner
        hs, as_ = self.score[HOME], self.score[AWAY]
        if self.period == 1:
            self.period = 2
            self.poss_used = {HOME: 0, AWAY: 0}
            first = other(self.toss_winner)
            events.append(ev("halftime", "CF-R-HALF2", "halftime ({home} {hs} - {as_} {away}): {first} has the first possession",
                             home=HOME, hs=hs, as_=as_, away=AWAY, first=first, also=["CF-POSSESSIONS", "CF-R-POSSESSION-END"]))
            self._start_drive(first, None, events)
            return
        if hs != as_:
            winner = HOME if hs > as_ else AWAY
            rule = "CF-WIN" if self.period == 2 else "CF-OVERTIME"
            self._finish(Outcome(winner, "more points" if self.period == 2 else "more points after overtime", rule,
                                 dict(self.score)), events)
            return
        if self.period - 2 < r.overtime_periods:
            self.period += 1
            self.poss_used = {HOME: 0, AWAY: 0}
            first = self.toss_winner if (self.period - 2) % 2 == 1 else other(self.toss_winner)
            events.append(ev("overtime", "CF-OVERTIME", "tied {hs}-{as_}: overtime, {n} possession each; {first} first",
                             hs=hs, as_=as_, n=r.overtime_possessions, first=first,
                             also=["CF-R-HALF2", "CF-POSSESSIONS", "CF-R-POSSESSION-END"]))
            self._start_drive(first, None, events)
            return
        why = "tied after overtime" if self.period > 2 else "tied after regulation, no overtime in this ruleset"
        self._finish(Outcome(None, why, "CF-R-OT-TIE", dict(self.score)), events)

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self.outcome = outcome
        self.phase = GAME_OVER
        self.pending.clear()
        events.append(ev("game_over", outcome.rule, "game over: {result}", result=str(outcome),
                         also=["CF-POSSESSIONS", "CF-R-POSSESSION-END"]))

    # --------------------------------------------------------------- views
    def sees_ball(self, seat: str | None) -> bool:
        """May ``seat`` know who holds the ball?  Under play action only the offense may."""
        f = self.field
        return f is None or not f.hidden or (seat is not None and seat == self.offense)

    def snapshot(self) -> dict[str, Any]:
        """Everything, including secret pending choices and the hidden ball (never shown to a seat)."""
        out = self._public(True)
        out["pending"] = {s: str(a) for s, a in self.pending.items()}
        return out

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see: the other side's pending choice only as 'locked', the
        hidden ball only to the offense."""
        out = self._public(self.sees_ball(seat))
        out["pending"] = {s: (str(a) if s == seat else "locked") for s, a in self.pending.items()}
        return out

    def ball_view(self, seat: str | None) -> dict[str, Any] | None:
        """The ball as ``seat`` may see it (``view(seat)["ball"]``), without building the rest of the view."""
        return self._ball(self.sees_ball(seat))

    def _ball(self, knows: bool) -> dict[str, Any] | None:
        f = self.field
        if f is None or (self.outcome is not None and f.result is None):
            return None
        if f.hidden and f.pair and not knows:
            return {"hidden": True, "candidates": list(f.pair)}
        c = f.pieces.get(f.carrier)
        if c is None:
            return None
        out: dict[str, Any] = {"carrier": c.id, "square": sq(c.sq), "position": c.pos}
        if f.hidden and f.pair:
            out["hidden"] = True
            out["candidates"] = list(f.pair)
        return out

    def _public(self, knows: bool) -> dict[str, Any]:
        f = self.field
        pieces: list[dict[str, Any]] = []
        if f is not None:
            for p in sorted(f.pieces.values(), key=lambda q: (q.team != self.offense, f.rank(q), q.id)):
                entry: dict[str, Any] = {"id": p.id, "team": p.team, "kind": p.kind_name, "square": sq(p.sq), "position": p.pos}
                if f.acting == p.team and self.phase in (OFFENSE_TURN, DEFENSE_TURN):
                    entry["movement_left"] = f.mp.get(p.id, 0)
                flags = f.flags(p)
                if flags:
                    entry["flags"] = flags
                pieces.append(entry)
        return {
            "phase": self.phase.value,
            "period": self.period_name,
            "possessions": dict(self.poss_used),
            "possessions_per_team": self.quota() if self.period else self.rules.possessions_per_half,
            "score": dict(self.score),
            "offense": self.offense,
            "defense": self.defense,
            "attacking": {HOME: f"rows {self.rules.high_goal}-{self.rules.rows}", AWAY: f"rows 1-{self.rules.low_goal}"},
            "down": self.down if self.offense else None,
            "to_go": ("goal" if self.goal_to_go() else self.to_go()) if self.offense else None,
            "line_of_scrimmage": self.los if self.offense else None,
            "first_down_line": self.fdl if self.offense and not self.goal_to_go() else None,
            "turn": f.turn if f is not None and self.phase in (SNAP, OFFENSE_TURN, DEFENSE_TURN) else None,
            "max_turns": self.rules.max_turns_per_down,
            "pass_declared": ({"passer": f.pass_decl[0], "receiver": f.pass_decl[1]} if f is not None and f.pass_decl else None),
            "ball": self._ball(knows),
            "pieces": pieces,
            "captains": {s: {"offense": c[0], "defense": c[1]} for s, c in self.captains.items()},
            "toss_winner": self.toss_winner,
            "to_act": list(self.to_act()),
            "last": dict(self.last),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def clone(self) -> ChessFootballState:
        """An independent copy (the search bot's): the down's field copied by :meth:`Field.clone` (its
        geometry shared), drawing its chance from the copy's own generator; the rest deep-copied."""
        from gm.core.search import deep_clone

        copied: dict[int, Any] = {}
        f, twin = self.field, None
        if f is not None:
            twin = f.clone(sim=f.sim)
            twin.events = list(f.events)
            copied[id(f)] = twin
            copied[id(f.last_used)] = twin.last_used
        out = cast(ChessFootballState, deep_clone(self, copied))
        if twin is not None and twin.draw is not None:
            twin.draw = out.draw  # the copy's chance is its own: never the real game's generator
        return out

    def secret_moves(self) -> set[int]:
        """While the ball is hidden: the log indices of this down's play action and ball choices
        that name the secret holder (the defense reads them without it until the reveal)."""
        f = self.field
        if f is None or not f.hidden or self.outcome is not None:
            return set()
        out: set[int] = set()
        for i in range(len(self.log) - 1, -1, -1):
            a = self.log[i].action
            if isinstance(a, Plan):  # the snap of this down: nothing earlier is secret
                break
            if isinstance(a, PlayAction | BallChoice) and a.public_text() != str(a):
                out.add(i)
        return out

    # ------------------------------------------------------------ reading text
    def parse_action(self, text: str) -> Action:
        """The game's parser, in context: at the snap a lone piece action (``FA1 to C16``) or
        several joined by commas, ``and`` or ``then`` are the rows of a snap plan (nothing
        else can be done at the snap); in a reaction turn ``hold`` is ``done``."""
        try:
            action = self.game.parse_action(text)
        except InvalidActionError:
            rows = split_rows(text)
            if len(rows) < 2:
                raise
            if self.phase == SNAP:
                return Plan(tuple(rows))
            then = "', then '".join(str(r) for r in rows)
            raise InvalidActionError(f"one action at a time in a reaction turn: '{then}'", rule="CF-SYNTAX", input=text,
                                     legal=[str(r) for r in rows]) from None
        if self.phase == SNAP and isinstance(action, PieceAction):
            return Plan((action,))
        if (self.phase in (OFFENSE_TURN, DEFENSE_TURN) and isinstance(action, Plan) and not action.rows
                and not text.strip().lower().startswith("plan")):
            return Done()  # 'hold' in a reaction turn: nobody else moves (a plan, 'plan: hold', is no turn action)
        return action

    # ------------------------------------------------------------ for bots/tools
    def public_log(self, seat: str | None) -> list[list[str]]:
        """The action log as ``seat`` may read it: another seat's pick still locked shows as ``locked``, a
        hidden ball's holder is left out."""
        locked = {max(i for i, m in enumerate(self.log) if m.seat == s) for s in self.pending if s != seat}
        return [[m.seat, "locked" if i in locked else str(m.action) if m.seat == seat else public_text(m.action)]
                for i, m in enumerate(self.log)]


__all__ = [
    "AWAY",
    "DECISIONS",
    "HOME",
    "SEATS",
    "BallChoice",
    "ChessFootballState",
    "PieceAction",
    "col_letter",
    "other",
    "parse_square",
]
