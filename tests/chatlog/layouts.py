"""A game played in gm, written out as a chatbot might write its move log: every table and list shape
chatbots use, with gm's own claims (the chat log's line) or gm's own status line after each exchange.
The tests audit these logs: whatever the shape, a log of gm's own game holds nothing to flag."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gm.core.actions import Action
from gm.core.events import Event
from gm.core.game import Game
from gm.core.state import GameState


@dataclass(frozen=True)
class Exchange:
    """One line of the log: the chat log's label, the moves by seat (in order), gm's claims after it (the
    chat log's own words) and gm's status line after it."""

    label: str
    moves: tuple[tuple[str, tuple[str, ...]], ...]
    claims: tuple[str, ...]
    status: str

    def moves_text(self) -> str:
        return " | ".join(f"{seat}: {', '.join(acts)}" for seat, acts in self.moves)


def exchanges(game: Game, state: GameState[Any]) -> tuple[list[Exchange], GameState[Any]]:
    """``state``'s game as the chat log writes it, an exchange a line (as :func:`gm.core.chatlog.exchanges`),
    and the game as it stands after the last whole exchange (what the log holds)."""
    chatlog = game.chatlog()
    assert chatlog is not None
    fresh = state.fresh()  # (the seed, the generator and any outcomes supplied to the game)
    out: list[Exchange] = []
    group: list[tuple[str, Action]] = []
    events: list[Event] = []
    closed = 0
    for move in state.log:
        evs = fresh.apply(move.seat, move.action)
        group.append((move.seat, move.action))
        events.extend(evs)
        if chatlog.closes(fresh, evs):
            out.append(_exchange(game, fresh, group, events, len(out) + 1))
            group, events = [], []
            closed = len(fresh.log)
    return out, state.rebuilt(closed)


def _exchange(game: Game, state: GameState[Any], group: list[tuple[str, Action]], events: list[Event], n: int) -> Exchange:
    chatlog = game.chatlog()
    assert chatlog is not None
    line = chatlog.line_text(state, group, events, n)
    by_seat: dict[str, list[str]] = {}
    for seat, action in group:
        by_seat.setdefault(seat, []).append(str(action))
    moves = tuple((s, tuple(a)) for s, a in by_seat.items())
    segments = line.split(" | ")
    label = segments[0].split(" ", 1)[0]
    claims = tuple(s for s in segments[len(moves) :])
    assert line == f"{label} " + " | ".join([f"{s}: {', '.join(a)}" for s, a in moves] + list(claims)), line
    return Exchange(label, moves, claims, game.status(state, None))


# ------------------------------------------------------------------ the shapes
Layout = Callable[[Game, list[Exchange], bool], str]


def _after(x: Exchange, status: bool) -> str:
    return x.status if status else " | ".join(x.claims)


def line(x: Exchange, status: bool = False) -> str:
    """The exchange as one line of the log: label, moves, and gm's claims (or status line)."""
    after = _after(x, status)
    return f"{x.label} {x.moves_text()}" + (f" | {after}" if after else "")


def plain(game: Game, xs: list[Exchange], status: bool) -> str:
    """gm's own lines under the heading."""
    return "## Move log\n\n" + "\n".join(line(x, status) for x in xs) + "\n"


def bullets(game: Game, xs: list[Exchange], status: bool) -> str:
    """A bulleted list with bold labels and a dash after them, chatter around it."""
    rows = [f"- **{x.label}** \u2014 {x.moves_text()} | {_after(x, status)}" for x in xs]
    return "Here's the game so far!\n\n**Move log**\n\n" + "\n".join(rows) + "\n\nYour move!\n"


def numbered(game: Game, xs: list[Exchange], status: bool) -> str:
    """A numbered list, labels dropped (the numbers are the chatbot's)."""
    return "### Move Log\n" + "\n".join(f"{i}. {x.moves_text()} | {_after(x, status)}" for i, x in enumerate(xs, 1)) + "\n"


def log_prefix(game: Game, xs: list[Exchange], status: bool) -> str:
    """``Log:`` before every line, no heading."""
    return "\n".join(f"Log: {line(x, status)}" for x in xs) + "\n"


def move_prefix(game: Game, xs: list[Exchange], status: bool) -> str:
    """``Move 12:`` before every line, in a code fence."""
    body = "\n".join(f"Move {i}: {x.moves_text()} | {_after(x, status)}" for i, x in enumerate(xs, 1))
    return f"Move log:\n```text\n{body}\n```\n"


def table_line(game: Game, xs: list[Exchange], status: bool) -> str:
    """A ``#`` column and the whole line in one cell, its pipes escaped the GFM way."""
    rows = [f"| {i} | {x.label} {x.moves_text()} \\| {_after(x, status).replace('|', chr(92) + '|')} |" for i, x in enumerate(xs, 1)]
    return "## Move log\n\n| # | Line |\n|---|------|\n" + "\n".join(rows) + "\n"


def table_loose(game: Game, xs: list[Exchange], status: bool) -> str:
    """A ``#`` column and the line in one cell whose pipes are not escaped (the cells do not line up)."""
    rows = [f"| {i} | {x.label} {x.moves_text()} | {_after(x, status)} |" for i, x in enumerate(xs, 1)]
    return "## Move log\n\n| # | Move |\n|:-:|:--|\n" + "\n".join(rows) + "\n"


#: how chatbots write an empty cell
EMPTY = ("", "-", "\u2014", "n/a", "\u2013", "\u2014")


def table_seats(game: Game, xs: list[Exchange], status: bool) -> str:
    """A column per seat (``| # | Home | Away | After |``), empty cells written every way, the label in
    the first column, bold seat names in the header; the claims' pipes escaped."""
    head = "| # | " + " | ".join(f"**{s.title()}**" for s in game.seats) + " | After |"
    rule = "|" + "---|" * (len(game.seats) + 2)
    rows = []
    for i, x in enumerate(xs):
        acts = dict(x.moves)
        cells = [", ".join(acts[s]) if s in acts else EMPTY[(i + k) % len(EMPTY)] for k, s in enumerate(game.seats)]
        after = _after(x, status).replace("|", "\\|")
        rows.append(f"| {x.label} | " + " | ".join(cells) + f" | {after} |")
    return "Updated log:\n\n" + head + "\n" + rule + "\n" + "\n".join(rows) + "\n"


def table_side(game: Game, xs: list[Exchange], status: bool) -> str:
    """A row per seat's part of an exchange (``| Turn | Side | Move | Result |``), the claims on the
    exchange's last row."""
    rows = []
    for x in xs:
        for k, (seat, acts) in enumerate(x.moves):
            last = k == len(x.moves) - 1
            after = _after(x, status).replace("|", "\\|") if last else ""
            rows.append(f"| {x.label} | {seat.title()} | {', '.join(acts)} | {after} |")
    return "## Move log\n\n| Turn | Side | Move | Result |\n| --- | --- | --- | --- |\n" + "\n".join(rows) + "\n"


def restated(game: Game, xs: list[Exchange], status: bool) -> str:
    """The log written as it grows: after every few lines the chatbot writes it all again, without a
    heading, between chatter (a restated prefix is read once)."""
    out = []
    step = max(1, len(xs) // 4)
    for end in range(step, len(xs) + step, step):
        out.append("Assistant: the log so far:\n")
        out += [line(x, status) for x in xs[: min(end, len(xs))]]
        out.append("\nUser: ok, go on.\n")
    return "\n".join(out) + "\n"


LAYOUTS: dict[str, Layout] = {
    "plain": plain, "bullets": bullets, "numbered": numbered, "log_prefix": log_prefix, "move_prefix": move_prefix,
    "table_line": table_line, "table_loose": table_loose, "table_seats": table_seats, "table_side": table_side,
    "restated": restated,
}  # fmt: skip
