"""The narration check measured on a corpus of true and false narrations of real seeded turns.

Each game ships its corpus as data, ``<game package>/eval/narrations.toml``: seeded games written
out move by move (``[[play]]``: ``seed``, optional ``rules`` and ``chance`` - the chance generator
the seed keys, a file-level ``chance`` applying to every play; without one ``mt19937``, what every
corpus written before generators were named used -, ``moves`` as ``"SEAT: move"`` in the game's
words), and turns of them (``[[play.turn]]``: ``id``, ``at`` - the index of the turn's first
move -, ``count`` moves - 0 for a message that made no move -, the ``seat`` narrated to, the
engine's ``events`` texts, and the narrations: ``true`` ones and ``[[play.turn.false]]`` ones, each
with the ``kind`` of claim it gets wrong).

:func:`measure` plays each game again through the tools of a session (every seat human), builds
each turn's facts exactly as the LLM referee does (:func:`gm.referee.llm.check.turn_facts`: the
turn's call results, the seat's status and view before and after, the rules summary, the events of
the two moves before), runs the narration check on every narration and reports, per game, the false
narrations caught and the true ones flagged.  A game that no longer plays the same (an event text
changed) is an error naming the turn, never a silent drift.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.narration import Facts

CORPUS_FILE = ("eval", "narrations.toml")


# alike on purpose: gm/eval/suite.py's SuiteError and Case have the same shape; each file's own error and record, declared, not logic
class CorpusError(GameError):
    """A narration corpus that cannot be used (unreadable, malformed, or a game that plays otherwise now)."""


@dataclass(frozen=True)
class Narration:
    """One narration of a turn: its text, whether it is true, and (a false one) the kind of claim it gets wrong."""

    text: str
    true: bool
    kind: str | None = None


@dataclass(frozen=True)
class Turn:
    """A player message's turn: ``count`` moves from move ``at`` (0: a message that made no move)."""

    id: str
    at: int
    count: int
    seat: str
    events: tuple[str, ...]
    narrations: tuple[Narration, ...]


@dataclass(frozen=True)
class Play:
    """A seeded game written out move by move, and the turns of it the corpus narrates."""

    seed: int
    rules: Mapping[str, Any]
    moves: tuple[tuple[str, str], ...]
    turns: tuple[Turn, ...]
    chance: str = "mt19937"


@dataclass
class Score:
    """How the narration check did on one game's corpus."""

    game: str
    true: int = 0
    false: int = 0
    flagged: list[tuple[str, str, list[str]]] = field(default_factory=list)  # true narrations found false: turn, text, findings
    missed: list[tuple[str, str, str]] = field(default_factory=list)  # false narrations passed: turn, kind, text
    kinds: dict[str, int] = field(default_factory=dict)  # false narrations per claim kind

    @property
    def false_caught(self) -> float:
        return 1 - len(self.missed) / self.false if self.false else 0.0

    @property
    def true_flagged(self) -> float:
        return len(self.flagged) / self.true if self.true else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "true": self.true, "false": self.false, "false_caught": round(self.false_caught, 4),
            "true_flagged": round(self.true_flagged, 4), "kinds": dict(sorted(self.kinds.items())),
            "missed": [list(m) for m in self.missed], "flagged": [[t, x, f] for t, x, f in self.flagged],
        }


def _narrations(raw: Mapping[str, Any], where: str) -> tuple[Narration, ...]:
    out = [Narration(str(t), True) for t in raw.get("true", [])]
    for f in raw.get("false", []):
        if not isinstance(f, Mapping) or not isinstance(f.get("text"), str) or not isinstance(f.get("kind"), str):
            raise CorpusError(f"{where}: a false narration needs a text and a kind", rule="GM-EVAL-CORPUS", input=str(f))
        out.append(Narration(f["text"], False, f["kind"]))
    return tuple(out)


def load_corpus(game: Game) -> list[Play]:
    """The game's corpus (``eval/narrations.toml`` in its package); a game without one has none."""
    from gm.core.game import package_toml

    found = package_toml(game, CORPUS_FILE, CorpusError, "GM-EVAL-CORPUS")
    if found is None:
        return []
    data, where = found
    chance = str(data.get("chance", "mt19937"))
    plays = []
    for p, raw in enumerate(data.get("play", [])):
        moves = []
        for m in raw.get("moves", []):
            seat, sep, text = str(m).partition(": ")
            if not sep or seat not in game.seats:
                raise CorpusError(f"{where} play {p + 1}: a move is 'SEAT: move', not {m!r}", rule="GM-EVAL-CORPUS", input=str(m))
            moves.append((seat, text))
        turns = tuple(
            Turn(str(t["id"]), int(t["at"]), int(t.get("count", 1)), str(t["seat"]), tuple(map(str, t.get("events", []))),
                 _narrations(t, f"{where} turn {t['id']}"))
            for t in raw.get("turn", [])
        )
        plays.append(Play(int(raw["seed"]), dict(raw.get("rules", {})), tuple(moves), turns, str(raw.get("chance", chance))))
    return plays


