"""Tool specifications: how a game exposes its decisions and queries as function tools.

A game lists its tools in ``Game.tools()``: each is a :class:`ToolSpec` with a
name, a one-line description (also the LLM-facing tool description), a pydantic
argument model (``extra="forbid"``) and a handler.  An *action* tool's handler
turns validated arguments into one of the game's :class:`Action` values, which
the session then applies for the calling seat; a *query* tool's handler returns
JSON-ready data computed from what that seat may see.

The generic queries every game gets (board, status, legal actions, rules) live
here, so games only write their action tools (``Game.action_tools()``; a game may
add a game-specific query there too, with ``kind="query"``).

Arguments are checked here too (:func:`parse_args`): unknown tools, non-JSON,
missing or extra fields, wrong types and out-of-range values all become an
:class:`InvalidActionError` with a rule id; nothing else escapes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gm.core.actions import Action
from gm.core.errors import InvalidActionError

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.state import GameState


class ToolArgs(BaseModel):
    """Base of every tool's argument model: unknown arguments are errors."""

    model_config = ConfigDict(extra="forbid")


class NoArgs(ToolArgs):
    """No arguments."""


#: an action tool's handler: (state, the calling seat, the parsed arguments) -> the action it asks for
ActionHandler = Callable[["GameState[Any]", str, Any], Action]
#: a query tool's handler: (state, the calling seat or ``None``, the parsed arguments) -> JSON-ready data
QueryHandler = Callable[["GameState[Any]", "str | None", Any], dict[str, Any]]
#: a host's own tool (``new_game``, ``list_sessions`` of ``gm mcp`` and ``gm serve``): parsed arguments -> result
HostHandler = Callable[[Any], dict[str, Any]]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: ``kind`` is ``action`` (makes a decision for the calling seat) or ``query``."""

    name: str
    description: str
    args: type[ToolArgs]
    kind: Literal["action", "query"]
    #: what runs the tool (call it through :meth:`act`, :meth:`answer` or :meth:`run`, typed by its kind)
    handler: ActionHandler | QueryHandler | HostHandler
    #: for action tools: the engine decision kinds (``state.decision(seat)``) this tool answers
    decisions: tuple[str, ...] = ()
    #: for action tools: the ``Action.type`` the tool produces.  When the argument names equal
    #: the action's fields, :func:`call_for_action` turns an action back into a tool call.
    produces: str | None = None
    #: for action tools whose action depends on the arguments alone (those :func:`action_tool` makes,
    #: and any other whose handler reads nothing but its arguments: pass ``made={}``): the actions
    #: made so far by their arguments (see :func:`made_action`); ``None``: not kept
    # speed seam: made-actions - a repeated call's arguments are neither validated nor built into an
    # action again (Grid Football's Session.call: 2.1x the raw apply with it, 3.2x without).  It is a
    # memo of the spec's own handler, as functools.cache is of a function, so it stays on the spec
    # (out of its value: compare=False, repr=False): the spec is made once per ruleset and shared by
    # every session (Game.tools), and a cache held elsewhere would have to find it by identity.
    made: dict[tuple[Any, ...], Action] | None = field(default=None, compare=False, repr=False)
    #: for a move-as-text tool offered to language models (:func:`text_action_tool`,
    #: ``Game.model_tools``): the session's action tools it stands for
    covers: tuple[str, ...] = ()

    # (the handler's kind is the spec's ``kind`` and who made it, which a type checker cannot follow: these
    # say it once, typed, instead of every caller casting)
    def act(self, state: GameState[Any], seat: str, parsed: Any) -> Action:
        """The action a game's action tool makes for ``seat`` from its parsed arguments."""
        return cast("ActionHandler", self.handler)(state, seat, parsed)

    def answer(self, state: GameState[Any], seat: str | None, parsed: Any) -> dict[str, Any]:
        """What a game's query tool answers ``seat`` (``None``: an onlooker) from its parsed arguments."""
        return cast("QueryHandler", self.handler)(state, seat, parsed)

    def run(self, parsed: Any) -> dict[str, Any]:
        """What a host's own tool (:data:`HostHandler`) returns for its parsed arguments."""
        return cast("HostHandler", self.handler)(parsed)


