"""Moves made by pointing: the JSON a front end reads to let a player build a move by clicking
(``Game.move_builder``), and the helpers a game builds it with.

The builder describes, for one seat at one position, every kind of move the seat may make now as a
**form**: the game's action tool it calls, the **parts** a player chooses (each by one kind of input:
a ``choice`` among buttons, a ``piece`` or a ``square`` on the board), and the legal moves as rows of
part values - so a front end offers only what is legal, step by step, without knowing the game:

- click a piece, and the squares it may reach light up (rows filtered by the chosen parts);
- choose a play, then a colour (each step offers the values the rows still allow);
- a form too large to list (a hand of cards into zones) is an ``assign`` form: every item (a
  player) gets a value for each field (a card from its own choices, a zone used once), checked live;
- a ``sequence`` form collects up to ``max`` rows of another form (a plan of piece actions).

How the chosen parts become the tool call: ``args`` maps each tool argument to a template, ``"$name"``
for a part's value (``"$rows"``: an ``assign`` form's rows; ``"$items"``: a ``sequence`` form's item
texts), anything else literally.  The move's text form ends each row, for listing and echoing.

The JSON Schema is ``move_builder.schema.json`` next to this module (tests validate every game's
builder against it); ``docs/page.md`` explains it with examples.  A game without a
``move_builder`` module gets :func:`default_builder`: one form per action tool, every argument a
``choice``, from its listed legal actions - so a plugin game is playable by pointing with no code
of its own, and a board game adds only which parts are pieces or squares (:class:`Part` ``where``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from gm.core.tools import call_for_action

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.game import Game
    from gm.core.state import GameState
    from gm.core.tools import ToolSpec

#: the version of the JSON this module writes (``version`` of every builder)
VERSION = 1
#: a form lists at most this many moves; past that it is typed (``typed: true``, ``count`` still exact)
MAX_MOVES = 4000
#: where the schema is, inside the package (``importlib.resources``)
SCHEMA = "move_builder.schema.json"

Input = Literal["choice", "piece", "square"]


def key(value: Any) -> str:
    """The key of a part value in ``labels`` and ``where`` maps: a string as it is, anything else as
    compact JSON (``3`` -> ``"3"``, ``None`` -> ``"null"``, ``["C3"]`` -> ``'["C3"]'``); the page's
    ``builder.js`` computes the same."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def where(col: int, row: int, ref: str | None = None) -> dict[str, Any]:
    """A board location for a ``piece`` or ``square`` value: the cell (``board_json`` columns and
    rows) and, for a piece, the ``ref`` of the drawn piece (pieces sharing a square are told apart)."""
    out: dict[str, Any] = {"col": col, "row": row}
    if ref is not None:
        out["ref"] = ref
    return out


@dataclass(frozen=True)
class Part:
    """One thing a player chooses to build a move: a tool argument (or a name ``args`` refers to)."""

    name: str
    label: str
    input: Input = "choice"
    #: value key (:func:`key`) -> what to show for it (default: the value itself)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: value key -> board location (:func:`where`), for ``piece`` and ``square`` inputs
    where: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "input": self.input}
        if self.labels:
            out["labels"] = dict(self.labels)
        if self.where or self.input != "choice":
            out["where"] = {k: dict(v) for k, v in self.where.items()}
        return out


def form(
    tool: str,
    label: str,
    parts: Sequence[Part],
    moves: Iterable[Sequence[Any]],
    *,
    id: str | None = None,
    args: Mapping[str, Any] | None = None,
    confirm: bool = False,
    help: str | None = None,
) -> dict[str, Any]:
    """A form of listed moves: each row one value per part, then the move's text form.  ``args``
    (default: every part as the argument of its name) says how the parts become the tool call."""
    rows = []
    count = 0
    for row in moves:
        count += 1
        if count <= MAX_MOVES:
            if len(row) != len(parts) + 1:
                raise ValueError(f"a move row of {tool} has {len(row)} values for {len(parts)} parts and the text")
            rows.append(list(row))
    out: dict[str, Any] = {
        "id": id or tool,
        "label": label,
        "tool": tool,
        "args": dict(args) if args is not None else {p.name: f"${p.name}" for p in parts},
        "parts": [p.to_json() for p in parts],
        "moves": rows if count <= MAX_MOVES else [],
        "count": count,
    }
    if count > MAX_MOVES:
        out["typed"] = True
    if confirm:
        out["confirm"] = True
    if help:
        out["help"] = help
    return out


