"""The chat's own chance: the outcomes a chatbot's log states (a coin, dice, the cards its placements
show) given to the engine as it replays the log (``gm import --chance from-log``), through the core
chance interface (:mod:`gm.core.chance`, a :class:`~gm.core.chance.ChanceSource`).

Each draw the engine makes while a line is replayed takes the first outcome the log states for it
(:meth:`ChatLog.stated <gm.core.chatlog.ChatLog.stated>`: the same label, the same piece or player)
on that line or an earlier one and not used yet; draws made while the game is set up (a toss, the
first deal) take one stated anywhere.  What a line says without stating it (the cards a chatbot dealt,
seen as they are played) the game's :meth:`ChatLog.supply <gm.core.chatlog.ChatLog.supply>` reads.
An outcome the draw can have and gm's seed did not give is used; one it cannot have is flagged and
gm's own is used; an outcome gm's seed gave anyway supplies nothing (a log that agrees with a seed
replays as that seed's game).  The seed search asks the same source as a *probe*: it stops the replay
at the first outcome the log states that the seed does not give.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.chance import ChanceError, Deal, Draw, Shuffle

if TYPE_CHECKING:
    from gm.core.chatlog import ChatLog, ParsedLine, Stated
    from gm.core.chatlog_text import Line


@dataclass(frozen=True, slots=True)
class Supplied:
    """An outcome of chance the chat's log gave the replay where gm's seed gave another."""

    line: int
    label: str
    draw: str
    said: str
    drawn: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "draw": self.draw, "chatbot": self.said, "gm": self.drawn}


@dataclass(frozen=True, slots=True)
class Impossible:
    """An outcome the chat's log states that the draw cannot have (gm's own was used)."""

    line: int
    label: str
    draw: str
    said: str
    reason: str
    rule: str

    def text(self) -> str:
        return f"line {self.line} {self.label or '-'}: impossible {self.draw}: {self.reason}; gm's seed drew it instead [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "draw": self.draw, "chatbot": self.said, "reason": self.reason,
                "rule": self.rule}  # fmt: skip


class Mismatch(Exception):
    """The probe met an outcome the log states that the seed does not give (or that no draw can have): at
    the replay of the log's line ``at`` (-1: as the game was set up); ``line`` states it."""

    def __init__(self, at: int, line: int, draw: Draw[Any], index: int = 0) -> None:
        super().__init__(f"line {line}: {draw.describe()}")
        self.at = at
        self.line = line
        self.draw = draw
        #: the game's draw number
        self.index = index


@dataclass
class LogChance:
    """The chance source of one replay of a chatbot's log (see the module docstring); ``probe``: stop at
    the first stated outcome the seed does not give (raise :class:`Mismatch`) instead of supplying it."""

    chatlog: ChatLog
    rows: list[tuple[Line, ParsedLine]]
    probe: bool = False
    #: the index of the line being replayed (-1: the game is being set up)
    at: int = -1
    notes: dict[str, Any] = field(default_factory=dict)
    supplied: list[Supplied] = field(default_factory=list)
    impossible: list[Impossible] = field(default_factory=list)
    #: how many outcomes the log states came out so under the seed
    agreed: int = 0
    _stated: dict[str, list[tuple[int, Stated]]] = field(default_factory=dict)  # label -> (line index, outcome), in order
    _used: set[tuple[str, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        for i, (_, p) in enumerate(self.rows):
            for st in self.chatlog.stated(p):
                self._stated.setdefault(st.label, []).append((i, st))

    @property
    def lines(self) -> list[ParsedLine]:
        return [p for _, p in self.rows]

    def states_any(self) -> bool:
        """Whether the log states any outcome of chance itself."""
        return bool(self._stated)

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        where, said = self._said(draw)
        if said is None:
            return None
        if isinstance(draw, Deal) and len(said) < draw.n:  # some of the cards named: the rest as gm dealt them
            said = _completed(list(map(str, said)), [str(c) for c in drawn], draw.n)
        ln, label = self.rows[where][0].number, self.rows[where][1].label
        try:
            value = draw.check(said)
        except ChanceError as exc:
            if self.probe:
                raise Mismatch(self.at, ln, draw, index) from None
            self.impossible.append(Impossible(ln, self.rows[where][0].as_written(label), draw.label, _text(draw, said), exc.reason, exc.rule))
            return None
        if _same(draw, value, drawn):
            self.agreed += 1
            return None
        if self.probe:
            raise Mismatch(self.at, ln, draw, index)
        self.supplied.append(Supplied(ln, self.rows[where][0].as_written(label), draw.describe(), draw.outcome_text(value), draw.outcome_text(drawn)))
        return value

    def _said(self, draw: Draw[Any]) -> tuple[int, Any]:
        """Where the log says the outcome of ``draw`` (a line index) and the outcome; ``(.., None)``: it does not."""
        supplied = self.chatlog.supply(draw, self)
        if supplied is not None:
            return max(self.at, 0), supplied
        last = len(self.rows) if self.at < 0 else self.at  # (setting up: the first the log states anywhere)
        for k, (i, st) in enumerate(self._stated.get(draw.label, ())):
            if i > last:
                break
            if (draw.label, k) not in self._used and st.answers(draw):
                self._used.add((draw.label, k))
                return i, st.value
        return max(self.at, 0), None


def _completed(named: list[str], drawn: list[str], n: int) -> list[str]:
    """``named`` items and, for the rest of ``n``, those of ``drawn`` the names do not take (each once)."""
    rest = list(drawn)
    for x in named:
        if x in rest:
            rest.remove(x)
    return named + rest[: n - len(named)]


def _same(draw: Draw[Any], a: Any, b: Any) -> bool:
    """Whether two outcomes of ``draw`` are the same (cards dealt or shuffled: the same cards)."""
    if isinstance(draw, Deal | Shuffle):
        return sorted(map(str, a)) == sorted(map(str, b))
    return bool(draw.to_json(a) == draw.to_json(b))


def _text(draw: Draw[Any], said: Any) -> str:
    if isinstance(said, list | tuple):
        return " ".join(map(str, said))
    return str(said)
