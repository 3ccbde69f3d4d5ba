"""The whole game: ruleset, action, state, bots, board, tools and the :class:`Game` itself.

Both players throw a shape in secret in the same round; when both have thrown, the shapes are
revealed, the round is won by the shape that beats the other (a tie wins nothing), and the first
to a majority of ``best_of`` round wins takes the match.  A match stops after ``max_rounds``
rounds, ties included: the player with more round wins takes it, equal is a draw.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from gm.core import (
    Action,
    Bot,
    Chance,
    Event,
    Game,
    GameError,
    GameState,
    IllegalActionError,
    Outcome,
    RandomBot,
    ToolArgs,
    ToolSpec,
    action_tool,
    bad_input,
)

SEATS = ("alice", "bob")
CLASSIC = ("rock", "paper", "scissors")
EXTENDED = ("rock", "paper", "scissors", "lizard", "spock")
#: (winner, loser) -> what the winner does to the loser
BEATS: dict[tuple[str, str], str] = {
    ("rock", "scissors"): "crushes",
    ("paper", "rock"): "covers",
    ("scissors", "paper"): "cuts",
    ("rock", "lizard"): "crushes",
    ("lizard", "spock"): "poisons",
    ("spock", "scissors"): "smashes",
    ("scissors", "lizard"): "decapitates",
    ("lizard", "paper"): "eats",
    ("paper", "spock"): "disproves",
    ("spock", "rock"): "vaporizes",
}
RULES: dict[str, str] = {
    "RPS-SHAPES": "The shapes and which beats which",
    "RPS-SECRET": "Both players throw in secret; a throw is revealed once both have thrown",
    "RPS-ROUND": "A round is won by the shape that beats the other; equal shapes are a tie",
    "RPS-WIN": "The first to a majority of the best-of round wins takes the match",
    "RPS-LIMIT": "After the round limit the player with more round wins takes the match; equal is a draw",
    "RPS-SYNTAX": "A throw names a shape: rock, paper, scissors (lizard, spock)",
}


# ------------------------------------------------------------------ rules
class RpsRules(BaseModel):
    """The ruleset: how long a match is and which shapes it plays."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    best_of: int = Field(default=3, ge=1, le=99, description="best of this many won rounds, an odd number: first to a majority wins (RPS-WIN)")
    max_rounds: int = Field(default=20, ge=1, le=999, description="the match stops after this many rounds, ties included (RPS-LIMIT)")
    lizard_spock: bool = Field(default=False, description="play five shapes (rock, paper, scissors, lizard, spock) instead of three (RPS-SHAPES)")

    @model_validator(mode="after")
    def _odd(self) -> RpsRules:
        if self.best_of % 2 == 0:
            raise ValueError(f"best_of must be odd, not {self.best_of}")
        return self

    @property
    def target(self) -> int:
        """Round wins that take the match."""
        return self.best_of // 2 + 1

    @property
    def shapes(self) -> tuple[str, ...]:
        return EXTENDED if self.lizard_spock else CLASSIC

    def beats(self) -> list[tuple[str, str, str]]:
        """(winner, verb, loser) of every pair of this ruleset's shapes."""
        return [(w, verb, lo) for (w, lo), verb in BEATS.items() if w in self.shapes and lo in self.shapes]


