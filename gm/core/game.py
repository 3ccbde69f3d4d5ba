"""The game description: id, seats, ruleset model, action parsing, rule ids, bots.

One :class:`Game` instance per game lives in the registry.  Nothing here is
specific to any one game: each game's sub-package subclasses it.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import sys
import threading
import tomllib
from abc import ABC
from collections import ChainMap
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel, ValidationError

from gm.core.actions import Action
from gm.core.errors import GameError, InvalidActionError, RulesetError
from gm.core.tools import ToolSpec, generic_queries

if TYPE_CHECKING:
    from gm.core.bots import Bot
    from gm.core.chance import Chance
    from gm.core.chatlog import ChatLog
    from gm.core.narration import Claims
    from gm.core.phrasing import Phrasing
    from gm.core.state import GameState

#: a game's ruleset model (a pydantic model) and its state class: ``class Chess(Game[ChessRules, ChessState])``
RulesT = TypeVar("RulesT", bound=BaseModel)
StateT = TypeVar("StateT", bound="GameState[Any]")

#: the hooks that only draw what a seat sees (read on every request, never part of a game's rules):
#: the ones :func:`reload_view_hooks` reads again when their file changes
VIEW_HOOKS = frozenset({"board_json", "move_builder"})
_RELOADING = False
#: rule id of a view hook that does not load after an edit (``gm serve --reload``)
HOOK_RULE = "CORE-HOOK"
_RELOAD_LOCK = threading.Lock()
#: each reloadable hook module's source file as last loaded: module name -> (path, mtime_ns, size)
_LOADED: dict[str, tuple[str, int, int]] = {}


def reload_view_hooks(on: bool = True) -> None:
    """While on, :meth:`Game.hook` reads a game's view hooks (:data:`VIEW_HOOKS`) again when their
    source file changed since they were loaded (``gm serve --reload``: a game author edits
    ``board_json.py`` and reloads the page).  A game's rules (engine, actions, bots) are never read
    again under a running game: changing them needs a restart."""
    global _RELOADING
    _RELOADING = on
    _LOADED.clear()


def _fresh(module: ModuleType) -> ModuleType:
    """``module``, imported again if its source file changed since it was last loaded here."""
    import contextlib
    import importlib.util
    import os

    spec = module.__spec__  # (the module's own source, whose edits are watched: no data is found next to it)
    path = spec.origin if spec is not None and spec.has_location else None
    if not path:
        return module
    try:
        st = os.stat(path)
    except OSError:
        return module
    seen = (path, st.st_mtime_ns, st.st_size)
    with _RELOAD_LOCK:  # (requests are served from several threads)
        last = _LOADED.get(module.__name__)
        if last == seen:
            return module
        if last is not None:
            # the cached bytecode is checked against the source's whole seconds and size only: an
            # edit within the same second and of the same size would load the old code
            with contextlib.suppress(OSError, NotImplementedError, ValueError):
                os.unlink(importlib.util.cache_from_source(path))
        # (first seen: read once more, it may have changed before the switch was turned on)
        try:
            module = importlib.reload(module)
        except Exception as exc:  # an edit that does not load: the caller is told, the file named
            where = f"{path}:{exc.lineno}" if isinstance(exc, SyntaxError) and exc.lineno else path
            raise GameError(f"the game's hook {module.__name__} does not load after an edit: {type(exc).__name__}: {exc}",
                            rule=HOOK_RULE, input=where) from exc
        _LOADED[module.__name__] = seen
        return module


#: every game's tools by ruleset (see :meth:`Game.tools`), and how many rulesets are kept at most
_TOOLS: dict[tuple[type, str, str | None], tuple[ToolSpec, ...]] = {}
_TOOLS_MAX = 64


def legacy_values(model: type[BaseModel] | BaseModel) -> Mapping[str, Any]:
    """The fields a ruleset model gained after rulesets of it were stored, each with the value that plays
    the game as it was played before the field existed (the model's ``legacy`` class attribute, e.g.
    ``{"tackle_reading": "pairs"}`` when a ruling's default reading changed; default: none).

    A ruleset stored without such a field was made under that value (:meth:`Game.load_rules` with
    ``legacy=True`` reads it so), and :func:`ruleset_hash` leaves the field out while it holds that value,
    so a game stored before the field existed keeps its hash and replays as it was made."""
    found = getattr(model, "legacy", None)
    return found if isinstance(found, Mapping) else {}


def ruleset_hash(rules: BaseModel) -> str:
    """SHA-256 (hex) of a ruleset's canonical JSON (a field at its :func:`legacy_values` value left out:
    the ruleset is the one hashed before that field existed)."""
    data = rules.model_dump(mode="json")
    for name, value in legacy_values(rules).items():
        if name in data and data[name] == value:
            del data[name]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def _format_validation_error(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """One line for a ruleset that failed validation: the field, what is wrong, and what would be
    right (the allowed range from the field's bounds; the field meant, for a misspelt one)."""
    errs = exc.errors()
    err = errs[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind == "extra_forbidden":
        known = _known_fields(model, err["loc"][:-1]) if model is not None else []
        guess = difflib.get_close_matches(str(err["loc"][-1]), known, n=1, cutoff=0.6)
        hint = f"; did you mean {guess[0]!r}?" if guess else (f"; fields here: {', '.join(known)}" if known else "")
        return f"{where}: no such field{hint}{more}"
    lo = _bound(model, err["loc"], ("ge", "gt")) if model is not None else None
    hi = _bound(model, err["loc"], ("le", "lt")) if model is not None else None
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") and lo is not None and hi is not None:
        return f"{where}: {err.get('input')!r} is out of range; allowed {lo} to {hi}{more}"
    if kind in ("too_long", "too_short") and "max_length" in ctx:
        return f"{where}: {err['msg']} (at most {ctx['max_length']}){more}"
    return f"{where}: {err['msg']}{more}"


def _field_info(model: type[BaseModel], loc: tuple[Any, ...]) -> Any:
    """The pydantic ``FieldInfo`` at ``loc`` inside ``model`` (through nested models), or ``None``."""
    cur: Any = model
    info = None
    for part in loc:
        if isinstance(cur, type) and issubclass(cur, BaseModel) and isinstance(part, str) and part in cur.model_fields:
            info = cur.model_fields[part]
            cur = _inner_model(info.annotation)
        elif isinstance(part, int | str) and info is not None:
            continue  # an item of a list or a value of a mapping: same bounds as the field's items
        else:
            return None
    return info


def _inner_model(annotation: Any) -> Any:
    import typing

    for arg in (annotation, *typing.get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
        for sub in typing.get_args(arg):
            if isinstance(sub, type) and issubclass(sub, BaseModel):
                return sub
    return annotation


def _known_fields(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    info = _field_info(model, loc) if loc else None
    inner = _inner_model(info.annotation) if info is not None else model
    return list(inner.model_fields) if isinstance(inner, type) and issubclass(inner, BaseModel) else []


def _bound(model: type[BaseModel], loc: tuple[Any, ...], names: tuple[str, ...]) -> Any:
    info = _field_info(model, loc)
    if info is None:
        return None
    for m in info.metadata:
        for n in names:
            v = getattr(m, n, None)
            if v is not None:
                return v
    return None


def _wants_a_number(annotation: Any) -> bool:
    """Whether a field of this type holds a number and not ``true``/``false`` (``int``, ``float``, a
    literal of numbers, a union of them; seen through ``Annotated`` and ``Optional``)."""
    import types
    import typing

    if annotation is int or annotation is float:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _wants_a_number(args[0])
    if origin is typing.Literal:
        return bool(args) and all(isinstance(a, int | float) and not isinstance(a, bool) for a in args)
    if origin is typing.Union or origin is types.UnionType:
        members = [a for a in args if a is not type(None)]
        return any(_wants_a_number(a) for a in members) and not any(a is bool or a is Any for a in members)
    return False


def _any_boolean(value: Any) -> bool:
    """Whether ``value`` holds ``true`` or ``false`` anywhere (nested mappings and lists)."""
    todo = [value]
    while todo:
        v = todo.pop()
        for x in v.values() if isinstance(v, dict | Mapping) else v:
            if x is True or x is False:
                return True
            if x is None or isinstance(x, str | int | float):  # (the leaves, told apart first: cheap)
                continue
            if isinstance(x, dict | list | tuple | Mapping):
                todo.append(x)
    return False


def _booleans(value: Any) -> list[tuple[tuple[Any, ...], bool]]:
    """Every ``true``/``false`` in ``value`` (nested mappings and lists), with where it is: rulesets
    hold few, so finding them first is what keeps :func:`_boolean_where_a_number_goes` cheap."""
    found: list[tuple[tuple[Any, ...], bool]] = []
    todo: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while todo:
        loc, v = todo.pop()
        if v is True or v is False:
            found.append((loc, v))
        elif isinstance(v, Mapping):
            todo.extend(((*loc, k), x) for k, x in v.items())
        elif isinstance(v, list | tuple):
            todo.extend(((*loc, i), x) for i, x in enumerate(v))
    return found


def _annotation_at(annotation: Any, loc: tuple[Any, ...]) -> Any:
    """The type a ruleset model gives the value at ``loc`` (through nested models, lists, tuples
    and mappings; ``None`` where it cannot tell)."""
    import types
    import typing

    for part in loc:
        while True:
            origin, args = typing.get_origin(annotation), typing.get_args(annotation)
            if origin is typing.Annotated:
                annotation = args[0]
            elif origin is typing.Union or origin is types.UnionType:
                members = [a for a in args if a is not type(None) and _annotation_at(a, (part,)) is not None]
                if len(members) != 1:
                    return None
                annotation = members[0]
            else:
                break
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(part))
            if field is None:
                return None
            annotation = field.annotation
        elif origin in (list, set, frozenset) and args:
            annotation = args[0]
        elif origin is tuple and args:
            annotation = args[0] if args[-1] is Ellipsis or not isinstance(part, int) or part >= len(args) else args[part]
        elif origin in (dict, Mapping) and len(args) == 2:
            annotation = args[1]
        else:
            return None
    return annotation


def _boolean_where_a_number_goes(model: type[BaseModel], data: Mapping[str, Any]) -> tuple[str, bool] | None:
    """Where ``data`` (a ruleset as given) holds ``true`` or ``false`` where a number goes (pydantic
    would read ``true`` as 1): ``(field, value)``, or ``None``.  Checked once here, for every game's
    ruleset, rather than per field.  (A yes/no where a table or a word goes is the game's model's to
    accept or refuse: Grid Football's ``plays.4 = false`` removes play 4.)"""
    if not _any_boolean(data):  # (the common case, found without working out where anything is)
        return None
    for loc, value in sorted(_booleans(data), key=lambda x: [str(p) for p in x[0]]):
        if _number_at(model, loc):
            return ".".join(str(p) for p in loc), value
    return None


@functools.lru_cache(maxsize=8192)
def _number_at(model: type[BaseModel], loc: tuple[Any, ...]) -> bool:
    """Whether the ruleset ``model`` wants a number at ``loc`` (worked out once per place: the
    yes/no fields of a ruleset are the same places every time it is loaded)."""
    return _wants_a_number(_annotation_at(model, loc))


class Game(ABC, Generic[RulesT, StateT]):
    """Describes one game; subclasses fill in the class attributes and hooks, naming their ruleset model
    and state class (``class Brawl(Game[BrawlRules, BrawlState])``) so every hook is typed with them."""

    id: ClassVar[str]
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    seats: ClassVar[tuple[str, ...]]
    #: the ruleset model (set on the class; not a ``ClassVar`` only because a ``ClassVar`` cannot name ``RulesT``)
    rules_model: type[RulesT]
    #: rule id -> one-line title; every rule id the engine can name is here.
    rules_index: ClassVar[Mapping[str, str]] = {}
    #: one sentence a player reads when choosing the game (the page's start page)
    tagline: ClassVar[str] = ""
    #: a few ways a player may state a move, in the game's words (shown in every referee's help)
    move_examples: ClassVar[tuple[str, ...]] = ()
    #: event kinds ``gm sim`` reports as headline rates, with their labels (``{"touchdown": "touchdowns"}``)
    sim_headlines: ClassVar[Mapping[str, str]] = {}
    #: words players use for the rules, with the rule ids they mean (``{"jump": ("GM4-MOVE",)}``): the
    #: rules lookup finds a rule by these as well as by the words of its own text
    rule_words: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: the rule ids a referee's rules summary must hold, whatever its budget: the rules that decide scoring,
    #: the end of a down or half, passing and tackling (a game's own summary template cites them; the
    #: default summary lists them first, worded from the session's ruleset, then the rest in order as room allows)
    summary_rules: ClassVar[tuple[str, ...]] = ()
    #: whether seats ever choose at the same time, each pick secret until all are in (a bot then commits to its
    #: pick first): the banners explain commitments only for such games (a test checks it against the engine)
    simultaneous: ClassVar[bool] = False
    #: rule ids of ends a cap or a whistle imposes rather than the rules' own end (a half stopped by the
    #: whistle, a match stopped after a number of rounds): ``gm sim`` and ``gm balance`` flag games ended so
    cap_rules: ClassVar[frozenset[str]] = frozenset()
    #: whether this is the game gm plays when none is named (``gm play``, ``gm sim``, ``gm export``);
    #: :func:`gm.core.registry.default_game` picks the one installed game that says so
    default: ClassVar[bool] = False
    #: the game's state class (:meth:`new_state` makes one; a game may override that instead)
    state_class: ClassVar[type[Any] | None] = None

    @property
    def package(self) -> str:
        """The import name of the package the game lives in; its ``templates/`` folder holds the
        game's documents (export templates, the referee's rules summary).  Default: the package
        of the module that defines the game's class."""
        module = type(self).__module__
        mod = sys.modules.get(module)
        return getattr(mod, "__package__", None) or module.rpartition(".")[0] or module

    # ----------------------------------------------------------------- rules
    def default_rules(self) -> RulesT:
        return self.rules_model()

    def load_rules(self, data: Mapping[str, Any] | BaseModel | None = None, *, legacy: bool = False) -> RulesT:
        """Validate a ruleset from a mapping (defaults for missing fields).  ``legacy``: the mapping was
        stored before some fields existed, so a missing field of :func:`legacy_values` takes the value that
        plays the game as it was then, not today's default."""
        if isinstance(data, self.rules_model):
            return data
        if isinstance(data, BaseModel):
            data = data.model_dump()
        fields = dict(data or {})
        if legacy:
            fields = {**legacy_values(self.rules_model), **fields}
        found = _boolean_where_a_number_goes(self.rules_model, fields)
        if found is not None:
            where, value = found
            raise RulesetError(f"{where}: {json.dumps(value)} is a yes/no value, and a number goes here", rule="CORE-RULES")
        try:
            return self.rules_model.model_validate(fields)
        except ValidationError as exc:
            raise RulesetError(_format_validation_error(exc, self.rules_model), rule="CORE-RULES") from None

    def load_rules_file(self, path: str | Path) -> RulesT:
        """Load a TOML rules file; any problem is one :class:`RulesetError` naming the field."""
        from gm.core.files import RULES_LIMIT, read_text

        p = Path(path)
        try:
            data = tomllib.loads(read_text(p, RULES_LIMIT, "rules file"))
        except FileNotFoundError:
            raise RulesetError(f"rules file not found: {p}", rule="CORE-RULES") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesetError(f"cannot read rules file {p}: {exc}", rule="CORE-RULES") from None
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError(f"rules file {p} is not valid TOML: {exc}", rule="CORE-RULES") from None
        try:
            return self.load_rules(data)
        except RulesetError as exc:
            raise RulesetError(f"rules file {p}: {exc.reason}", rule="CORE-RULES") from None

    def rules_text(self, rules: RulesT | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """Rule id -> the rule as ``rules`` has it (numbers and tables from the ruleset a session
        runs, not the defaults).  Default: the titles of :attr:`rules_index`."""
        return self.rules_index

    # ----------------------------------------------------------------- state
    def new_state(self, rules: RulesT | Mapping[str, Any] | None = None, seed: int = 0, chance: Chance | str | None = None) -> StateT:
        """A fresh game with ``rules`` (defaults when ``None``), ``seed`` and ``chance`` (the chance
        generator's id or a :class:`~gm.core.chance.Chance` setup; ``None``: what new games use),
        passed on to the state's constructor.  Default: one of :attr:`state_class`, given the loaded ruleset."""
        made: StateT = self._declared("state_class")(self.load_rules(rules), seed, chance)
        return made

    def parse_action(self, text: str) -> Action:
        """Parse an action's text form; raise :class:`InvalidActionError`.  Default: ``parse_action(text)`` of
        the game package's ``actions`` module."""
        action: Action = self._declared("actions", "parse_action")(text)
        return action

    def action_types(self) -> Mapping[str, type[Action]]:
        """The game's action classes by their ``type`` tag.  Default: ``ACTION_TYPES`` of the game package's
        ``actions`` module."""
        found: Mapping[str, type[Action]] = self._declared("actions", "ACTION_TYPES")
        return found

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Build an action from its JSON form; raise :class:`InvalidActionError`."""
        kind = data.get("type") if isinstance(data, Mapping) else None
        cls = self.action_types().get(str(kind))
        if cls is None:
            raise InvalidActionError(
                "unknown action type", rule="CORE-ACTION", input=str(kind), legal=sorted(self.action_types())
            )
        fields = {k: v for k, v in data.items() if k != "type"}
        try:
            return cls(**fields)
        except (TypeError, ValueError) as exc:
            raise InvalidActionError(str(exc), rule="CORE-ACTION", input=json.dumps(dict(data))) from None

    # ------------------------------------------------------------ rendering
    def render(self, state: StateT, seat: str | None = None, *, full: bool = False) -> str:
        """ASCII board for ``seat``'s eyes: a compact window, or the full board.  Default:
        ``render(state, seat, full=full)`` of the game package's ``board`` module."""
        board: str = self._declared("board", "render")(state, seat, full=full)
        return board

    def status(self, state: StateT, seat: str | None = None) -> str:
        """One status line (clock, score, whose move).  Default: ``status_line(state, seat)`` of the game
        package's ``board`` module."""
        line: str = self._declared("board", "status_line")(state, seat)
        return line

    def _declared(self, where: str, attr: str = "") -> Any:
        """What the default of a method every game has reads: the class attribute ``where`` (``state_class``),
        or ``attr`` of the game package's module ``where`` (found once per game object).  A game that neither
        declares it nor overrides the method gets a :class:`NotImplementedError` naming both."""
        # speed seam: declared-hooks - the function is found in the game's package once per game object,
        # not at each parse, render or status line (a status line 1.7 us instead of 2.9 us)
        found = self.__dict__.get("_found", {}).get((where, attr)) if attr else getattr(self, where, None)
        if found is None and attr:
            found = self.hook_attr(where, attr)
            if found is not None:
                self.__dict__.setdefault("_found", {})[(where, attr)] = found
        if found is None:
            name = f"{self.package}.{where}.{attr}" if attr else f"{type(self).__name__}.{where}"
            raise NotImplementedError(f"game {self.id!r} declares no {name}, and overrides no method that would stand in for it")
        return found

    def hook(self, name: str) -> ModuleType | None:
        """The module ``name`` of the game's :attr:`package` (``board_json``, ``move_builder``,
        ``chatlog``, ``narration``, ``bots``), or ``None`` when the package has none (an error inside
        the module is raised, never hidden).  The one place a game's optional hooks are found; while
        :func:`reload_view_hooks` is on, a view hook whose file changed is read again."""
        import importlib

        target = f"{self.package}.{name}"
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name != target:
                raise
            return None
        if _RELOADING and name in VIEW_HOOKS:
            module = _fresh(module)
        return module

    def hook_attr(self, name: str, attr: str) -> Any:
        """``attr`` of the game's hook module ``name`` (:meth:`hook`), or ``None`` (no module, no ``attr``)."""
        module = self.hook(name)
        return getattr(module, attr, None) if module is not None else None

    def board_json(self, state: StateT, seat: str | None = None) -> dict[str, Any] | None:
        """The board as drawable geometry for ``seat``'s eyes (the web page draws it as SVG), from
        what that seat may see only.  Default: the game package's ``board_json`` module, if it has
        one (``board_json(state, seat)``); ``None`` when it has none (the page shows the text board)."""
        module = self.hook("board_json")
        if module is None:
            return None
        result: dict[str, Any] = module.board_json(state, seat)
        return result

    def move_builder(self, state: StateT, seat: str | None = None) -> dict[str, Any]:
        """How ``seat`` may build its move now by pointing (the web page and the MCP App read it): every
        kind of move as a form of parts to choose (a choice, a piece or a square on the board) with
        the legal moves as rows, and how the parts become the game's tool call
        (:mod:`gm.core.movebuilder`; JSON Schema ``gm/core/move_builder.schema.json``).  Default: the
        game package's ``move_builder`` module (``move_builder(state, seat)``), else one form per
        action tool from the listed legal actions (:func:`gm.core.movebuilder.default_builder`)."""
        module = self.hook("move_builder")
        if module is None:
            from gm.core.movebuilder import default_builder

            return default_builder(self, state, seat)
        result: dict[str, Any] = module.move_builder(state, seat)
        return result

    # ---------------------------------------------------------------- export
    def export_context(self, rules: RulesT | Mapping[str, Any] | None) -> dict[str, Any]:
        """Extra context for the game's export templates (``templates/`` of its :attr:`package`):
        worked examples computed by the engine, derived tables.  Default: ``export_context(rules)`` of
        the game package's ``export`` module (given the loaded ruleset), if it has one; else nothing."""
        module = self.hook("export")
        if module is None or not hasattr(module, "export_context"):
            return {}
        found: dict[str, Any] = module.export_context(self.load_rules(rules))
        return found

    def chatlog(self) -> ChatLog | None:
        """The game's move-log format for chatbot games (:mod:`gm.core.chatlog`): ``CHATLOG`` of the
        ``chatlog`` module of the game's :attr:`package`, or ``None`` when the game has none."""
        from gm.core.chatlog import ChatLog as _ChatLog

        found = self.hook_attr("chatlog", "CHATLOG")
        return found if isinstance(found, _ChatLog) else None

    def narration_claims(self) -> Claims:
        """What a referee's narration of this game can claim, checked against the turn's events
        (:mod:`gm.core.narration`): ``CLAIMS`` of the ``narration`` module of the game's
        :attr:`package`; without one, only the claims every game shares (scores, the winner)."""
        from gm.core.narration import Claims as _Claims

        found = self.hook_attr("narration", "CLAIMS")
        return found if isinstance(found, _Claims) else _Claims()

    def phrasing(self) -> Phrasing:
        """How the offline referee reads what players type beyond the game's notation
        (:class:`gm.core.phrasing.Phrasing`: the game's words for typos and slang, and its hook for
        partial and relative moves): ``PHRASING`` of the game package's ``phrasing`` module, if it has
        one; else the parser alone, with numbers in words."""
        from gm.core.phrasing import PLAIN
        from gm.core.phrasing import Phrasing as _Phrasing

        found = self.hook_attr("phrasing", "PHRASING")
        return found if isinstance(found, _Phrasing) else PLAIN

    # ----------------------------------------------------------------- tools
    def action_tools(self, rules: RulesT | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        """The game's action tools (one per kind of decision a seat makes), described as
        ``rules`` (default: the default ruleset) has the game."""
        return []

    def tools(self, rules: RulesT | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        """Every tool of the game under ``rules``: the generic queries plus its action tools, made once
        per ruleset and shared by every session playing it (a tool is a frozen value; what an action
        tool keeps, the actions made from plain arguments, depends on the arguments alone)."""
        try:
            key = (type(self), self.id, None if rules is None else ruleset_hash(self.load_rules(rules)))
        except Exception:  # (a ruleset the game reads in its own way: made each time, as asked)
            return [*generic_queries(), *self.action_tools(rules)]
        made = _TOOLS.get(key)
        if made is None:
            if len(_TOOLS) >= _TOOLS_MAX:
                _TOOLS.clear()
            made = _TOOLS[key] = (*generic_queries(), *self.action_tools(rules))
        return list(made)

    def model_tools(self, rules: RulesT | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        """The tools offered to a language model referee: :meth:`tools` unless a game keeps the
        prompt small by standing one move-as-text tool in for several structured ones
        (:func:`gm.core.tools.text_action_tool`; the move is still made through them)."""
        return self.tools(rules)

    # ------------------------------------------------------------------ bots
    def bots(self) -> Mapping[str, Callable[..., Bot]]:
        """Bot strategies by name; ``default`` and ``random`` at least: ``BOTS`` of the game package's
        ``bots`` module, if it has one; else none of its own (the core's bots still serve: :meth:`strategies`)."""
        found = self.hook_attr("bots", "BOTS")
        return found if isinstance(found, Mapping) else {}

    def strategies(self) -> Mapping[str, Callable[..., Bot]]:
        """Every bot a seat of this game may be given: the game's own (:meth:`bots`) and those the core gives
        every game (``search``: :mod:`gm.core.search`, tuned by :meth:`search_hints`); a game's own bot of
        the same name comes first."""
        from gm.core.bots import core_bots

        found = dict(core_bots())
        hints = self.search_hints()
        if hints:
            from gm.core.search import search_factory

            found["search"] = search_factory(**hints)
        # a ChainMap, not a merged dict: a game's mapping may name bots it does not list (Grid Football's
        # ``always-P-COLOUR``), and a lookup must still reach it
        return ChainMap(cast("dict[str, Callable[..., Bot]]", self.bots()), found)

    def search_hints(self) -> Mapping[str, Any]:
        """How the game tunes the core's search bot (the arguments of :func:`gm.core.search.search_factory`: an
        evaluation of unfinished games, a rollout policy, a prior, the decisions too wide to list, a model of
        the other seats, the default iterations and depth): ``SEARCH`` of the game package's ``bots`` module,
        if any; without it the game gets the plain search."""
        found = self.hook_attr("bots", "SEARCH")
        return found if isinstance(found, Mapping) else {}

    def lines(self) -> Mapping[str, Callable[..., Bot]]:
        """Simple scripted lines a designer checks against the default bot (``gm balance`` flags one that
        beats it: a sign of a dominant line), by name, besides the core's "the same kind of move every turn"
        for every kind: ``LINES`` of the game package's ``bots`` module (factories taking ``seed``), if any."""
        found = self.hook_attr("bots", "LINES")
        return found if isinstance(found, Mapping) else {}

    def make_bot(self, name: str, seed: int = 0) -> Bot:
        """The bot a spec names (``default``, ``bot:random``, ``bot:search?iters=50``), seeded; a strategy or a
        parameter it does not know is a :class:`GameError` (``CORE-BOT``) naming what would be right."""
        from gm.core.bots import split_spec
        from gm.core.errors import GameError

        factories = self.strategies()
        key, params = split_spec(name)
        key = key or ("default" if "default" in factories else "random")
        if key not in factories:
            raise GameError(
                f"unknown bot strategy for {self.id}", rule="CORE-BOT", input=name, legal=sorted(factories)
            )
        try:
            return factories[key](seed=seed, **params)
        except TypeError:
            if not params:
                raise
            raise GameError(f"bot:{key} takes no parameters", rule="CORE-BOT", input=name, legal=[f"bot:{key}"]) from None


def package_toml(game: Game[Any, Any], parts: tuple[str, ...], error: type[GameError], rule: str) -> tuple[dict[str, Any], str] | None:
    """A TOML file in the game's package (``parts``: its path there) and where it is, read with
    :mod:`importlib.resources` (so a wheel carries it); ``None`` when the game has none; ``error``
    (with ``rule``) when it does not parse."""
    from importlib import resources

    node = resources.files(game.package).joinpath(*parts)
    if not node.is_file():
        return None
    where = f"{game.package}/{'/'.join(parts)}"
    try:
        data: dict[str, Any] = tomllib.loads(node.read_text(encoding="utf-8"))
        return data, where
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: {exc}", rule=rule, input=where) from None
