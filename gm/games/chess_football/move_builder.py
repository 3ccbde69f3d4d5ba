"""Chess-Football moves by pointing (``Game.move_builder``), from the engine's own lists of legal actions:

- a reaction turn: click one of your pieces, then a lit square and a position in it (C, NW, NE, SW,
  SE); or choose an ability and click its target; pass by clicking the receiver; play action; the
  hidden ball's holder; end your part of the turn;
- the snap plan: up to the planning board's rows, one row per piece, each built the same way from the
  board at the snap; the rows go in the movement order (captain, heavy, strong, fast, QB) and an
  empty plan holds;
- captains, the coin toss and 4th down: buttons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from gm.core.movebuilder import Part, builder, for_the_mover, form, sequence_form, where

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.games.chess_football.engine import ChessFootballState
    from gm.games.chess_football.field import Field

POSITION_WORDS = {"C": "C (centre)", "NW": "NW (top left)", "NE": "NE (top right)", "SW": "SW (bottom left)", "SE": "SE (bottom right)"}
PROMPTS = {
    "captains": "Name your two captains secretly",
    "coin_call": "Call the coin toss",
    "fourth_down": "4th down: punt or go for it",
    "snap_plan": "Plan the snap secretly: up to one row per piece, or hold",
    "turn": "Your part of the turn: move a piece, use an ability, pass, or end it",
}


def _square_where(name: str) -> dict[str, Any]:
    return where(ord(name[0]) - ord("A"), int(name[1:]))


class _Places:
    """The board locations of the pieces and squares the forms name (each looked up once)."""

    def __init__(self, f: Field) -> None:
        self.field = f
        self.pieces: dict[str, dict[str, Any]] = {}
        self.squares: dict[str, dict[str, Any]] = {}

    def piece(self, pid: str | None) -> str | None:
        if pid is not None and pid not in self.pieces:
            p = self.field.pieces[pid]
            self.pieces[pid] = where(p.sq[0], p.sq[1], ref=pid)
        return pid

    def square(self, name: str | None) -> str | None:
        if name is not None and name not in self.squares:
            self.squares[name] = _square_where(name)
        return name

    def piece_part(self, name: str, label: str, values: Iterable[str | None]) -> Part:
        chosen = {v for v in values if v is not None}
        return Part(name, label, input="piece", where={v: self.pieces[v] for v in chosen},
                    labels={v: self._piece_label(v) for v in chosen})

    def square_part(self, name: str, label: str, values: Iterable[str | None]) -> Part:
        return Part(name, label, input="square", where={v: self.squares[v] for v in {v for v in values if v is not None}})

    def _piece_label(self, pid: str) -> str:
        p = self.field.pieces[pid]
        what = p.role.replace("_", " ") if p.role else p.base
        return f"{pid} ({what})"


def _piece_forms(actions: Iterable[Action], f: Field, *, turn: bool) -> list[dict[str, Any]]:
    """The forms of a list of piece actions (a turn's, or one plan row's): move, ability, pass, play
    action (and in a turn: the ball's holder, done)."""
    from gm.games.chess_football.actions import ABILITY_WORDS, Ability, BallChoice, Done, Move, Pass, PlayAction

    places = _Places(f)
    moves: list[list[Any]] = []
    abilities: list[list[Any]] = []
    passes: dict[str, list[Any]] = {}
    plays: list[list[Any]] = []
    balls: list[list[Any]] = []
    done = False
    for a in actions:
        if isinstance(a, Move):
            moves.append([places.piece(a.piece), places.square(a.to), a.position, a.rush, a.route, str(a)])
        elif isinstance(a, Ability):
            abilities.append([places.piece(a.piece), a.ability, places.piece(a.target), places.square(a.to), a.position, str(a)])
        elif isinstance(a, Pass):
            carrier = a.passer or f.carrier
            if a.receiver not in passes or a.passer is not None:  # "QB pass to FA1" and "pass to FA1" are one pass
                passes[a.receiver] = [places.piece(carrier), places.piece(a.receiver), str(a)]
        elif isinstance(a, PlayAction):
            plays.append([places.piece(f.carrier), places.piece(a.partner), a.holder, str(a)])
        elif isinstance(a, BallChoice):
            balls.append([places.piece(a.holder), str(a)])
        elif isinstance(a, Done):
            done = True
    forms: list[dict[str, Any]] = []
    if moves:
        variants = {"false": "no", "true": "yes"}
        parts = [places.piece_part("piece", "Piece", (r[0] for r in moves)), places.square_part("to", "Square", (r[1] for r in moves)),
                 Part("position", "Position in the square", labels=POSITION_WORDS),
                 Part("rush", "Speed Rush (through opponents, costs 1)", labels=variants),
                 Part("route", "Route Running (no turn cost)", labels=variants)]
        forms.append(form("move_piece", "Move", parts, moves))
    if abilities:
        parts = [places.piece_part("piece", "Piece", (r[0] for r in abilities)),
                 Part("ability", "Ability", labels={r[1]: ABILITY_WORDS[r[1]] for r in abilities}),
                 places.piece_part("target", "Target", (r[2] for r in abilities)),
                 places.square_part("to", "Square", (r[3] for r in abilities)),
                 Part("position", "Position in the square", labels=POSITION_WORDS)]
        forms.append(form("use_ability", "Ability", parts, abilities))
    if passes:
        rows = list(passes.values())
        parts = [places.piece_part("piece", "Passer", (r[0] for r in rows)), places.piece_part("receiver", "Receiver", (r[1] for r in rows))]
        forms.append(form("pass_ball", "Pass", parts, rows, args={"receiver": "$receiver", "passer": "$piece"}))
    if plays:
        parts = [places.piece_part("piece", "Ball carrier", (r[0] for r in plays)), places.piece_part("partner", "Partner", (r[1] for r in plays)),
                 Part("holder", "Who keeps the ball (secret)", labels={r[2]: f"{r[2]} keeps it" for r in plays if r[2]} | {"null": "not named now"})]
        forms.append(form("play_action", "Play action", parts, plays, args={"partner": "$partner", "holder": "$holder"}, confirm=True))
    if balls:
        forms.append(form("choose_ball_holder", "Hidden ball", [places.piece_part("holder", "Holder", (r[0] for r in balls))], balls,
                          confirm=True))
    if turn and done:
        forms.append(form("end_turn", "End your part of the turn", [], [["done"]]))
    return forms


def _plan_form(state: ChessFootballState, seat: str) -> dict[str, Any]:
    """The snap plan as a sequence of rows, one per piece, each one of the piece's options on the board
    at the snap; sent in the movement order."""
    from gm.games.chess_football.options import piece_options

    board = state.plan_board(seat)
    team = sorted(board.team_pieces(seat), key=lambda p: (p.rank, p.id))
    rows: list[Action] = []
    for p in team:
        rows.extend(piece_options(board, seat, p.id, plan=True))
    items = _piece_forms(rows, board, turn=False)
    for item in items:
        item.pop("confirm", None)
    return sequence_form("submit_snap_plan", "Snap plan", items, arg="rows", max_items=min(state.rules.plan_rows, len(team)),
                         once="piece", sort=("piece", [p.id for p in team]),
                         help="Rows run in the movement order (captain, heavy, strong, fast, QB); a plan with no rows holds.")


@for_the_mover
def move_builder(state: ChessFootballState, seat: str) -> dict[str, Any]:
    """The forms of ``seat``'s decision now (see :mod:`gm.core.movebuilder`)."""
    from gm.games.chess_football.actions import CaptainPick, CoinCall, FourthDown

    decision = str(state.decision(seat))
    forms: list[dict[str, Any]]
    if decision == "turn":
        assert state.field is not None
        forms = _piece_forms(state.legal_actions(seat), state.field, turn=True)
    elif decision == "snap_plan":
        forms = [_plan_form(state, seat)]
    else:
        legal: Sequence[Action] = list(state.legal_actions(seat))
        forms = []
        caps = [a for a in legal if isinstance(a, CaptainPick)]
        if caps:
            roles = state.rules.captains
            labels = {n: f"{n.replace('_', ' ')} ({c.base})" for n, c in roles.items()}
            parts = [Part("offense", "Offense captain", labels=labels), Part("defense", "Defense captain", labels=labels)]
            forms.append(form("choose_captains", "Captains", parts, [[a.offense, a.defense, str(a)] for a in caps], confirm=True))
        coins = [a for a in legal if isinstance(a, CoinCall)]
        if coins:
            forms.append(form("call_coin_toss", "Call the toss", [Part("call", "Call")], [[a.call, str(a)] for a in coins]))
        fourth = [a for a in legal if isinstance(a, FourthDown)]
        if fourth:
            forms.append(form("fourth_down", "4th down", [Part("choice", "Choose", labels={"go": "go for it", "punt": "punt"})],
                              [[a.choice, str(a)] for a in fourth]))
    return builder(seat, decision, forms, prompt=PROMPTS.get(decision), summary=state.legal_summary(seat) if decision in ("turn", "snap_plan") else (),
                   examples=state.game.move_examples)