# ----------------------------------------------------------------- action
_ABBREVIATIONS = {"r": "rock", "p": "paper", "s": "scissors", "l": "lizard", "k": "spock", "sp": "spock"}
_WORDS = re.compile(r"^(?:i\s+)?(?:throw|play|pick|choose)?\s*(\w+)\W*$")


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw a shape (``throw rock``)."""

    shape: str
    type: ClassVar[str] = "throw"

    def __post_init__(self) -> None:
        if self.shape not in EXTENDED:
            raise bad_input("not a shape", self.shape, rule="RPS-SYNTAX", legal=EXTENDED)

    def __str__(self) -> str:
        return f"throw {self.shape}"


def parse_action(text: str) -> Action:
    """``throw rock``, ``rock``, ``r``, ``I throw paper!``."""
    m = _WORDS.match(text.strip().lower())
    word = m.group(1) if m else ""
    shape = _ABBREVIATIONS.get(word, word)
    if shape not in EXTENDED:
        raise bad_input("a throw names a shape", text, rule="RPS-SYNTAX", legal=[f"throw {s}" for s in EXTENDED])
    return Throw(shape)


# ------------------------------------------------------------------ state
class RpsState(GameState[RpsRules]):
    """Round wins, the rounds played, and this round's secret throws."""

    def _setup(self) -> None:
        self.wins = dict.fromkeys(SEATS, 0)
        self.rounds: list[dict[str, str]] = []
        self.pending: dict[str, str] = {}

    def _to_act(self) -> tuple[str, ...]:
        return tuple(s for s in SEATS if s not in self.pending)

    def decision(self, seat: str) -> str | None:
        return "throw" if seat in self.to_act() else None

    def _legal(self, seat: str) -> Iterable[Action]:
        return _throws(self.rules.shapes)

    def _check(self, seat: str, action: Action) -> None:
        if not isinstance(action, Throw) or action.shape not in self.rules.shapes:
            raise IllegalActionError(
                f"this match plays {', '.join(self.rules.shapes)}", rule="RPS-SHAPES", input=str(action),
                legal=[str(t) for t in _throws(self.rules.shapes)],
            )

    def _turn_error(self, seat: str, action: Action) -> GameError:
        return IllegalActionError(f"{seat} has thrown this round; waiting for {', '.join(self._to_act())}", rule="RPS-SECRET", input=str(action))

    def _apply(self, seat: str, action: Action, plan: Any) -> list[Event]:
        assert isinstance(action, Throw)
        self.pending[seat] = action.shape
        if len(self.pending) < len(SEATS):
            return [Event("locked", "RPS-SECRET", "{seat} has thrown (hidden until both have)", {"seat": seat})]
        return self._resolve()

    def _resolve(self) -> list[Event]:
        a, b = (self.pending[s] for s in SEATS)
        n = len(self.rounds) + 1
        winner = SEATS[0] if (a, b) in BEATS else SEATS[1] if (b, a) in BEATS else None
        self.rounds.append({**self.pending, "winner": winner or "tie"})
        self.pending = {}
        data: dict[str, Any] = {"round": n, SEATS[0]: a, SEATS[1]: b}
        if winner is None:
            events = [Event("tie", "RPS-ROUND", "Round {round}: both throw {alice}: a tie.", data)]
        else:
            self.wins[winner] += 1
            w, lo = (a, b) if winner == SEATS[0] else (b, a)
            data |= {"winner": winner, "how": f"{w} {BEATS[(w, lo)]} {lo}", "score": self._score()}
            events = [Event("round", "RPS-ROUND", "Round {round}: alice throws {alice}, bob throws {bob}: {how}, {winner} wins the round ({score}).", data)]
        if winner is not None and self.wins[winner] >= self.rules.target:
            self.outcome = Outcome(winner, f"first to {self.rules.target} round wins", "RPS-WIN", dict(self.wins))
            events.append(Event("match", "RPS-WIN", "{winner} wins the match {score}.", {"winner": winner, "score": self._score()}))
        elif len(self.rounds) >= self.rules.max_rounds:
            lead = max(SEATS, key=lambda s: self.wins[s])
            top = lead if self.wins[lead] > min(self.wins.values()) else None
            self.outcome = Outcome(top, f"{self.rules.max_rounds} rounds played", "RPS-LIMIT", dict(self.wins))
            events.append(Event("limit", "RPS-LIMIT", "The round limit is reached: {result} ({score}).",
                                {"result": f"{top} wins the match" if top else "a draw", "score": self._score()}))
        return events

    def _score(self) -> str:
        return "-".join(str(self.wins[s]) for s in SEATS)

    def snapshot(self) -> dict[str, Any]:
        return {"round": len(self.rounds) + 1, "wins": dict(self.wins), "target": self.rules.target,
                "rounds": [dict(r) for r in self.rounds], "pending": dict(self.pending)}

    def view(self, seat: str | None) -> dict[str, Any]:
        out = self.snapshot()
        out["pending"] = {s: shape if s == seat else "locked" for s, shape in self.pending.items()}
        return out


@lru_cache(maxsize=4)
def _throws(shapes: tuple[str, ...]) -> tuple[Throw, ...]:
    return tuple(Throw(s) for s in shapes)


# ------------------------------------------------------------------- bots
class CounterBot:
    """Throws what beats the opponent's most frequent shape of the rounds played so far (public
    history only: never a pending throw); ties and the first round are a seeded draw."""

    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        view = state.view(seat)
        shapes = state.rules.shapes
        other = next(s for s in SEATS if s != seat)
        seen = Counter(r[other] for r in view["rounds"])
        if not seen:
            return Throw(self.rng.choice(shapes))
        top = max(seen.values())
        likely = sorted(s for s, k in seen.items() if k == top)
        answers = sorted({w for (w, lo) in BEATS if lo in likely and w in shapes})
        return Throw(self.rng.choice(answers or list(shapes)))


