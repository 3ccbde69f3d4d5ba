"""Grid Football moves by pointing (``Game.move_builder``): every decision is chosen from buttons - the
coin toss call, kick or receive, a kick pick (position and colour), a secret number, and a play call
(play, colour and, for the offense, the lateral columns, direction and timing; or punt), each offering
only what the rules allow now, from the engine's own list of legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.movebuilder import Part, builder, for_the_mover, form, key

if TYPE_CHECKING:
    from gm.games.grid_football.engine import GridFootballState

PROMPTS = {
    "coin_call": "Call the coin toss",
    "kick_choice": "Kick off or receive?",
    "kick_pick": "Pick your kick secretly: a position and a colour (matches shorten the return)",
    "number_pick": "Pick a number secretly (a match decides the check)",
    "play_call": "Call your play secretly",
}
COLOURS = {"red": "red (pass)", "black": "black (run)"}
TIMING = {"before": "lateral first, then forward", "after": "forward first, then lateral"}


@for_the_mover
def move_builder(state: GridFootballState, seat: str) -> dict[str, Any]:
    """The forms of ``seat``'s decision now (see :mod:`gm.core.movebuilder`)."""
    from gm.games.grid_football.actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt

    decision = str(state.decision(seat))
    legal = list(state.legal_actions(seat))
    forms: list[dict[str, Any]] = []
    coins = [a for a in legal if isinstance(a, CoinCall)]
    if coins:
        forms.append(form("call_coin_toss", "Call the toss", [Part("call", "Call")], [[a.call, str(a)] for a in coins]))
    choices = [a for a in legal if isinstance(a, KickChoice)]
    if choices:
        forms.append(form("choose_kick_or_receive", "Kick or receive", [Part("choice", "Kick off or receive")], [[a.choice, str(a)] for a in choices]))
    kicks = [a for a in legal if isinstance(a, KickPick)]
    if kicks:
        parts = [Part("position", "Position"), Part("colour", "Colour")]
        forms.append(form("pick_kick", "Kick pick", parts, [[a.position, a.colour, str(a)] for a in kicks], confirm=True))
    numbers = [a for a in legal if isinstance(a, NumberPick)]
    if numbers:
        forms.append(form("pick_number", "Secret number", [Part("number", "Number")], [[a.number, str(a)] for a in numbers], confirm=True))
    calls = [a for a in legal if isinstance(a, PlayCall)]
    if calls:
        plays = state.rules.plays
        offense = seat == state.offense
        parts = [
            Part("play", "Play", labels={key(n): f"{n} {plays[n].name}" for n in sorted({a.play for a in calls})}),
            Part("colour", "Colour", labels=COLOURS),
        ]
        if offense:
            laterals = sorted({a.lateral for a in calls})
            parts += [
                Part("lateral", "Lateral columns", labels={key(n): "none" if n == 0 else f"{n} column{'s' if n > 1 else ''}" for n in laterals}),
                Part("direction", "Lateral direction", labels={"left": f"left (toward column {_col(0)})",
                                                               "right": f"right (toward column {_col(state.rules.columns - 1)})"}),
                Part("timing", "Lateral timing", labels=TIMING),
            ]
        rows: list[list[Any]] = []
        for a in calls:
            rows.append([a.play, a.colour, *((a.lateral, a.direction, a.timing) if offense else ()), str(a)])
        args = {p.name: f"${p.name}" for p in parts}
        forms.append(form("call_play", "Call a play", parts, rows, args=args, confirm=True))
    if any(isinstance(a, Punt) for a in legal):
        forms.append(form("punt", "Punt", [], [["punt"]]))
    return builder(seat, decision, forms, prompt=PROMPTS.get(decision), summary=state.legal_summary(seat) if len(legal) > 24 else (),
                   examples=state.game.move_examples)


def _col(c: int) -> str:
    from gm.games.grid_football.engine import col_letter

    return str(col_letter(c))
