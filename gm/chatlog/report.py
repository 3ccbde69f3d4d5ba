"""What an audit of a chatbot's move log found: the claims the rules contradict (:class:`Divergence`),
the move the replay stopped at (:class:`Illegal`), and the whole :class:`Audit` with the engine's true
game, in words and as JSON."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.chatlog.chance import Impossible, Mismatch, Supplied
    from gm.chatlog.read import Restatement, Rewrite
    from gm.core.chatlog_text import Line
    from gm.core.game import Game
    from gm.core.state import GameState

FIX = (
    "`gm play` fixes that: a bot's pick is locked first (you see its SHA-256 commitment before you choose, the "
    "reveal after) and a second player at the keyboard types hidden; `gm serve` lets two people on two computers pick in secret, each from their own link, and `gm mcp` keeps every pick inside the engine, "
    "out of the chat"
)


@dataclass(frozen=True, slots=True)
class Divergence:
    """A claim of the chatbot that the rules contradict."""

    line: int
    label: str
    moves: str
    key: str
    said: str
    rules: str
    rule: str
    #: the claim states dice: the chatbot's roll against gm's
    roll: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "moves": self.moves, "what": self.key, "chatbot": self.said,
                "rules": self.rules, "rule": self.rule, "roll": self.roll}  # fmt: skip

    def finding(self) -> str:
        """What the chatbot said and what the rules give, in words (a die: "the chatbot rolled 5; gm's roll is 2")."""
        if self.roll:
            many = len(re.findall(r"\b[0-9]+\b", self.rules)) > 1 or len(re.findall(r"\b[0-9]+\b", self.said)) > 1
            return f"the chatbot rolled {self.said}; gm's {'rolls are' if many else 'roll is'} {self.rules}"
        return f"the chatbot says {self.said}, the rules give {self.rules}"


@dataclass(frozen=True, slots=True)
class Illegal:
    """The move the replay stopped at: the rules forbid it (or it does not read)."""

    line: int
    label: str
    move: str
    rule: str
    reason: str
    legal: tuple[str, ...]
    not_replayed: int

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "move": self.move, "rule": self.rule, "reason": self.reason,
                "legal": list(self.legal), "lines_not_replayed": self.not_replayed}  # fmt: skip


@dataclass
class Audit:
    """What the replay of a chatbot's move log found, and the engine's true game."""

    game: Game
    state: GameState[Any]
    seed: int
    lines: int
    replayed: int
    divergences: list[Divergence] = field(default_factory=list)
    illegal: Illegal | None = None
    unread: list[Line] = field(default_factory=list)
    honour: str = ""
    left_out: list[str] = field(default_factory=list)
    restated: list[Restatement] = field(default_factory=list)
    rewrites: list[Rewrite] = field(default_factory=list)
    seed_note: str = ""
    #: the lines the turn of a seat ended on unsaid (the next line was another seat's): (line, seat: action)
    implied: list[tuple[int, str]] = field(default_factory=list)
    #: how many claims the replay checked
    checked: int = 0
    #: the chance mode the log was replayed with: ``seed`` (gm's seed alone) or ``from-log`` (the chat's own
    #: outcomes where it states them)
    chance: str = "seed"
    #: outcomes of chance the chat's log gave where gm's seed gave others (``from-log``)
    supplied: list[Supplied] = field(default_factory=list)
    #: outcomes the chat's log states that their draw cannot have
    impossible: list[Impossible] = field(default_factory=list)
    #: the seed search: the first outcome the log states that the seed does not give
    mismatch: Mismatch | None = None
    #: the seed is a running game's hidden one (a copy's fresh seed): never shown
    seed_hidden: bool = False

    @property
    def moves(self) -> list[tuple[str, str]]:
        """The true game's moves (seat, action text); a trailing exchange still waiting for a secret pick
        is left out."""
        return [(m.seat, str(m.action)) for m in self.state.log]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seed": None if self.seed_hidden else self.seed,
            "seed_note": self.seed_note or None,
            "lines_read": self.lines,
            "lines_replayed": self.replayed,
            "divergences": [d.to_json() for d in self.divergences],
            "illegal": self.illegal.to_json() if self.illegal else None,
            "not_read": [{"line": u.number, "text": u.shown or u.text} for u in self.unread],
            "restated": [r.to_json() for r in self.restated],
            "rewritten": [r.to_json() for r in self.rewrites],
            "chance": self.chance,
            "chance_from_log": [x.to_json() for x in self.supplied],
            "impossible_chance": [x.to_json() for x in self.impossible],
            "left_out": list(self.left_out),
            "turns_ended_unsaid": [{"line": n, "move": m} for n, m in self.implied],
            "honour_system": self.honour or None,
            "moves": len(self.state.log),
            "status": self.game.status(self.state, None),
            "outcome": self.state.outcome.to_json() if self.state.outcome else None,
        }

    def text(self) -> str:
        """The audit in plain words, one finding a line."""
        seed = "a hidden seed" if self.seed_hidden else f"seed {self.seed}"
        out = [f"Audit of a {self.game.name} game from a chatbot: {self.lines} move lines read, {self.replayed} replayed "
               f"({seed})."]  # fmt: skip
        if self.seed_note:
            out.append(self.seed_note)
        if self.supplied:
            first = self.supplied[0]
            n = len(self.supplied)
            out.append(f"The chat's own dice and deals: {n} {'outcome' if n == 1 else 'outcomes'} of chance came from its log, not "
                       f"from {seed} (the first: line {first.line} {first.label or '-'}, {first.draw}: the chatbot's "
                       f"{first.said}, gm's {first.drawn}).")  # fmt: skip
        out += [i.text() for i in self.impossible]
        out += [r.text() for r in self.rewrites]
        for d in self.divergences:
            out.append(f"line {d.line} {d.label or '-'} ({d.moves}): {d.key}: {d.finding()} [{d.rule}]")
        if self.illegal is not None:
            i = self.illegal
            out.append(f"line {i.line} {i.label or '-'}: illegal move {i.move}: {i.reason} [{i.rule}]")
            if i.legal:
                out.append(f"  legal instead: {'; '.join(i.legal)}")
            n = i.not_replayed
            rest = ", the log's last" if not n else f"; {n} later move {'line was' if n == 1 else 'lines were'} not replayed"
            out.append(f"  the true game stops before this line{rest}")
        for u in self.unread:
            out.append(f"line {u.number}: not read as a move: {u.shown or u.text}")
        if self.left_out:
            out.append(f"left out (an exchange not finished): {', '.join(self.left_out)}; these picks are made again")
        if self.honour:
            out.append(f"Honour system: {self.honour}. {FIX}.")
        n, ill, imp = len(self.divergences), 1 if self.illegal else 0, len(self.impossible)
        verdict = "the chatbot kept the game exactly" if not n and not ill and not imp else (
            f"{n} {'divergence' if n == 1 else 'divergences'}, {ill} illegal {'move' if ill == 1 else 'moves'}"
            + (f", {imp} impossible {'outcome' if imp == 1 else 'outcomes'} of chance" if imp else ""))
        out.append(f"Result: {verdict}. The engine's game: {self.game.status(self.state, None)}")
        return "\n".join(out)
