"""The board inside the chat: gm's MCP App (the ``io.modelcontextprotocol/ui`` extension, SEP-1865).

A chat client that renders MCP Apps shows the ``ui://gm/board`` resource (one HTML document,
``text/html;profile=mcp-app``) in a sandboxed frame beside the result of every tool that shows the
game (``_meta.ui.resourceUri``: the action tools, ``get_status``, ``get_board`` and the tools that
start, join or resume a game).  The view draws the engine's board (``Game.board_json``, with the
page's own drawing code, :mod:`gm.web`), the status, the last moves and, when the client's seat must
act, its legal moves to click; a click calls the move's own game tool through the host.  Secret
picks show their commitment, and a reveal is checked in the browser (SHA-256 of ``nonce:choice``).

Everything the view is given is one seat's view (:func:`view_of`: ``Session.view(seat)``, the board
for that seat, that seat's legal moves), so it never holds another seat's locked pick or hand.  It
learns of the game through the results the host forwards (a result of a tool that shows the game
carries :func:`view_of` under ``_meta["gm/view"]``: data for the view, not the model) and through
:data:`VIEW_TOOL`, a long poll it calls through the host to hear of the other seats' moves.  Both of
the app's own tools are visible to the app only, and listed only to clients that render apps:
another client sees gm exactly as before.

The HTML is put together when first read (:func:`html`): ``view/view.html`` with its style and
script inline, and the page's ES modules (``gm/web/static``) the script imports inlined too
(:func:`bundle`): one source for the page and the app, and no network in the view.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pydantic import Field

from gm.core.tools import ToolArgs, ToolSpec, call_for_action
from gm.mcp_server.resource import ResourceInfo

if TYPE_CHECKING:
    from gm.mcp_server.host import McpHost
    from gm.session import Session

EXTENSION_ID = "io.modelcontextprotocol/ui"
APP_MIME = "text/html;profile=mcp-app"
APP_URI = "ui://gm/board"
#: where a result carries the app's view of the game (``_meta`` of a tool result: for the view only)
VIEW_META = "gm/view"
VIEW_TOOL = "app_view"
PLAY_TOOL = "app_play"
#: the longest a view's long poll waits for a move (seconds; below the usual 60 s request timeout)
MAX_WAIT = 25
#: the most legal moves a view lists as buttons (beyond them: the count, a summary, and typing)
MAX_MOVES = 64
#: how many of the last log entries and reveals a view shows
LOG_TAIL = 12
REVEALS = 6
#: the queries that show the game (every action tool does too)
SHOWING = ("get_status", "get_board")


class AppViewArgs(ToolArgs):
    since: str | None = Field(default=None, max_length=300, description="the version of the view already drawn: wait for a newer one")
    wait: int | None = Field(default=None, ge=0, le=MAX_WAIT, description="seconds to wait for a move when the view is still current; empty: answer at once")


class AppPlayArgs(ToolArgs):
    move: str = Field(min_length=1, max_length=300, description="the move, written as legal_actions lists it")


def app_tools(host: McpHost) -> list[ToolSpec]:
    """The board app's own tools (visible to the app only, listed only to clients that render apps)."""
    return [
        ToolSpec(VIEW_TOOL, "The board app's view of your game: board, status, last moves, your legal moves; with since and wait, waits for the next move of any side.", AppViewArgs, "query", host._app_view_tool),
        ToolSpec(PLAY_TOOL, "Make a move written as text (the game's notation) through the game tool that makes it.", AppPlayArgs, "action", host._app_play_tool),
    ]


def shows_game(name: str, tools: Sequence[ToolSpec]) -> bool:
    """Whether the tool ``name`` shows the game (links the board app): every action tool and the
    board and status queries."""
    if name in SHOWING:
        return True
    return any(t.name == name and t.kind == "action" for t in tools)


def tool_meta(spec: ToolSpec, *, app_only: bool) -> dict[str, Any] | None:
    """``_meta`` of a tool for a client that renders apps: the board app for the tools that show the
    game (visible to the model and the app), the app's own tools visible to the app only, nothing
    for the rest.  The deprecated flat key is written too, for hosts that read only it."""
    if app_only:
        return {"ui": {"resourceUri": APP_URI, "visibility": ["app"]}}
    if spec.kind == "action" or spec.name in SHOWING:
        return {"ui": {"resourceUri": APP_URI, "visibility": ["model", "app"]}, "ui/resourceUri": APP_URI}
    return None