# ------------------------------------------------------------------ board
def render(state: RpsState, seat: str | None, *, full: bool = False) -> str:
    r = state.rules
    lines = [f"Rock-Paper-Scissors, best of {r.best_of} (first to {r.target} round wins)",
             f"{'round':<7}{SEATS[0]:<10}{SEATS[1]:<10}winner"]
    shown = state.rounds if full else state.rounds[-5:]
    first = len(state.rounds) - len(shown) + 1
    for i, rnd in enumerate(shown, start=first):
        lines.append(f"{i:<7}{rnd[SEATS[0]]:<10}{rnd[SEATS[1]]:<10}{rnd['winner']}")
    if state.outcome is None:
        now = [state.pending.get(s, "-") if s == seat or s not in state.pending else "locked" for s in SEATS]
        lines.append(f"{len(state.rounds) + 1:<7}{now[0]:<10}{now[1]:<10}?")
    lines.append(f"score: {SEATS[0]} {state.wins[SEATS[0]]}, {SEATS[1]} {state.wins[SEATS[1]]}")
    return "\n".join(lines) + "\n"


def status(state: RpsState, seat: str | None) -> str:
    score = f"{SEATS[0]} {state.wins[SEATS[0]]}, {SEATS[1]} {state.wins[SEATS[1]]}"
    if state.outcome is not None:
        return f"Match over: {state.outcome} - {score}"
    waiting = ", ".join(state.to_act())
    return f"Round {len(state.rounds) + 1} (at most {state.rules.max_rounds}): {score}, first to {state.rules.target}; to throw: {waiting}"


# ------------------------------------------------------------------ tools
@lru_cache(maxsize=4)
def _throw_args(shapes: tuple[str, ...]) -> type[ToolArgs]:
    field = Field(max_length=20, description=f"the shape to throw: {', '.join(shapes)}")
    model: type[ToolArgs] = create_model("ThrowArgs", __base__=ToolArgs, shape=(str, field))
    return model


# ------------------------------------------------------------------- game
class RockPaperScissors(Game[RpsRules, RpsState]):
    """Rock-paper-scissors, best of N."""

    id = "rock-paper-scissors"
    name = "Rock-Paper-Scissors"
    aliases = ("rps", "roshambo")
    seats = SEATS
    simultaneous = True  # both throw at once, secretly
    rules_model = RpsRules
    rules_index = RULES
    move_examples = ("rock", "throw paper", "s")
    sim_headlines: ClassVar[Mapping[str, str]] = {"round": "decided rounds", "tie": "tied rounds"}
    cap_rules: ClassVar[frozenset[str]] = frozenset({"RPS-LIMIT"})
    rule_words: ClassVar[Mapping[str, tuple[str, ...]]] = {"beats": ("RPS-SHAPES",), "hidden": ("RPS-SECRET",), "tie": ("RPS-ROUND",)}

    def new_state(self, rules: RpsRules | Mapping[str, Any] | None = None, seed: int = 0, chance: Chance | str | None = None) -> RpsState:
        return RpsState(self.load_rules(rules), seed, chance)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def action_types(self) -> Mapping[str, type[Action]]:
        return {Throw.type: Throw}

    def rules_text(self, rules: RpsRules | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        r = self.load_rules(rules)
        beats = "; ".join(f"{w} {verb} {lo}" for w, verb, lo in r.beats())
        return {**RULES, "RPS-SHAPES": f"This match plays {', '.join(r.shapes)}: {beats}",
                "RPS-WIN": f"The first to {r.target} round wins (best of {r.best_of}) takes the match",
                "RPS-LIMIT": f"After {r.max_rounds} rounds the player with more round wins takes the match; equal is a draw"}

    def render(self, state: RpsState, seat: str | None = None, *, full: bool = False) -> str:
        return render(state, seat, full=full)

    def status(self, state: RpsState, seat: str | None = None) -> str:
        return status(state, seat)

    def action_tools(self, rules: RpsRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        r = self.load_rules(rules)
        return [action_tool("throw", f"Throw a shape in secret ({', '.join(r.shapes)}); it is revealed once both players have thrown.",
                            _throw_args(r.shapes), Throw, ("throw",))]

    def export_context(self, rules: RpsRules | Mapping[str, Any] | None) -> dict[str, Any]:
        r = self.load_rules(rules)
        return {"beats": r.beats(), "shapes": r.shapes}

    def bots(self) -> Mapping[str, Callable[..., Bot]]:
        return {"default": CounterBot, "random": RandomBot}


GAME = RockPaperScissors()
RpsState.bind(GAME)
