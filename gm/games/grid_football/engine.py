"""The Turn-Based Grid Football rules engine.

Phases: coin toss call -> kick/receive choice -> kickoff picks (simultaneous)
-> [return number check] -> downs: play calls (simultaneous) -> [colour-match
number check] ... -> halftime choice -> kickoff ... -> game over.

Squares are ``(column index, row)`` with column 0 = ``A`` and rows 1..64.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from typing import Any, cast

from gm.core.actions import Action
from gm.core.chance import Coin
from gm.core.errors import IllegalActionError
from gm.core.events import Event, make_event
from gm.core.outcome import Outcome
from gm.core.state import GameState
from gm.core.wording import ordinal
from gm.games.grid_football.actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt
from gm.games.grid_football.movement import (
    KickOutcome,
    Match,
    Movement,
    PlayOutcome,
    Stop,
    kick_column,
    kick_return,
    match_of,
    resolve_play,
)
from gm.games.grid_football.ruleids import RULES
from gm.games.grid_football.rules import KICK_COLOURS, PLAY_COLOURS, POSITIONS, GridFootballRules

Square = tuple[int, int]
# alike on purpose: every game's engine declares its seats and its phases and decisions as enums of this
# shape; each names its own game's (the tools, the page and the bots read them)
HOME, AWAY = "home", "away"
SEATS = (HOME, AWAY)


class Phase(StrEnum):
    """The phases of a game (the value is what views and texts show)."""

    COIN_TOSS = "coin_toss"
    KICK_CHOICE = "kick_choice"
    KICKOFF = "kickoff"
    RETURN_NUMBER = "return_number"
    PLAY = "play"
    PUNT = "punt"
    NUMBER_CHECK = "number_check"
    HALFTIME_CHOICE = "halftime_choice"
    GAME_OVER = "game_over"


class Decision(StrEnum):
    """The kinds of decision a seat makes (the tool layer maps them to tools)."""

    COIN_CALL = "coin_call"
    KICK_CHOICE = "kick_choice"
    KICK_PICK = "kick_pick"
    NUMBER_PICK = "number_pick"
    PLAY_CALL = "play_call"


COIN_TOSS = Phase.COIN_TOSS
KICK_CHOICE = Phase.KICK_CHOICE
KICKOFF = Phase.KICKOFF
RETURN_NUMBER = Phase.RETURN_NUMBER
PLAY = Phase.PLAY
PUNT = Phase.PUNT
NUMBER_CHECK = Phase.NUMBER_CHECK
HALFTIME_CHOICE = Phase.HALFTIME_CHOICE
GAME_OVER = Phase.GAME_OVER
SIMULTANEOUS = frozenset({KICKOFF, RETURN_NUMBER, PLAY, PUNT, NUMBER_CHECK})

#: what each phase asks a seat to decide
DECISIONS: dict[Phase, Decision] = {
    COIN_TOSS: Decision.COIN_CALL,
    KICK_CHOICE: Decision.KICK_CHOICE,
    HALFTIME_CHOICE: Decision.KICK_CHOICE,
    KICKOFF: Decision.KICK_PICK,
    PUNT: Decision.KICK_PICK,
    RETURN_NUMBER: Decision.NUMBER_PICK,
    NUMBER_CHECK: Decision.NUMBER_PICK,
    PLAY: Decision.PLAY_CALL,
}


def other(seat: str) -> str:
    return AWAY if seat == HOME else HOME


def col_letter(col: int) -> str:
    return chr(ord("A") + col)


_SQ: dict[Square, str] = {}


def sq(square: Square | None) -> str:
    """``(10, 20)`` -> ``"K20"``."""
    if square is None:
        return "-"
    text = _SQ.get(square)
    if text is None:
        text = f"{col_letter(square[0])}{square[1]}"
        if len(_SQ) < 4096:
            _SQ[square] = text
    return text


def parse_square(text: str) -> Square:
    """``"K20"`` -> ``(10, 20)`` (no bounds check)."""
    t = text.strip().upper()
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise ValueError(f"not a square: {text!r}")
    return ord(t[0]) - ord("A"), int(t[1:])


def plural(n: int, word: str) -> str:
    """``word`` for one, ``word + "s"`` for any other number."""
    return word if n == 1 else word + "s"


_event = make_event


def _ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    return _event(kind, rule, template, data)


# enum members as plain globals (an enum class attribute costs several times a global lookup)
_TD, _INCOMPLETE, _BLOCKED, _EDGE, _OWN_END_ZONE = Stop.TD, Stop.INCOMPLETE, Stop.BLOCKED, Stop.EDGE, Stop.OWN_END_ZONE
_M_PLAY, _M_COLOUR = Match.PLAY, Match.COLOUR


class GridFootballState(GameState[GridFootballRules]):
    """State of one game of Turn-Based Grid Football."""


    # ----------------------------------------------------------------- setup
    def _setup(self) -> None:
        r = self.rules
        self.phase = COIN_TOSS
        self.toss_winner: str | None = None
        self.up_team = HOME  # GF-R-ENDS: home attacks toward the high rows in Q1
        self.offense: str | None = None
        self.kicker: str | None = None
        self.ball: Square | None = None
        #: the squares the ball last went through (a play's legs, a kick's landing and return), for drawing
        self.ball_path: tuple[Square, ...] = ()
        self.blocked: set[Square] = set()
        self.down = 0
        self.los = 0
        self.to_gain = 0
        self.quarter = 1
        self.quarter_downs = 0
        self.score = {HOME: 0, AWAY: 0}
        self.pending: dict[str, Action] = {}
        self.touchdowns = 0
        # the last revealed picks and result, kept raw; ``last`` builds the dict on demand
        self._last_kind: str | None = None
        self._last_picks: tuple[tuple[str, Action], ...] = ()
        self._last_result: tuple[str, Any] = ("", None)
        self._last_numbers: dict[str, int] | None = None
        # derived from the (immutable) ruleset once: the hot paths read these
        self._kick_cols: dict[str, int] = {p: kick_column(r, p) for p in POSITIONS}
        self._unlocked_q1 = sorted(n for n, s in r.plays.items() if s.unlock_quarter <= 1)
        self._plays = dict(r.plays)
        self._play_rule = {n: f"GF-PLAY-{n}" if f"GF-PLAY-{n}" in RULES else "GF-LOCK" for n in r.plays}
        self._punt_downs = frozenset(r.punt_downs)
        # speed seam: legal-plays - the play calls open in a situation listed once and kept with the state (a clone starts
        # without them): default-vs-random play 8% faster
        self._legal_plays: dict[tuple[int, bool, bool], _Listed] = {}

    # --------------------------------------------------------------- helpers
    def direction(self, seat: str) -> int:
        """+1 if ``seat`` attacks toward the high rows now, else -1."""
        return 1 if seat == self.up_team else -1

    @property
    def defense(self) -> str | None:
        return other(self.offense) if self.offense else None

    @property
    def last(self) -> dict[str, Any]:
        """The last revealed picks (text forms by seat) with their result and any number check."""
        if self._last_kind is None:
            return {}
        out: dict[str, Any] = {"kind": self._last_kind}
        for seat, action in self._last_picks:
            out[seat] = str(action)
        key, value = self._last_result
        out[key] = value
        if self._last_numbers is not None:
            out["numbers"] = dict(self._last_numbers)
        return out

    def _reveal(self, kind: str, picks: tuple[tuple[str, Action], ...], result: tuple[str, Any]) -> None:
        self._last_kind, self._last_picks, self._last_result, self._last_numbers = kind, picks, result, None

    def in_opp_end_zone(self, row: int, d: int) -> bool:
        return row >= self.rules.high_goal_line if d > 0 else row <= self.rules.low_goal_line

    def own_goal_line(self, d: int) -> int:
        return self.rules.low_goal_line if d > 0 else self.rules.high_goal_line

    def plays_open(self) -> list[int]:
        if self.quarter <= 1:
            return self._unlocked_q1
        return sorted(n for n, s in self.rules.plays.items() if s.unlock_quarter <= self.quarter)

    def decision(self, seat: str) -> Decision | None:
        """The kind of decision ``seat`` must make now (``None``: nothing)."""
        if seat not in self.to_act():
            return None
        return DECISIONS.get(self.phase)

    def pending_seats(self) -> tuple[str, ...]:
        """The seats that have locked in a secret pick not yet revealed (who, never what)."""
        return tuple(s for s in SEATS if s in self.pending)

    @property
    def downs_left_in_quarter(self) -> int:
        return self.rules.downs_per_quarter - self.quarter_downs

    def goal_to_go(self) -> bool:
        """Whether the series' line to gain lies in the opponent's end zone (``& goal``)."""
        return self.offense is not None and self.in_opp_end_zone(self.to_gain, self.direction(self.offense))

    def to_go(self) -> int | str | None:
        """The distance of the series' down: ``"goal"`` when the line to gain lies in the end zone,
        else the rows from the line of scrimmage to the line to gain (during a colour-match number
        check: from the snap the down started at).  ``None`` without a series."""
        offense = self.offense
        if offense is None:
            return None
        d = 1 if offense == self.up_team else -1
        if self.in_opp_end_zone(self.to_gain, d):
            return "goal"
        return (self.to_gain - self.los) * d

    def down_and_distance(self) -> str | None:
        """``2nd & 7`` or ``1st & goal``: the one statement of down and distance that every text
        (events, status line, board, exported documents) uses.  ``None`` without a series."""
        togo = self.to_go()
        return None if togo is None else f"{ordinal(self.down)} & {togo}"

    # ------------------------------------------------------------ turn model
    def _to_act(self) -> tuple[str, ...]:
        p = self.phase
        if p in SIMULTANEOUS:
            pending = self.pending
            if not pending:
                return SEATS
            if len(pending) == 1:
                return _AWAY_ONLY if HOME in pending else _HOME_ONLY
            return ()
        if p == COIN_TOSS:
            return (self.rules.toss_caller,)
        if p == KICK_CHOICE:
            assert self.toss_winner
            return (self.toss_winner,)
        if p == HALFTIME_CHOICE:
            assert self.toss_winner
            return (other(self.toss_winner),)
        return ()

    def _legal(self, seat: str) -> Iterable[Action]:
        return self._legal_pair(seat)[0]

    def action_kinds(self, seat: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """The kinds of action open to ``seat``: those of its listed legal actions, worked out once per
        listing (the listings are cached per situation)."""
        if seat not in self.to_act():
            return set()
        acts = self._legal_pair(seat)[0]
        hit = _KINDS.get(id(acts))
        if hit is None or hit[0] is not acts:
            if len(_KINDS) > 1024:
                _KINDS.clear()
            hit = _KINDS[id(acts)] = (acts, frozenset(a.type for a in acts))
        return set(hit[1])

    def _legal_pair(self, seat: str) -> _Listed:
        """Every legal action of ``seat`` now, listed and as a set (both cached per situation):
        the listing is the statement of what is legal, and the check tests membership in it."""
        p = self.phase
        if p == PLAY:
            offense = seat == self.offense
            key = (self.quarter, offense, offense and self.down in self._punt_downs)
            calls = self._legal_plays.get(key)
            if calls is None:
                plays = tuple(self.plays_open())
                caps = tuple(self._plays[n].wrong.lateral if offense else 0 for n in plays)
                calls = self._legal_plays[key] = _play_calls(plays, caps, offense, key[2])
            return calls
        if p in _NUMBER_PHASES:
            return _number_picks(self.rules.number_max)
        if p in _KICK_PHASES:
            return _KICK_PICKS
        if p == COIN_TOSS:
            return _COIN_CALLS
        if p in (KICK_CHOICE, HALFTIME_CHOICE):
            return _KICK_CHOICES
        return _NOTHING

    def _illegal(self, rule: str, reason: str, action: Action, seat: str) -> IllegalActionError:
        legal = [str(a) for a in self._legal(seat)]
        if len(legal) > 24:
            legal = self.legal_summary(seat)
        return IllegalActionError(reason, rule=rule, input=str(action), legal=legal)

    def legal_summary(self, seat: str) -> list[str]:
        """The seat's options in short: play calls in words (the full list runs to ~100 lateral
        variants), else the whole list."""
        if self.phase != PLAY or seat not in self.to_act():
            return super().legal_summary(seat)
        plays = self.plays_open()
        out = [f"play {n} red|black" for n in plays]
        if seat == self.offense:
            caps = ", ".join(f"play {n} up to {self.rules.plays[n].wrong.lateral}" for n in plays)
            out.append(f"lateral N left|right before|after ({caps})")
            if self.down in self.rules.punt_downs:
                out.append("punt")
        return out

    def _check(self, seat: str, action: Action) -> Any:
        """Legal iff listed (membership in the cached legal set); the plan is what the pick
        resolves, when it completes a simultaneous pair.  Anything else is explained by the
        rule it breaks (:meth:`_rule_error`)."""
        if action in self._legal_pair(seat)[1]:
            return self._plan(seat, action) if self.pending else None
        raise self._rule_error(seat, action) or self._illegal(
            _PHASE_RULE[self.phase], "not a legal action now", action, seat
        )

    def _plan(self, seat: str, action: Action) -> PlayOutcome | tuple[int, KickOutcome] | None:
        """What a legal pick resolves: for the second pick of a play, the down's outcome; for the
        second kick pick, the matches and the kick; else nothing (``None``).  Pure."""
        p = self.phase
        pending = self.pending
        if not pending or p not in SIMULTANEOUS:
            return None
        theirs = pending[AWAY if seat == HOME else HOME]
        if p == PLAY:
            if type(action) is not PlayCall:
                return None  # a punt: resolved at once, the defense's call is void
            offense = self.offense
            ball = self.ball
            assert offense is not None and ball is not None and isinstance(theirs, PlayCall)
            off, de = (action, theirs) if seat == offense else (theirs, action)
            return resolve_play(self.rules, self.blocked, ball, 1 if offense == self.up_team else -1, off, match_of(off, de))
        if p in _KICK_PHASES:
            kicker = self.kicker
            assert kicker is not None and isinstance(action, KickPick) and isinstance(theirs, KickPick)
            k, rcv = (action, theirs) if seat == kicker else (theirs, action)
            matches = (k.position == rcv.position) + (k.colour == rcv.colour)
            punt_from = None
            if p == PUNT:
                assert self.ball is not None
                punt_from = self.ball[1]
            col = self._kick_cols[k.position]
            return matches, kick_return(self.rules, self.blocked, self.direction(kicker), col, self.rules.return_steps[matches], punt_from)
        return None

    def _rule_error(self, seat: str, action: Action) -> IllegalActionError | None:
        """The rule ``action`` breaks now, as an error with the legal alternatives; ``None`` if no
        rule forbids it (then it is in the legal listing: a test checks the two agree)."""
        p = self.phase
        expected = DECISIONS.get(p)
        if action.type != expected and not (p == PLAY and isinstance(action, Punt)):
            said = (action.type if not isinstance(action, Punt) else "punt").replace("_", " ")
            due = f"a {expected.replace('_', ' ')}" if expected else "nothing"
            return self._illegal("GF-R-DECISION", f"now is the time for {due}, not a {said}", action, seat)
        if isinstance(action, NumberPick) and not 1 <= action.number <= self.rules.number_max:
            return IllegalActionError(
                f"numbers are picked from 1 to {self.rules.number_max}",
                rule="GF-R-NUMBER",
                input=str(action),
                legal=[f"number 1..{self.rules.number_max}"],
            )
        if isinstance(action, Punt):
            if seat != self.offense:
                return self._illegal("GF-DOWNS", "only the offense may punt", action, seat)
            if self.down not in self.rules.punt_downs:
                downs = ", ".join(ordinal(d) for d in self.rules.punt_downs)
                return self._illegal("GF-R-PUNT", f"a punt is allowed only on {downs} down; it is {ordinal(self.down)} down", action, seat)
        if isinstance(action, PlayCall):
            spec = self.rules.plays.get(action.play)
            if spec is None:
                return self._illegal("GF-LOCK", f"there is no play {action.play}", action, seat)
            if spec.unlock_quarter > self.quarter:
                rule = "GF-PLAY4-LOCK" if action.play == 4 else "GF-LOCK"
                return self._illegal(rule, f"play {action.play} is locked until quarter {spec.unlock_quarter}", action, seat)
            if seat != self.offense and action.has_intent:
                return self._illegal(
                    "GF-R-DEFENSE-CALL", "the defense calls only a play and a colour, no movement intent", action, seat
                )
            if action.lateral > spec.wrong.lateral:
                cap = spec.wrong.lateral
                what = f"up to {cap} lateral" if cap else "no lateral"
                return self._illegal("GF-R-LATERAL-CAP", f"play {action.play} allows {what}", action, seat)
        return None

    # ------------------------------------------------------------------ apply
    def _apply(self, seat: str, action: Action, plan: Any) -> list[Event]:
        events: list[Event] = []
        p = self.phase
        if p in SIMULTANEOUS:
            pending = self.pending
            pending[seat] = action
            if p == PLAY and isinstance(action, Punt):
                void = sorted(s for s in pending if s != seat)
                pending.clear()  # the defense's call (if any) is void and never revealed
                events.append(_ev("punt_called", "GF-R-PUNT", "{offense} will punt", offense=seat, void=void, also=["GF-DOWNS"]))
                self.kicker = seat
                self.phase = PUNT
            elif len(pending) < 2:
                events.append(_event("locked", "GF-LOCK", "{seat} is locked in", {"seat": seat}))
            else:
                self.pending = {}
                if p == PLAY:
                    self._resolve_play(pending, plan, events)
                elif p == NUMBER_CHECK:
                    self._resolve_number_check(pending, events)
                elif p == RETURN_NUMBER:
                    self._resolve_return_number(pending, events)
                else:
                    self._resolve_kick(pending, plan, events)
        elif p == COIN_TOSS:
            assert isinstance(action, CoinCall)
            flip = self.draw(Coin("coin toss"))
            self.toss_winner = seat if flip == action.call else other(seat)
            events.append(
                _ev("coin_toss", "GF-TOSS", "{caller} calls {call}; the coin shows {flip}: {winner} wins the toss",
                    caller=seat, call=action.call, flip=flip, winner=self.toss_winner, also=["GF-R-TOSS-CALL"])
            )
            self.phase = KICK_CHOICE
        else:
            assert isinstance(action, KickChoice) and p in (KICK_CHOICE, HALFTIME_CHOICE)
            self.kicker = seat if action.choice == "kick" else other(seat)
            rule = "GF-TOSS" if p == KICK_CHOICE else "GF-TOSS-2H"
            events.append(_ev("kick_choice", rule, "{seat} chooses to {choice}: {kicker} kicks off",
                              seat=seat, choice=action.choice, kicker=self.kicker))
            self._start_kick(events)
        return events

    # ------------------------------------------------------------------ kicks
    def _start_kick(self, events: list[Event]) -> None:
        self.phase = KICKOFF
        self.offense = None
        self.ball = None
        self.down = 0

    def _resolve_kick(self, picks: dict[str, Action], plan: tuple[int, KickOutcome], events: list[Event]) -> None:
        r = self.rules
        kicker = self.kicker
        assert kicker is not None
        receiver = other(kicker)
        k, rcv = picks[kicker], picks[receiver]
        matches, ko = plan
        punt = self.phase == PUNT
        self._reveal("punt" if punt else "kickoff", ((kicker, k), (receiver, rcv)), ("matches", matches))
        events.append(
            _ev("kick", "GF-R-PUNT" if punt else "GF-KICK-DIST",
                "{kicker} {how} from row {start}: the ball comes down at {spot}",
                kicker=kicker, how="punts" if punt else "kicks off", start=ko.start_row, spot=sq(ko.spot),
                also=[
                    "GF-BOARD", "GF-R-ENDS", "GF-R-END-ZONE", "GF-R-KICK-COLUMN",
                    *(["GF-R-KICK-LANDING"] if ko.spot in self.blocked else []),
                ])
        )
        events.append(
            _ev("kick_reveal", "GF-KICK-PICK",
                "Kick picks: {kicker} {kpick}, {receiver} {rpick} - {matches} match(es), return {steps} steps",
                kicker=kicker, kpick=str(k), receiver=receiver, rpick=str(rcv), matches=matches, steps=ko.steps)
        )
        if ko.touchdown:
            self._touchdown(receiver, "kick return", ko.end, events)
            return
        if ko.blocked_at is not None:
            events.append(_ev("stopped", "GF-R-KICK-GROUND", "the return is stopped by a blocked square at {at}",
                              at=sq(ko.blocked_at)))
        if ko.touchback:
            events.append(_ev("touchback", "GF-R-TOUCHBACK", "the return ends in the end zone: ball placed at {at}", at=sq(ko.end)))
        events.append(_ev("kick_return", "GF-KICK-RETURN", "{receiver} returns the ball to {at}", receiver=receiver, at=sq(ko.end),
                          also=["GF-R-KICK-GROUND", "GF-R-KICK-SQUARE", "GF-R-NEW-SERIES"]))
        self.ball = ko.end
        self.ball_path = (ko.spot, ko.end)
        if matches == 0:
            self.offense, self.down = None, 0  # after a punt too: the punting team's series is over
            self.phase = RETURN_NUMBER
            events.append(_ev("number_check", "GF-KICK-NUMBER",
                              "no matches: number check 1-{n} - a match is a return touchdown", n=r.number_max))
            return
        self._after_kick(receiver, events)

    def _after_kick(self, receiver: str, events: list[Event]) -> None:
        was_punt = self.phase == PUNT or (self.phase == RETURN_NUMBER and self._last_kind == "punt")
        self._new_series(receiver, events)
        if was_punt:
            self._count_down(events)

    def _resolve_return_number(self, picks: dict[str, Action], events: list[Event]) -> None:
        kicker = self.kicker
        assert kicker is not None
        receiver = other(kicker)
        a, b = self._reveal_numbers(picks, kicker, receiver)
        match = a == b
        events.append(
            _ev("number_reveal", "GF-KICK-NUMBER", "Numbers: {kicker} {a}, {receiver} {b} - {result}",
                kicker=kicker, a=a, receiver=receiver, b=b, result="MATCH!" if match else "no match",
                also=["GF-R-NUMBER"])
        )
        if match:
            self._touchdown(receiver, "kick return number match", self.ball, events)
            return
        self._after_kick(receiver, events)

    # ------------------------------------------------------------------ downs
    def _new_series(self, offense: str, events: list[Event]) -> None:
        ball = self.ball
        assert ball is not None
        r = self.rules
        up = offense == self.up_team
        self.offense = offense
        self.phase = PLAY
        self.down = 1
        self.los = ball[1]
        self.to_gain = ball[1] + (r.first_down_rows if up else -r.first_down_rows)
        events.append(
            _event("first_and_ten", "GF-R-NEW-SERIES", "{offense} ball, 1st & {n} at {at}, attacking row {toward}",
                   {"offense": offense, "n": self.to_go(), "at": sq(ball),
                    "toward": r.high_goal_line if up else r.low_goal_line, "also": _NEW_SERIES})
        )

    def _resolve_play(self, picks: dict[str, Action], out: PlayOutcome, events: list[Event]) -> None:
        """Carry out a down whose outcome the check computed (:func:`movement.resolve_play`)."""
        off_seat = self.offense
        start = self.ball
        assert off_seat is not None and start is not None
        def_seat = AWAY if off_seat == HOME else HOME
        off, de = picks[off_seat], picks[def_seat]
        assert isinstance(off, PlayCall) and isinstance(de, PlayCall)
        match = out.match
        self._last_kind, self._last_picks = "play", ((off_seat, off), (def_seat, de))
        result = _MATCH_TEXT[match]
        self._last_result, self._last_numbers = ("result", result), None
        events.append(
            _event("play_reveal", "GF-LOCK", "{offense}: {ocall} / {defense}: {dcall} - {result}",
                  {"offense": off_seat, "ocall": str(off), "defense": def_seat, "dcall": str(de), "result": result})
        )
        mv = out.movement
        if mv is None:  # play and colour match
            events.append(_ev("turnover", "GF-MATCH-BOTH", "play and colour match: immediate turnover at {at}", at=sq(start)))
            self._end_play(start, events, turnover=True)
            return
        red = off.colour == "red"
        if match is _M_COLOUR:
            events.append(_ev("colour_match", "GF-MATCH-COLOUR", "colour match: exactly {n} forward, then a number check",
                              n=out.forward, also=["GF-R-COLOUR-MOVE", "GF-COLOUR", "GF-MOVE-RED" if red else "GF-MOVE-BLACK"]))
            if self._move_ball(mv, events, rule="GF-R-COLOUR-TD"):
                return
            spot = mv.end
            self.ball = spot
            self.blocked.add(spot)
            events.append(_event("blocked", "GF-BLOCK", "{at} is now blocked", {"at": sq(spot), "also": _ON_BLOCK}))
            self.phase = NUMBER_CHECK
            return
        spec = self._plays[off.play]
        lateral = out.lateral
        events.append(
            _event("play_result", "GF-MATCH-PLAY" if match is _M_PLAY else "GF-MATCH-NONE",
                  "Play {play} ({name}), defense {how}: {base:+d} forward {bonus:+d} bonus = {total:+d}; lateral {lat}",
                  {"play": off.play, "name": spec.name, "how": "matches" if match is _M_PLAY else "wrong", "base": out.base,
                   "bonus": out.bonus, "total": out.forward, "lat": f"{lateral} {off.direction}" if lateral else "none",
                   "also": [
                       self._play_rule[off.play], "GF-COLOUR", "GF-MOVE-RED" if red else "GF-MOVE-BLACK", "GF-R-NET",
                       *(("GF-LATERAL", "GF-R-LEFT-RIGHT") if lateral else ()),
                   ]})
        )
        if out.cut_rule is not None:
            events.append(_ev("lateral_cut", out.cut_rule, "declared lateral {declared} cut to {lateral}",
                              declared=off.lateral, lateral=lateral))
        if self._move_ball(mv, events, rule="GF-R-TD-STOP"):
            return
        self._end_play(mv.end, events, turnover=False)

    def _move_ball(self, mv: Movement, events: list[Event], rule: str) -> bool:
        """Report a move (what stopped each leg, then the touchdown, the incomplete pass or the
        rows moved).  True if that resolved the down (a touchdown or an incomplete pass)."""
        assert self.offense
        start = mv.start
        legs = mv.legs
        self.ball_path = (start, *(leg.end for leg in legs))
        for leg in legs:
            stop = leg.stop
            if stop is None or stop is _TD or stop is _INCOMPLETE:
                continue
            if stop is _BLOCKED:
                events.append(_ev("stopped", "GF-BLOCK", "ground movement stopped by the blocked square {at}", at=sq(leg.hit)))
            elif stop is _EDGE:
                events.append(_ev("stopped", "GF-R-EDGE", "lateral movement stops at the board edge ({at})", at=sq(leg.end)))
            elif stop is _OWN_END_ZONE:
                events.append(_ev("stopped", "GF-R-OWN-END-ZONE", "backward movement stops at {at}, outside the own end zone", at=sq(leg.end)))
            else:
                events.append(_ev("stopped", "GF-R-AIR-LANDING", "the ball cannot land on a blocked square and comes down at {at}", at=sq(leg.end)))
        end = legs[-1].end if legs else start
        final = legs[-1].stop if legs else None
        if final is _TD:
            self._touchdown(self.offense, "scrimmage play", end, events, rule=rule)
            return True
        if final is _INCOMPLETE:
            events.append(_ev("incomplete", "GF-INCOMPLETE", "the pass overshoots the end zone: incomplete, ball stays at {at}",
                              at=sq(start), also=["GF-R-INCOMPLETE"]))
            self._end_play(start, events, turnover=False)
            return True
        gained = (end[1] - start[1]) * (1 if self.offense == self.up_team else -1)
        events.append(_event("moved", "GF-DIRECTION", "ball {frm} -> {to} ({rows:+d} rows)",
                             {"frm": sq(start), "to": sq(end), "rows": gained, "gained": gained}))
        return False

    def _end_play(self, end: Square, events: list[Event], *, turnover: bool) -> None:
        """Block the ending square and do the down bookkeeping."""
        assert self.offense
        self.ball = end
        self.blocked.add(end)
        events.append(_event("blocked", "GF-BLOCK", "{at} is now blocked", {"at": sq(end), "also": _ON_BLOCK}))
        self._finish_down(events, turnover=turnover)

    def _finish_down(self, events: list[Event], *, turnover: bool) -> None:
        offense, ball = self.offense, self.ball
        assert offense and ball
        if turnover:
            events.append(_ev("turnover", "GF-TURNOVER", "turnover: {new} takes over at {at}, direction reverses",
                              new=other(offense), at=sq(ball)))
            self._new_series(other(offense), events)
        elif (ball[1] - self.to_gain) * (1 if offense == self.up_team else -1) >= 0:
            events.append(_ev("first_down", "GF-FIRST-DOWN", "first down!"))
            self._new_series(offense, events)
        else:
            down = self.down = self.down + 1
            if down > self.rules.downs:
                events.append(_ev("turnover", "GF-R-DOWNS-FAIL", "turnover on downs at {at}", at=sq(ball)))
                self._new_series(other(offense), events)
            else:
                self.phase = PLAY
                self.los = ball[1]  # each down is snapped from where the ball is
                events.append(_event("down", "GF-DOWNS", "{down} & {togo}", {"down": ordinal(down), "togo": self.to_go()}))
        self._count_down(events)

    def _resolve_number_check(self, picks: dict[str, Action], events: list[Event]) -> None:
        off_seat = self.offense
        assert off_seat
        def_seat = AWAY if off_seat == HOME else HOME
        a, b = self._reveal_numbers(picks, off_seat, def_seat)
        match = a == b
        events.append(
            _event("number_reveal", "GF-MATCH-COLOUR", "Numbers: {offense} {a}, {defense} {b} - {result}",
                   {"offense": off_seat, "a": a, "defense": def_seat, "b": b,
                    "result": "MATCH: turnover!" if match else "no match", "also": _NUMBER})
        )
        self._finish_down(events, turnover=match)

    def _reveal_numbers(self, picks: dict[str, Action], first: str, second: str) -> tuple[int, int]:
        """The two seats' secret numbers of a number check (a match decides it), kept as the last revealed."""
        a, b = picks[first], picks[second]
        assert isinstance(a, NumberPick) and isinstance(b, NumberPick)
        self._last_numbers = {first: a.number, second: b.number}
        return a.number, b.number

    # ------------------------------------------------------------- the clock
    def _count_down(self, events: list[Event]) -> None:
        """One of the quarter's downs is used (GF-R-DOWN-COUNT); handle quarter ends."""
        if self.outcome is not None:
            return
        r = self.rules
        self.quarter_downs += 1
        left = r.downs_per_quarter - self.quarter_downs
        if left == r.warning_downs_left and self.quarter in r.warning_quarters:
            events.append(_ev("warning", "GF-WARNING", "warning: {left} {downs} remaining in quarter {q}", left=left,
                              downs=plural(left, "down"), q=self.quarter))
        if left > 0:
            return
        q = self.quarter
        events.append(_ev("quarter_end", "GF-QUARTERS", "end of quarter {q}", q=q, also=["GF-R-DOWN-COUNT"]))
        if q >= r.quarters:
            self._end_regulation(events)
            return
        self.quarter += 1
        self.quarter_downs = 0
        if q in r.switch_after_quarters:
            self._switch_ends(events)
        if q == r.quarters // 2:
            self.pending.clear()
            self.offense = None
            self.ball = None
            self.down = 0
            self.phase = HALFTIME_CHOICE
            assert self.toss_winner
            events.append(_ev("halftime", "GF-R-HALF", "halftime: {seat} chooses to kick or receive",
                              seat=other(self.toss_winner)))
        elif self.offense:
            events.append(_ev("carry", "GF-R-CARRY", "the drive carries into quarter {q}", q=self.quarter))

    def _switch_ends(self, events: list[Event]) -> None:
        m = self.rules.low_goal_line + self.rules.high_goal_line
        self.up_team = other(self.up_team)
        self.blocked = {(c, m - row) for c, row in self.blocked}
        self.los, self.to_gain = m - self.los, m - self.to_gain
        why = "every square is mirrored across midfield (row r becomes row {m} - r), keeping its distance from each goal"
        if self.ball is None:
            events.append(_ev("switch_ends", "GF-SWITCH", "teams switch ends: {up} now attacks row {goal}; " + why,
                              up=self.up_team, goal=self.rules.high_goal_line, m=m, also=["GF-R-SWITCH-MAP"]))
            return
        frm, self.ball = self.ball, (self.ball[0], m - self.ball[1])
        events.append(_ev("switch_ends", "GF-SWITCH",
                          "teams switch ends: {up} now attacks row {goal}; the ball moves from {frm} to {to}: " + why,
                          up=self.up_team, goal=self.rules.high_goal_line, frm=sq(frm), to=sq(self.ball), m=m,
                          also=["GF-R-SWITCH-MAP"]))

    def _touchdown(self, team: str, how: str, at: Square | None, events: list[Event], rule: str = "GF-TD") -> None:
        r = self.rules
        self.touchdowns += 1
        self.score[team] += r.touchdown_points if r.win == "points" else 1
        events.append(_ev("touchdown", "GF-TD", "TOUCHDOWN {team}! ({how}{where})", team=team, how=how,
                          where=f" at {sq(at)}" if at else "", also=[rule, "GF-R-END-ZONE"]))
        if at:
            self.ball = at
        if r.win == "first_touchdown":
            self._finish(Outcome(team, "touchdown", "GF-WIN", dict(self.score)), events)
            return
        counts = self.phase in (PLAY, NUMBER_CHECK) or self._last_kind == "punt"
        self.kicker = team
        self._start_kick(events)
        if counts:
            self._count_down(events)  # may end the quarter: halftime or the end of the game come first
        if self.phase == KICKOFF:
            events.append(_ev("kickoff_next", "GF-R-POINTS", "{team} kicks off", team=team))

    def _end_regulation(self, events: list[Event]) -> None:
        s = self.score
        if self.rules.win == "first_touchdown" or s[HOME] == s[AWAY]:
            reason, rule = ("regulation ended scoreless", "GF-R-SCORELESS") if self.rules.win == "first_touchdown" else ("tied on points", "GF-R-POINTS")
            self._finish(Outcome(None, reason, rule, dict(s)), events)
        else:
            winner = HOME if s[HOME] > s[AWAY] else AWAY
            self._finish(Outcome(winner, "more points", "GF-R-POINTS", dict(s)), events)

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self.outcome = outcome
        self.phase = GAME_OVER
        self.pending.clear()
        events.append(_ev("game_over", outcome.rule, "game over: {result}", result=str(outcome)))

    # --------------------------------------------------------------- views
    def clone(self) -> GridFootballState:
        """An independent copy (the search bot's): a deep copy without the memo of legal play calls
        (:attr:`_legal_plays`, made again when asked) - copying it cost more than the rest of the state."""
        from gm.core.search import deep_clone

        return cast(GridFootballState, deep_clone(self, {id(self._legal_plays): {}}))

    def snapshot(self) -> dict[str, Any]:
        """Everything, including secret pending choices (never shown to a seat)."""
        out = self._public()
        out["pending"] = {s: str(a) for s, a in self.pending.items()}
        return out

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see: the other side's pending choice only as 'locked'."""
        out = self._public()
        out["pending"] = {s: (str(a) if s == seat else "locked") for s, a in self.pending.items()}
        return out

    def _public(self) -> dict[str, Any]:
        r = self.rules
        return {
            "phase": self.phase,
            "quarter": self.quarter,
            "downs_left_in_quarter": self.downs_left_in_quarter,
            "offense": self.offense,
            "defense": self.defense,
            "down": self.down if self.offense else None,
            "to_go": self.to_go() if self.ball else None,
            "ball": sq(self.ball) if self.ball else None,
            "line_of_scrimmage": self.los if self.offense else None,
            "line_to_gain": self.to_gain if self.offense else None,
            "attacking": {s: (r.high_goal_line if self.direction(s) > 0 else r.low_goal_line) for s in SEATS},
            "blocked": sorted(sq(b) for b in self.blocked),
            "score": dict(self.score),
            "toss_winner": self.toss_winner,
            "kicker": self.kicker,
            "to_act": list(self.to_act()),
            "last": self.last,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


_Listed = tuple[tuple[Action, ...], frozenset[Action]]  # the legal actions listed, and as a set
_HOME_ONLY, _AWAY_ONLY = (HOME,), (AWAY,)
_NUMBER_PHASES = frozenset({RETURN_NUMBER, NUMBER_CHECK})
_KICK_PHASES = frozenset({KICKOFF, PUNT})


def _listed(actions: Iterable[Action]) -> _Listed:
    acts = tuple(actions)
    return acts, frozenset(acts)


_COIN_CALLS = _listed(CoinCall(c) for c in ("heads", "tails"))
_KICK_CHOICES = _listed(KickChoice(c) for c in ("kick", "receive"))
_KICK_PICKS = _listed(KickPick(p, c) for p in POSITIONS for c in KICK_COLOURS)
_NOTHING: _Listed = ((), frozenset())
#: the kinds of action of a listing (by the listing's identity; see ``action_kinds``)
# speed seam: action-kinds - the kinds of a listing worked out once per listing object (it is kept in the entry,
# so its id cannot pass on): 0.9 us instead of 2.1 us a time, asked by every tool result that says what comes next
_KINDS: dict[int, tuple[tuple[Action, ...], frozenset[str]]] = {}


@lru_cache(maxsize=64)
def _number_picks(n: int) -> _Listed:
    return _listed(NumberPick(i) for i in range(1, n + 1))


@lru_cache(maxsize=256)
def _play_calls(plays: tuple[int, ...], caps: tuple[int, ...], offense: bool, punt: bool) -> _Listed:
    """Every legal play call for these open plays and lateral caps (immutable, so cached)."""
    out: list[Action] = [Punt()] if punt else []
    for play, cap in zip(plays, caps, strict=True):
        for colour in PLAY_COLOURS:
            out.append(PlayCall(play, colour))
            if offense and colour == "red":
                out.append(PlayCall(play, colour, timing="after"))
            for n in range(1, cap + 1):
                for side in ("left", "right"):
                    for timing in ("before", "after"):
                        out.append(PlayCall(play, colour, n, side, timing))
    return _listed(out)


_MATCH_TEXT = {m: m.value for m in Match}  # plain strings for events and views
_ON_BLOCK = ("GF-R-BALL-ON-BLOCK",)  # the ball rests on the square it just blocked
_NEW_SERIES = ("GF-FIRST-DOWN", "GF-R-LINE-TO-GAIN")
_NUMBER = ("GF-R-NUMBER",)

_PHASE_RULE = {
    COIN_TOSS: "GF-TOSS",
    KICK_CHOICE: "GF-TOSS",
    HALFTIME_CHOICE: "GF-TOSS-2H",
    KICKOFF: "GF-KICK-PICK",
    PUNT: "GF-R-PUNT",
    RETURN_NUMBER: "GF-KICK-NUMBER",
    NUMBER_CHECK: "GF-MATCH-COLOUR",
    PLAY: "GF-LOCK",
    GAME_OVER: "CORE-OVER",
}