def resource_info() -> ResourceInfo:
    return ResourceInfo(
        APP_URI, "board-app", "Board (MCP App)", "The board of your game, live, with your moves to click: an MCP App for chat clients that render them.",
        APP_MIME, {"ui": {"prefersBorder": True}},
    )


# ------------------------------------------------------------------ the view
def legal_moves(s: Session, seat: str) -> dict[str, Any]:
    """The seat's legal moves as the view offers them: each with the game tool call that makes it
    (at most :data:`MAX_MOVES`; a space too large to list is counted and summarised)."""
    st = s.state
    legal = st.legal_actions(seat)
    count = len(legal)
    actions = list(legal.page(0, MAX_MOVES)) if legal.is_space else [a for _, a in zip(range(MAX_MOVES), legal, strict=False)]
    moves = []
    for action in actions:
        try:
            tool, args = call_for_action(s.tools, action)
        except KeyError:
            continue
        moves.append({"text": str(action), "tool": tool, "args": args})
    decision = st.decision(seat)
    out: dict[str, Any] = {"decision": getattr(decision, "value", decision), "count": count, "moves": moves}
    if count > len(moves):
        out["summary"] = st.legal_summary(seat)
    return out


def builder_of(s: Session, seat: str) -> dict[str, Any] | None:
    """How the seat may build its move by pointing (``Game.move_builder``, the page's hook: the view
    draws it with the page's ``builder.js``), where the game contract has it."""
    make = getattr(s.game, "move_builder", None)
    if not callable(make):
        return None
    built: dict[str, Any] = make(s.state, seat)
    return built


def view_of(s: Session, seat: str) -> dict[str, Any]:
    """What the board app shows of session ``s`` to ``seat``: only what that seat may see."""
    st = s.state
    view = s.view(seat)
    mine = not st.is_terminal and any(e["seat"] == seat for e in view["expected"])
    log = view["log"]
    return {
        "version": f"{s.id}#{s.stored_count}",
        "session": s.id,
        "game": s.game.id,
        "game_name": s.game.name,
        "seat": seat,
        "players": view["players"],
        "practice": view["practice"],
        "seed": view["seed"],
        "seed_commitment": view["seed_commitment"],
        "moves": len(st.log),
        "status": view["status"],
        "board": s.game.board_json(st, seat),
        "ascii": s.game.render(st, seat, full=True),
        "log": log[-LOG_TAIL:],
        "log_from": max(0, len(log) - LOG_TAIL),
        "expected": view["expected"],
        "your_turn": mine,
        "legal": legal_moves(s, seat) if mine else None,
        "builder": builder_of(s, seat) if mine else None,
        "commitments": view["commitments"],
        "reveals": view["reveals"][-REVEALS:],
        "outcome": view["outcome"],
    }


# ------------------------------------------------------------------ the HTML
# alike on purpose: the games' move-log readers compile their patterns the same way; these read ES module imports and exports (the inliner's own grammar)
_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?\s*$')
_IMPORT_ALL = re.compile(r'^import\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*"([^"]+)";?\s*$')
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)")
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};?\s*$")
_DYNAMIC = re.compile(r"(?<![\w$.])import\s*\(")


class BundleError(ValueError):
    """A module the inliner cannot take (it reads only static named imports and exports)."""


def _names(spec: str) -> list[tuple[str, str]]:
    out = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        bits = part.split()
        if len(bits) == 3 and bits[1] == "as":
            out.append((bits[0], bits[2]))
        elif len(bits) == 1:
            out.append((bits[0], bits[0]))
        else:
            raise BundleError(f"cannot read the import or export {part!r}")
    return out