def play_facts(game: Game, play: Play) -> dict[str, Facts]:
    """Each turn's facts, the game played again through a session's tools (every seat human)."""
    from gm.referee.llm.check import turn_facts
    from gm.referee.llm.prompts import rules_summary
    from gm.referee.offline import tool_call_for
    from gm.session import Session

    session = Session.create(game, seed=play.seed, rules=dict(play.rules), players={s: "human" for s in game.seats},
                             persist=False, record=False, bot_seed=0, nonce_seed=0, chance=play.chance)
    starts: dict[int, list[Turn]] = {}
    for turn in play.turns:
        starts.setdefault(turn.at, []).append(turn)
    Open = tuple[Turn, str, dict[str, Any], list[Mapping[str, Any]], list[Mapping[str, Any]]]
    open_turns: list[Open] = []
    events_by_move: list[list[Mapping[str, Any]]] = []
    facts: dict[str, Facts] = {}
    summaries: dict[str, str] = {}

    def close(turn: Turn, before_status: str, before_view: dict[str, Any], results: list[Mapping[str, Any]],
              recent: list[Mapping[str, Any]]) -> None:
        said = tuple(str(ev.get("text", "")) for r in results for ev in r.get("events") or [] if isinstance(ev, Mapping))
        if said != turn.events:
            raise CorpusError(f"{game.id} turn {turn.id}: the engine now says {list(said)!r}, the corpus {list(turn.events)!r}; "
                              "the game plays otherwise now: build the corpus again", rule="GM-EVAL-CORPUS", input=turn.id)
        if turn.seat not in summaries:
            summaries[turn.seat] = rules_summary(game, session.state.rules, turn.seat, dict(session.players))
        facts[turn.id] = turn_facts(session, turn.seat, results=results, before_status=before_status, before_view=before_view,
                                    rules_text=summaries[turn.seat], recent_events=recent)

    for i in range(len(play.moves) + 1):
        for turn in starts.get(i, []):
            recent = [ev for evs in events_by_move[max(0, i - 2):i] for ev in evs]
            entry: Open = (turn, session.game.status(session.state, turn.seat), _view(session, turn.seat), [], recent)
            if turn.count == 0:
                close(*entry)
            else:
                open_turns.append(entry)
        if i == len(play.moves):
            break
        seat, text = play.moves[i]
        try:
            action = session.state.parse_action(text)
        except GameError as exc:
            raise CorpusError(f"{game.id} move {i} ({seat}: {text}): {exc}", rule="GM-EVAL-CORPUS", input=text) from None
        call = tool_call_for(game, session.state, seat, action)
        if call is None:
            raise CorpusError(f"{game.id} move {i} ({seat}: {text}): no tool makes it", rule="GM-EVAL-CORPUS", input=text)
        result = dict(session.call(call[0], call[1], seat))
        if not result.get("ok"):
            raise CorpusError(f"{game.id} move {i} ({seat}: {text}) refused: {(result.get('error') or {}).get('reason')}",
                              rule="GM-EVAL-CORPUS", input=text)
        events_by_move.append([ev for ev in result.get("events") or [] if isinstance(ev, Mapping)])
        for entry in list(open_turns):
            entry[3].append(result)
            turn = entry[0]
            if i == turn.at + turn.count - 1:
                open_turns.remove(entry)
                close(*entry)
    missing = [t.id for t in play.turns if t.id not in facts]
    if missing:
        raise CorpusError(f"{game.id}: turns {missing} lie beyond the moves written", rule="GM-EVAL-CORPUS", input=missing[0])
    return facts


def _view(session: Any, seat: str) -> dict[str, Any]:
    try:
        return dict(session.view(seat))
    except GameError:
        return {}


def measure(game: Game, plays: Sequence[Play] | None = None) -> Score:
    """Run the narration check on every narration of ``game``'s corpus."""
    from gm.referee.llm.check import check, strip_boards

    score = Score(game.id)
    for play in load_corpus(game) if plays is None else plays:
        facts = play_facts(game, play)
        for turn in play.turns:
            for n in turn.narrations:
                found = check(strip_boards(n.text)[0], facts[turn.id])
                if n.true:
                    score.true += 1
                    if found:
                        score.flagged.append((turn.id, n.text, found))
                else:
                    score.false += 1
                    score.kinds[str(n.kind)] = score.kinds.get(str(n.kind), 0) + 1
                    if not found:
                        score.missed.append((turn.id, str(n.kind), n.text))
    return score


def claim_kinds(game: Game) -> set[str]:
    """The kinds of claim ``game``'s narrations can make (what a corpus's false narrations must cover):
    the game's event and value claims (by ``what``), its custom checks (by name), and the shared
    ones - a move made, nothing happened, a score, the game over, a winner."""
    claims = game.narration_claims()
    kinds = {"move made", "nothing happened", "score", "game over", "winner"}
    kinds |= {ec.what for ec in claims.events} | {vc.what for vc in claims.values}
    kinds |= {getattr(c, "__name__", "custom").strip("_").replace("_", " ") for c in claims.custom}
    return kinds