def action_rows(tool: ToolSpec, actions: Iterable[Action], parts: Sequence[Part]) -> list[list[Any]]:
    """The rows of ``actions`` (each made by ``tool``) for a :func:`form` of ``parts``: each part's
    value is the action's tool-call argument of the part's name (``None`` when the call has none)."""
    rows = []
    for action in actions:
        _, args = call_for_action((tool,), action)
        rows.append([*(args.get(p.name) for p in parts), str(action)])
    return rows


def assign_form(
    tool: str,
    label: str,
    *,
    key_name: str,
    items: Sequence[Mapping[str, Any]],
    fields: Sequence[Mapping[str, Any]],
    arg: str,
    count: int | None = None,
    id: str | None = None,
    help: str | None = None,
) -> dict[str, Any]:
    """A form that assigns every item (``{"value", "label", "choices": {field: [values]}}``) a value of
    each field (``{"name", "label", "input", "values"?, "labels"?, "where"?, "distinct"?}``: a field's
    values are its own ``values`` or each item's ``choices``; ``distinct``: each value at most once).
    The call's argument ``arg`` is the list of rows ``{key_name: item value, field: value, ...}``."""
    out: dict[str, Any] = {
        "id": id or tool,
        "label": label,
        "tool": tool,
        "args": {arg: "$rows"},
        "confirm": True,
        "assign": {"key": key_name, "items": [dict(i) for i in items], "fields": [dict(f) for f in fields]},
    }
    if count is not None:
        out["count"] = count
    if help:
        out["help"] = help
    return out


def sequence_form(
    tool: str,
    label: str,
    items: Sequence[Mapping[str, Any]],
    *,
    arg: str,
    max_items: int,
    min_items: int = 0,
    once: str | None = None,
    sort: tuple[str, Sequence[Any]] | None = None,
    id: str | None = None,
    help: str | None = None,
) -> dict[str, Any]:
    """A form that collects up to ``max_items`` moves of the listed ``items`` forms (each a :func:`form`,
    whose tool and arguments are not called: only each move's text is kept); the call's argument
    ``arg`` is the list of their texts.  ``once``: a part whose value appears in at most one item
    (one row per piece); ``sort``: (a part, its values in order) - the items are sent sorted by it
    (the order the game's rules want them in), else in the order they were chosen."""
    seq: dict[str, Any] = {"max": max_items, "min": min_items, "forms": [dict(i) for i in items]}
    if once is not None:
        seq["once"] = once
    if sort is not None:
        seq["sort"] = {"part": sort[0], "order": list(sort[1])}
    out: dict[str, Any] = {"id": id or tool, "label": label, "tool": tool, "args": {arg: "$items"}, "confirm": True, "sequence": seq}
    if help:
        out["help"] = help
    return out


def builder(
    seat: str | None,
    decision: str | None,
    forms: Sequence[Mapping[str, Any]],
    *,
    prompt: str | None = None,
    summary: Sequence[str] = (),
    examples: Sequence[str] = (),
) -> dict[str, Any]:
    """The whole builder of one seat at one position (what ``Game.move_builder`` returns)."""
    words = (decision or "").replace("_", " ")
    out: dict[str, Any] = {
        "version": VERSION,
        "seat": seat,
        "decision": decision,
        "prompt": prompt or (f"Your move: {words}" if forms and words else "Nothing to do now" if not forms else "Your move"),
        "forms": [dict(f) for f in forms],
    }
    if summary:
        out["summary"] = list(summary)
    if examples:
        out["examples"] = list(examples)
    return out