def action_tool(
    name: str, description: str, args: type[ToolArgs], action: type[Action], decisions: tuple[str, ...]
) -> ToolSpec:
    """An action tool whose arguments are the fields of ``action`` (``None`` = the field's default)."""

    def handler(state: GameState[Any], seat: str, parsed: ToolArgs) -> Action:
        # a parsed model's __dict__ holds exactly its fields, in order (unknown arguments are refused)
        given = {k: v for k, v in parsed.__dict__.items() if v is not None}
        return action(**given)

    return ToolSpec(name, description, args, "action", handler, decisions, action.type, {})


#: how many actions a tool keeps by their arguments (then it starts again)
MADE_MAX = 1024


def call_key(raw: Any) -> tuple[Any, ...] | None:
    """Arguments that are a flat object of strings, whole numbers, booleans and nulls (or lists of
    them), as a key (with each value's type: ``true`` and ``1`` are equal in Python, not as
    arguments); else ``None``."""
    if type(raw) is not dict:
        return None
    key = []
    for k, v in raw.items():
        t = type(v)
        if type(k) is not str:
            return None
        if t not in _PLAIN:
            if t is not list or not _PLAIN.issuperset(types := tuple(map(type, v))):
                return None
            v = (tuple(v), types)
        key.append((k, t, v))
    return tuple(key)


def made_action(spec: ToolSpec, key: tuple[Any, ...] | None) -> Action | None:
    """The action ``spec`` made before from the same plain arguments (``key``: :func:`call_key`), if any:
    checking and building them again would make an equal action."""
    made = spec.made
    return made.get(key) if made is not None and key is not None else None


def keep_action(spec: ToolSpec, key: tuple[Any, ...] | None, action: Action) -> None:
    """Remember the action ``spec`` made from the plain arguments ``key`` (see :func:`made_action`)."""
    made = spec.made
    if made is not None and key is not None:
        if len(made) >= MADE_MAX:
            made.clear()
        made[key] = action


class TextActionArgs(ToolArgs):
    """One move written as text."""

    action: str = Field(max_length=300, description="the move, written as legal_actions lists it")


def text_action_tool(name: str, description: str, covers: tuple[str, ...], decisions: tuple[str, ...]) -> ToolSpec:
    """A tool taking a move written as text (the game's notation, read by ``state.parse_action``) in
    place of the structured tools ``covers``: what a game offers a language model where one small
    tool reads better than several large ones (``Game.model_tools``).  The move is made through the
    covered tool that produces it (:func:`covered_call`), so sessions, transcripts and results are
    the same as for a structured call."""

    def handler(state: GameState[Any], seat: str, parsed: TextActionArgs) -> Action:
        return state.parse_action(parsed.action)

    return ToolSpec(name, description, TextActionArgs, "action", handler, decisions, None, covers=covers)


def covered_call(spec: ToolSpec, tools: Sequence[ToolSpec], state: GameState[Any], seat: str, args: Any) -> tuple[str, dict[str, Any]]:
    """The structured call (tool, arguments) a move-as-text call of ``spec`` stands for.  Raises
    :class:`InvalidActionError` when the text is not a move, or not one of the moves ``spec`` covers."""
    action = spec.act(state, seat, parse_args(spec, args))
    covered = [t for t in tools if t.name in spec.covers]
    try:
        return call_for_action(covered, action)
    except KeyError:
        makers = [t.name for t in tools if t.kind == "action" and t.produces == action.type]
        raise InvalidActionError(
            f"'{action}' is not a {spec.name} move" + (f"; {' or '.join(makers)} makes it" if makers else ""),
            rule=TOOL_RULE,
            input=str(action),
            legal=makers or list(spec.covers),
        ) from None


# ------------------------------------------------------------ argument parsing
ARGS_RULE = "CORE-ARGS"
TOOL_RULE = "CORE-TOOL"


def tool_index(tools: Iterable[ToolSpec]) -> dict[str, ToolSpec]:
    """Tools by name."""
    return {t.name: t for t in tools}


def _fields(model: type[ToolArgs]) -> list[str]:
    """The model's arguments described (the "legal" list of an argument error)."""
    out = []
    for name, f in model.model_fields.items():
        req = "required" if f.is_required() else "optional"
        out.append(f"{name} ({req}): {f.description or ''}".rstrip(": "))
    return out