def bundle(*entries: str, read: Any = None) -> str:
    """The ES modules ``entries`` (paths inside the ``gm`` package) and the modules they import, as one
    script: each module in a function of its own that returns its exports (``__gm_<path>``), in import
    order, each once.  Reads only what gm's own modules use: ``import { a, b as c } from "./x.js"``,
    ``import * as x from "./x.js"`` and ``export`` before a declaration or of a name list; anything
    else is a :class:`BundleError` (a test builds the app)."""
    read = read or (lambda path: resources.files("gm").joinpath(path).read_text(encoding="utf-8"))
    order: list[str] = []
    exports: dict[str, list[tuple[str, str]]] = {}
    bodies: dict[str, str] = {}

    def load(path: str, stack: tuple[str, ...]) -> None:
        if path in bodies:
            return
        if path in stack:
            raise BundleError(f"import cycle through {path}")
        lines = []
        names: list[tuple[str, str]] = []
        for line in read(path).splitlines():
            m = _IMPORT.match(line) or _IMPORT_ALL.match(line)
            if m:
                dep = posixpath.normpath(posixpath.join(posixpath.dirname(path), m.group(2)))
                load(dep, (*stack, path))
                if m.re is _IMPORT_ALL:
                    lines.append(f"const {m.group(1)} = {_module_var(dep)};")
                else:
                    pairs = ", ".join(f"{a}: {b}" if a != b else a for a, b in _names(m.group(1)))
                    lines.append(f"const {{ {pairs} }} = {_module_var(dep)};")
                continue
            if line.startswith("import ") or _DYNAMIC.search(line):
                raise BundleError(f"{path}: only static named imports can be inlined: {line.strip()[:80]}")
            m = _EXPORT_DECL.match(line)
            if m:
                names.append((m.group(2), m.group(2)))
                lines.append(line[len("export"):].lstrip())
                continue
            m = _EXPORT_LIST.match(line)
            if m:
                names.extend(_names(m.group(1)))
                continue
            if line.startswith("export"):
                raise BundleError(f"{path}: cannot inline this export: {line.strip()[:80]}")
            lines.append(line)
        bodies[path] = "\n".join(lines)
        exports[path] = names
        order.append(path)

    for entry in entries:
        load(entry, ())
    parts = []
    for path in order:
        ret = ", ".join(f"{outer}: {inner}" if outer != inner else inner for inner, outer in exports[path])
        parts.append(f"// {path}\nconst {_module_var(path)} = (() => {{\n{bodies[path]}\nreturn {{ {ret} }};\n}})();")
    return "\n".join(parts)


def _module_var(path: str) -> str:
    return "__gm_" + re.sub(r"\W", "_", path)


VIEW_DIR = "mcp_server/view"


#: the page's move builder (``Game.move_builder`` drawn step by step) and the board's own style sheet:
#: the view composes them when the package has them, else it lists the legal moves as buttons
BUILDER_JS = "web/static/builder.js"
BOARD_CSS = "web/static/board.css"


@lru_cache(maxsize=1)
def html() -> str:
    """The board app: one self-contained HTML document (made once per process)."""
    files = resources.files("gm")
    page = files.joinpath(f"{VIEW_DIR}/view.html").read_text(encoding="utf-8")
    if files.joinpath(BOARD_CSS).is_file():
        board_css = files.joinpath(BOARD_CSS).read_text(encoding="utf-8")
    else:  # the page's one style sheet: only its board rules (the rest is the page's layout, by id)
        page_css = files.joinpath("web/static/style.css").read_text(encoding="utf-8")
        board_css = "\n".join(line for line in page_css.splitlines() if line.startswith("svg.board"))
    style = board_css + "\n" + files.joinpath(f"{VIEW_DIR}/view.css").read_text(encoding="utf-8")
    has_builder = files.joinpath(BUILDER_JS).is_file()
    modules = bundle(*([BUILDER_JS] if has_builder else []), f"{VIEW_DIR}/view.js")
    view_start = f"// {VIEW_DIR}/view.js"  # the view comes last: what it uses is defined before it
    script = modules.replace(view_start, f"const GM_BUILDER = {_module_var(BUILDER_JS) if has_builder else 'null'};\n{view_start}", 1)
    constants = json.dumps({"viewTool": VIEW_TOOL, "playTool": PLAY_TOOL, "viewMeta": VIEW_META, "maxWait": MAX_WAIT})
    return (
        page.replace("/*STYLE*/", style.replace("</style", "<\\/style"))
        .replace("/*CONSTANTS*/", f"const GM = {constants};")
        .replace("/*SCRIPT*/", script.replace("</script", "<\\/script"))
    )


__all__ = [
    "APP_MIME", "APP_URI", "EXTENSION_ID", "PLAY_TOOL", "VIEW_META", "VIEW_TOOL", "AppPlayArgs", "AppViewArgs", "BundleError",
    "app_tools", "bundle", "html", "legal_moves", "resource_info", "shows_game", "tool_meta", "view_of",
]