def idle(state: GameState[Any], seat: str | None) -> dict[str, Any] | None:
    """The builder of a seat with nothing to do now (``None`` when it has a move to make): no forms,
    and what it waits for."""
    if seat is not None and seat in state.to_act():
        return None
    waiting = ", ".join(state.to_act())
    prompt = "The game is over" if state.is_terminal else f"Waiting for {waiting}" if waiting else "Nothing to do now"
    return builder(seat, None, [], prompt=prompt, examples=state.game.move_examples)


StateT = TypeVar("StateT", bound="GameState[Any]")


def for_the_mover(build: Callable[[StateT, str], dict[str, Any]]) -> Callable[[StateT, str | None], dict[str, Any]]:
    """A game's ``move_builder(state, seat)`` made of ``build(state, seat)``, which builds the forms of a seat
    with a move to make now; any other seat (a spectator, a seat waiting for another's move, a game that
    is over) gets :func:`idle`'s builder without calling it."""

    @functools.wraps(build)
    def move_builder(state: StateT, seat: str | None = None) -> dict[str, Any]:
        done = idle(state, seat)
        if done is not None:
            return done
        assert seat is not None  # (idle answers every seat that is not to act, and no seat)
        return build(state, seat)

    return move_builder


def humanise(name: str) -> str:
    """``call_coin_toss`` -> ``Call coin toss``."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def default_builder(game: Game[Any, Any], state: GameState[Any], seat: str | None) -> dict[str, Any]:
    """The builder of a game that declares none: one form per action tool the seat's legal actions
    use, each tool argument a ``choice`` part (listed moves only: a space too large to list is
    typed, with the game's summary of it)."""
    done = idle(state, seat)
    if done is not None:
        return done
    assert seat is not None
    legal = state.legal_actions(seat)
    decision = state.decision(seat)
    summary = state.legal_summary(seat)
    if legal.is_space and len(legal) > MAX_MOVES:
        return builder(seat, decision, [], prompt=f"Your move: {humanise(str(decision or ''))} (type it)", summary=summary,
                       examples=game.move_examples)
    tools = [t for t in game.tools(state.rules) if t.kind == "action"]
    by_tool: dict[str, tuple[ToolSpec, list[Action]]] = {}
    for action in legal:
        try:
            name, _ = call_for_action(tools, action)
        except KeyError:
            continue  # no tool makes it: typed only
        spec = next(t for t in tools if t.name == name)
        by_tool.setdefault(name, (spec, []))[1].append(action)
    forms = []
    for name, (spec, actions) in by_tool.items():
        parts = [Part(arg, humanise(arg)) for arg in spec.args.model_fields]
        forms.append(form(name, humanise(name), parts, action_rows(spec, actions, parts)))
    return builder(seat, decision, forms, summary=summary, examples=game.move_examples)


def fill(args: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The tool call's arguments: ``args`` with each ``"$name"`` replaced by ``values[name]`` (a part's
    value, or ``rows`` / ``items``), as the page's ``builder.js`` does."""
    out = {}
    for name, template in args.items():
        if isinstance(template, str) and template.startswith("$"):
            out[name] = values.get(template[1:])
        else:
            out[name] = template
    return out


def load_schema() -> dict[str, Any]:
    """The move builder's JSON Schema (draft 2020-12)."""
    from importlib.resources import files

    return dict(json.loads((files("gm.core") / SCHEMA).read_text(encoding="utf-8")))


__all__ = [
    "MAX_MOVES",
    "VERSION",
    "Part",
    "action_rows",
    "assign_form",
    "builder",
    "default_builder",
    "fill",
    "form",
    "humanise",
    "idle",
    "key",
    "load_schema",
    "sequence_form",
    "where",
]