def parse_args(spec: ToolSpec, raw: Mapping[str, Any] | str | None) -> ToolArgs:
    """Validate raw arguments (a dict, a JSON object text, or ``None`` for none).

    JSON ``null`` for an optional field means "use the default" (OpenAI strict mode
    sends every field).  Types are checked strictly: ``"3"`` is not a play number.
    Raises :class:`InvalidActionError` (rule ``CORE-ARGS``) naming the field.
    """
    model = spec.args
    plain = type(raw) is dict and _plain_object(raw, 2)
    deep = None if plain else too_deep(raw)
    if deep:
        raise InvalidActionError(
            f"arguments nested more than {MAX_DEPTH} levels deep; a tool's arguments are a flat JSON object",
            rule=ARGS_RULE,
            input=deep,
            legal=_fields(model),
        )
    if raw is None:
        data: Any = {}
    elif isinstance(raw, str):
        text = raw.strip()
        if not text:
            data = {}
        else:
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise InvalidActionError(
                    f"arguments must be a JSON object: {exc}", rule=ARGS_RULE, input=raw[:200], legal=_fields(model)
                ) from None
    elif plain:
        data = raw  # already plain JSON values (the common case): no round trip needed
    else:
        try:  # tool arguments are JSON values, whoever calls (tuples become lists, objects are refused)
            data = json.loads(json.dumps(raw, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise InvalidActionError(
                f"arguments must be JSON values: {exc}", rule=ARGS_RULE, input=_quote(raw), legal=_fields(model)
            ) from None
    if not isinstance(data, Mapping):
        raise InvalidActionError(
            f"arguments must be a JSON object, not {type(data).__name__}", rule=ARGS_RULE, input=_quote(data), legal=_fields(model)
        )
    clean = data
    if not plain or None in data.values():
        optional = _optional_fields(model)
        clean = {k: v for k, v in data.items() if not (v is None and k in optional)}
    try:
        parsed: ToolArgs = model.__pydantic_validator__.validate_python(clean, strict=True)
        return parsed
    except ValidationError as exc:
        raise InvalidActionError(_validation_reason(exc), rule=ARGS_RULE, input=_quote(data), legal=_fields(model)) from None
    except Exception as exc:  # a validator that raised something odd: still an argument error
        raise InvalidActionError(f"bad arguments: {exc}", rule=ARGS_RULE, input=_quote(data), legal=_fields(model)) from None


#: types whose values are JSON values as they are (floats are not: NaN and infinities are not JSON)
_PLAIN = frozenset({str, int, bool, type(None)})


def _plain_object(obj: dict[Any, Any], depth: int) -> bool:
    """Whether ``obj`` is already plain JSON (string keys; strings, whole numbers, booleans, nulls,
    and lists and objects of them down to ``depth`` more levels), so it needs no JSON round trip."""
    for k, v in obj.items():
        if type(k) is not str or (type(v) not in _PLAIN and not _plain_value(v, depth)):
            return False
    return True


def _plain_value(v: Any, depth: int) -> bool:
    t = type(v)
    if t in _PLAIN:
        return True
    if depth <= 0:
        return False
    if t is list:
        return all(type(x) in _PLAIN or _plain_value(x, depth - 1) for x in v)
    return t is dict and _plain_object(v, depth - 1)


#: how deeply tool arguments may nest (no tool needs more than a few levels)
MAX_DEPTH = 32


def too_deep(raw: Any) -> str | None:
    """The start of ``raw`` quoted if it nests deeper than :data:`MAX_DEPTH` (checked without
    recursion, so any depth is safe to look at), else ``None``."""
    if isinstance(raw, str):
        depth = peak = 0
        in_str = escaped = False
        for ch in raw:
            if in_str:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch in "[{":
                depth += 1
                peak = max(peak, depth)
                if peak > MAX_DEPTH:
                    return raw[:60] + "..."
            elif ch in "]}":
                depth -= 1
        return None
    stack: list[tuple[Any, int]] = [(raw, 0)]
    seen = 0
    while stack:
        obj, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"<arguments nested {MAX_DEPTH}+ levels deep>"
        seen += 1
        if seen > 100_000:
            return "<arguments with more than 100000 values>"
        if isinstance(obj, Mapping):
            stack.extend((v, depth + 1) for v in obj.values())
        elif isinstance(obj, list | tuple):
            stack.extend((v, depth + 1) for v in obj)
    return None


_OPTIONAL: dict[type[ToolArgs], frozenset[str]] = {}


def _optional_fields(model: type[ToolArgs]) -> frozenset[str]:
    """The model's optional fields (worked out once per model)."""
    found = _OPTIONAL.get(model)
    if found is None:
        found = _OPTIONAL[model] = frozenset(n for n, f in model.model_fields.items() if not f.is_required())
    return found


def _quote(data: Any) -> str:
    try:
        text = json.dumps(data, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        text = repr(data)
    return text if len(text) <= 200 else text[:197] + "..."


def _validation_reason(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            parts.append(f"{where}: unknown argument")
        elif err["type"] == "missing":
            parts.append(f"{where}: missing (required)")
        else:
            parts.append(f"{where}: {err['msg']}")
    more = f" (and {len(exc.errors()) - 3} more)" if len(exc.errors()) > 3 else ""
    return "; ".join(parts) + more


def unknown_tool(name: object, tools: Iterable[ToolSpec]) -> InvalidActionError:
    return InvalidActionError("no such tool", rule=TOOL_RULE, input=str(name)[:200], legal=[t.name for t in tools])


def call_for_action(tools: Iterable[ToolSpec], action: Action) -> tuple[str, dict[str, Any]]:
    """The tool call (name, arguments) that makes ``action``: a structured tool producing it, else a
    move-as-text tool (:func:`text_action_tool`) with the action's text; ``KeyError`` if none does."""
    texts = []
    for t in tools:
        if t.kind == "action" and t.produces == action.type:
            data = json.loads(json.dumps(action.to_json()))  # JSON values, as a model would send them
            data.pop("type", None)
            return t.name, {k: v for k, v in data.items() if k in t.args.model_fields}
        if t.covers:
            texts.append(t)
    if texts:
        return texts[0].name, {"action": str(action)}
    raise KeyError(action.type)


class _Everything:
    """The engine's own vantage (:func:`expected` as the state knows it, secrets included)."""

    def __repr__(self) -> str:
        return "EVERYTHING"


#: :func:`expected`'s viewer for the engine's own vantage (tests, bots): nothing left out
EVERYTHING = _Everything()


def expected(
    state: GameState[Any],
    tools: Sequence[ToolSpec],
    players: Mapping[str, str] | None = None,
    viewer: str | _Everything | None = EVERYTHING,
) -> list[dict[str, Any]]:
    """Who must act now, the decision they face and the tools that answer it.  ``viewer``: as that
    seat may be told it (``None``: a spectator): another seat's tools are those its kinds of action
    *as the viewer may know them* give (``GameState.action_kinds_seen``), so the list never tells
    what the viewer may not see; a seat's own tools are its own."""
    out = []
    index = _decision_index(tools)
    for seat in state.to_act():
        decision = state.decision(seat)
        answer = index.get(decision)
        if answer is None:
            answer = index[decision] = _answering(tools, decision)
        names, wanted = answer
        if wanted is not None:  # several tools answer: keep those whose kind of action the seat has now
            if viewer is EVERYTHING or viewer == seat:
                kinds = state.action_kinds(seat, wanted)
            else:
                kinds = state.action_kinds_seen(seat, viewer if isinstance(viewer, str) else None, wanted)
            names = [n for n, produces in names if produces is None or produces in kinds]
        entry: dict[str, Any] = {"seat": seat, "decision": decision, "tools": list(names)}
        if players is not None:
            entry["player"] = players.get(seat, "human")
        out.append(entry)
    return out


#: a decision's answer: the names of the action tools that answer it and, when the seat's kinds of
#: action decide between several, ((name, kind produced), ...) and the kinds asked about
_Answer = tuple[Any, frozenset[str] | None]
_INDEX: dict[int, tuple[Sequence[ToolSpec], dict[str | None, _Answer]]] = {}


def _answering(tools: Sequence[ToolSpec], decision: str | None) -> _Answer:
    cands = [t for t in tools if t.kind == "action" and (decision is None or decision in t.decisions)]
    if len(cands) > 1 and any(t.produces for t in cands):
        return tuple((t.name, t.produces) for t in cands), frozenset(t.produces for t in cands if t.produces)
    return tuple(t.name for t in cands), None


def _decision_index(tools: Sequence[ToolSpec]) -> dict[str | None, _Answer]:
    """Decision -> the action tools that answer it, filled in as decisions come up (one per tool list)."""
    # speed seam: decision-index - which tools answer a decision, worked out once per tool list (a
    # session's) and decision, not at every result's ``expected``: about a tenth of Grid Football's
    # Session.call with its result read.  Keyed by the list's identity, safe because the entry holds
    # the list itself (its id cannot be reused while it is kept).
    hit = _INDEX.get(id(tools))
    if hit is None or hit[0] is not tools:
        if len(_INDEX) > 256:
            _INDEX.clear()
        hit = _INDEX[id(tools)] = (tools, {})
    return hit[1]


# ------------------------------------------------------------- generic queries
class BoardArgs(ToolArgs):
    full: bool = Field(default=False, description="true for the whole board, false for the compact view around the action")


class RulesArgs(ToolArgs):
    topic: str | None = Field(
        default=None, max_length=200, description="a rule id or a word to search for; empty lists all rule ids"
    )


#: how many actions the legal-actions query lists of a space too large to list whole
LEGAL_PAGE = 20


def _board(state: GameState[Any], seat: str | None, args: BoardArgs) -> dict[str, Any]:
    g = state.game
    return {"board": g.render(state, seat, full=args.full), "status": g.status(state, seat)}


def _status(state: GameState[Any], seat: str | None, args: NoArgs) -> dict[str, Any]:
    return {"status": state.game.status(state, seat), "state": state.view(seat)}


def _legal(state: GameState[Any], seat: str | None, args: NoArgs) -> dict[str, Any]:
    if seat is None:
        return {"to_act": list(state.to_act()), "legal": []}
    legal = state.legal_actions(seat)
    if legal.is_space:  # too many to list: how many, a summary and the first few
        return {
            "to_act": list(state.to_act()),
            "decision": state.decision(seat),
            "count": len(legal),
            "summary": state.legal_summary(seat),
            "legal": [str(a) for a in legal.page(0, LEGAL_PAGE)],
        }
    return {
        "to_act": list(state.to_act()),
        "decision": state.decision(seat),
        "legal": [str(a) for a in legal],
    }


def rules_about(game: Game[Any, Any], rules: Any, topic: str | None) -> dict[str, str]:
    """The rules of ``game`` under ``rules`` (rule id -> text) a topic names: a rule id, or words of its
    text or the words players use for it (``Game.rule_words``); every rule when ``topic`` is empty."""
    index = game.rules_text(rules)
    if not topic or not topic.strip():
        return dict(index)
    key = topic.strip()
    if key.upper() in index:
        return {key.upper(): index[key.upper()]}
    words = key.lower().split()
    named = game.rule_words  # the words players use for a rule, beside the words of its text
    phrase = named.get(" ".join(words), ())  # a player's phrase ("hand off") names its rules whole
    return {rid: text for rid, text in index.items()
            if rid in phrase or all(w in f"{rid} {text}".lower() or rid in named.get(w, ()) for w in words)}


def _rules(state: GameState[Any], seat: str | None, args: RulesArgs) -> dict[str, Any]:
    return {"rules": rules_about(state.game, state.rules, args.topic)}


def generic_queries() -> list[ToolSpec]:
    """The query tools every game has."""
    return [
        ToolSpec("get_board", "Show the board as ASCII (the compact view around the action, or the full board) with the status line.", BoardArgs, "query", _board),
        ToolSpec("get_status", "Game status: score, clock, whose move, and what was last revealed, as this side may see it.", NoArgs, "query", _status),
        ToolSpec("legal_actions", "What the calling side may do right now, as action texts.", NoArgs, "query", _legal),
        ToolSpec("get_rules", "Look up the game's rules by rule id or keyword; each answer names its rule id.", RulesArgs, "query", _rules),
    ]
