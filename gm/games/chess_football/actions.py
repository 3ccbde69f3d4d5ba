"""Chess-Football actions: one small frozen value per kind of decision.

Text forms (``str(action)``) parse back exactly (``parse_action(str(a)) == a``):

- ``captains deep_threat safety`` - the secret captain pick (offensive role, defensive role)
- ``heads`` / ``tails`` - the coin toss call
- ``punt`` / ``go for it`` - the 4th-down declaration
- ``FA1 to H20 NW``, ``FA1 rush to H20 C``, ``DT route to K19 SE`` - a move (square + position)
- ``HV1 push HV3``, ``ST1 engage FA3``, ``HV1 chip HV2``, ``HV1 chop HV3``, ``HV1 retreat to G10 C``,
  ``SF react``, ``SC juke``, ``NB jam``, ``NB seal``, ``LB impact HV3``, ``LM anchor HV1`` - abilities
- ``QB pass to FA2`` - a pass; ``play action FA1 ball FA1`` - play action (who holds the ball is secret)
- ``ball FA1`` - choose who holds the hidden ball; ``done`` - end your part of the turn
- ``plan: LB to H14 C; HV1 push HV3; QB pass to FA2`` (``plan: hold`` = nobody moves) - the snap plan:
  up to 7 rows in order, each row one of the piece actions above.

:meth:`Action.public_text` (``public`` below) is what the other side may read: the secret
ball holder is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gm.core import actions
from gm.core.actions import Action
from gm.core.errors import InvalidActionError, bad_input

POSITIONS = ("C", "NW", "NE", "SW", "SE")
PIECE_RE = re.compile(r"^[A-Z]{2}[0-9]?$")
SQUARE_RE = re.compile(r"^[A-Z][0-9]{1,2}$")
#: default captain codes (the parser also accepts role names)
ROLE_CODES = {
    "safety": "SF", "nickelback": "NB", "rusher": "RU", "scrambler": "SC",
    "deep_threat": "DT", "lead_blocker": "LB", "lineman": "LM",
}
CODE_ROLES = {v: k for k, v in ROLE_CODES.items()}
#: ability -> text word
ABILITY_WORDS = {
    "push": "push", "chop_block": "chop", "chip_block": "chip", "retreat": "retreat", "engage": "engage",
    "react": "react", "juke": "juke", "jam": "jam", "seal": "seal", "impact": "impact", "anchor": "anchor",
}
WORD_ABILITIES = {v: k for k, v in ABILITY_WORDS.items()}
TARGETED = ("push", "chop_block", "chip_block", "engage", "impact", "anchor")


#: the rule id of every "not a well-formed action" error
SYNTAX = "CF-SYNTAX"


_set = object.__setattr__


def _trusted(cls: type[Action], **fields: Any) -> Any:
    """An action built from values the engine produced (already normalised): no validation."""
    a = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(a, k, v)
    return a


def _piece(value: object, what: str = "piece") -> str:
    if not isinstance(value, str):
        raise bad_input(f"a {what} is a piece id such as FA1 or QB", value, rule=SYNTAX)
    v = value.strip().upper()
    role = v.lower().replace(" ", "_").replace("-", "_")
    if role in ROLE_CODES:
        v = ROLE_CODES[role]
    if v == "QUARTERBACK":
        v = "QB"
    if not PIECE_RE.match(v):
        raise bad_input(f"a {what} is a piece id such as FA1, HV3, QB or a captain code (SF, DT ...)", value, rule=SYNTAX)
    return v


def _square(value: object) -> str:
    if not isinstance(value, str) or not SQUARE_RE.match(value.strip().upper()):
        raise bad_input("a square is a column letter and a row number, e.g. H12", value, rule=SYNTAX)
    return value.strip().upper()


def _position(value: object) -> str:
    if not isinstance(value, str) or value.strip().upper() not in POSITIONS:
        raise bad_input("a position is C, NW, NE, SW or SE", value, rule=SYNTAX, legal=POSITIONS)
    return value.strip().upper()


def _role(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise bad_input("a captain role is a name such as deep_threat or safety", value, rule=SYNTAX)
    v = value.strip().lower().replace(" ", "_").replace("-", "_")
    return CODE_ROLES.get(v.upper(), v)


class PieceAction(Action):
    """A piece's action (move, ability, pass, play action): allowed as a snap plan row."""

    __slots__ = ()
    piece: str | None


@dataclass(frozen=True, slots=True)
class CaptainPick(Action):
    """Secretly name your captains: one offensive role and one defensive role."""

    offense: str
    defense: str
    type: ClassVar[str] = "captains"

    def __post_init__(self) -> None:
        object.__setattr__(self, "offense", _role(self.offense))
        object.__setattr__(self, "defense", _role(self.defense))

    def __str__(self) -> str:
        return f"captains {self.offense} {self.defense}"


@dataclass(frozen=True, slots=True)
class CoinCall(actions.CoinCall):
    """Call the coin toss: heads or tails."""

    rule: ClassVar[str] = SYNTAX


# alike on purpose: a one-word action declares only its words, message and rule (gm.core.actions.OneWord
# checks and writes it); these are this game's own
@dataclass(frozen=True, slots=True)
class FourthDown(actions.OneWord):
    """4th down: punt, or go for it."""

    choice: str
    type: ClassVar[str] = "fourth_down"
    words: ClassVar[tuple[str, ...]] = ("punt", "go")
    mistake: ClassVar[str] = "on 4th down choose punt or go (go for it)"
    rule: ClassVar[str] = SYNTAX

    def __str__(self) -> str:
        return "punt" if self.choice == "punt" else "go for it"


@dataclass(frozen=True, slots=True)
class Move(PieceAction):
    """Move a piece to a square and a position there (C, NW, NE, SW, SE); optionally with
    Speed Rush (through occupied squares) or Route Running (no direction-change cost)."""

    piece: str
    to: str
    position: str = "C"
    rush: bool = False
    route: bool = False
    type: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        object.__setattr__(self, "piece", _piece(self.piece))
        object.__setattr__(self, "to", _square(self.to))
        object.__setattr__(self, "position", _position(self.position))
        for f in ("rush", "route"):
            if not isinstance(getattr(self, f), bool):
                raise bad_input(f"{f} is true or false", getattr(self, f), rule=SYNTAX)

    @classmethod
    def trusted(cls, piece: str, to: str, position: str, rush: bool = False, route: bool = False) -> Move:
        """Build from values the engine produced (already normalised; skips validation)."""
        a = object.__new__(cls)
        _set(a, "piece", piece)
        _set(a, "to", to)
        _set(a, "position", position)
        _set(a, "rush", rush)
        _set(a, "route", route)
        return a

    def __str__(self) -> str:
        how = "rush " if self.rush else "route " if self.route else ""
        if self.rush and self.route:
            how = "rush route "
        return f"{self.piece} {how}to {self.to} {self.position}"


@dataclass(frozen=True, slots=True)
class Ability(PieceAction):
    """Use an ability: push, chop, chip, engage, impact, anchor (with a target piece),
    retreat (with a square), react, juke, jam, seal (no target)."""

    piece: str
    ability: str
    target: str | None = None
    to: str | None = None
    position: str | None = None
    type: ClassVar[str] = "ability"

    def __post_init__(self) -> None:
        object.__setattr__(self, "piece", _piece(self.piece))
        ab = self.ability.strip().lower().replace(" ", "_") if isinstance(self.ability, str) else self.ability
        ab = WORD_ABILITIES.get(ab, ab) if isinstance(ab, str) else ab
        if ab not in ABILITY_WORDS:
            raise bad_input("unknown ability", self.ability, rule=SYNTAX, legal=tuple(sorted(ABILITY_WORDS)))
        object.__setattr__(self, "ability", ab)
        if ab in TARGETED:
            if self.target is None:
                raise bad_input(f"{ab} needs a target piece, e.g. '{self.piece} {ABILITY_WORDS[ab]} HV3'", self.ability, rule=SYNTAX)
            object.__setattr__(self, "target", _piece(self.target, "target"))
        elif self.target is not None:
            raise bad_input(f"{ab} takes no target", self.target, rule=SYNTAX)
        if ab == "retreat":
            if self.to is None:
                raise bad_input(f"retreat needs a square, e.g. '{self.piece} retreat to G10 C'", self.ability, rule=SYNTAX)
            object.__setattr__(self, "to", _square(self.to))
            object.__setattr__(self, "position", _position(self.position or "C"))
        elif self.to is not None or self.position is not None:
            raise bad_input(f"{ab} takes no square", self.to or self.position, rule=SYNTAX)

    @classmethod
    def trusted(cls, piece: str, ability: str, target: str | None = None, to: str | None = None,
                position: str | None = None) -> Ability:
        """Build from values the engine produced (already normalised; skips validation)."""
        a = object.__new__(cls)
        _set(a, "piece", piece)
        _set(a, "ability", ability)
        _set(a, "target", target)
        _set(a, "to", to)
        _set(a, "position", position)
        return a

    def __str__(self) -> str:
        word = ABILITY_WORDS[self.ability]
        if self.ability == "retreat":
            return f"{self.piece} retreat to {self.to} {self.position}"
        if self.target:
            return f"{self.piece} {word} {self.target}"
        return f"{self.piece} {word}"


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class Pass(PieceAction):
    """Declare a pass to a receiver (thrown when the ball moves, after the defense has moved)."""

    receiver: str
    passer: str | None = None
    type: ClassVar[str] = "pass"

    def __post_init__(self) -> None:
        object.__setattr__(self, "receiver", _piece(self.receiver, "receiver"))
        if self.passer is not None:
            object.__setattr__(self, "passer", _piece(self.passer, "passer"))

    @classmethod
    def trusted(cls, receiver: str, passer: str | None = None) -> Pass:
        """Build from values the engine produced (already normalised; skips validation)."""
        return _trusted(cls, receiver=receiver, passer=passer)

    @property
    def piece(self) -> str | None:  # type: ignore[override]
        return self.passer

    def __str__(self) -> str:
        return f"{self.passer} pass to {self.receiver}" if self.passer else f"pass to {self.receiver}"


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class PlayAction(PieceAction):
    """Play action by the ball carrier with an adjacent non-Heavy ally; ``holder`` (the
    carrier or the partner) secretly keeps the ball (none named: the carrier keeps it).
    In a snap plan no holder is named (plans are revealed in full): choose later with ``ball X``."""

    partner: str
    holder: str | None = None
    type: ClassVar[str] = "play_action"

    def __post_init__(self) -> None:
        object.__setattr__(self, "partner", _piece(self.partner, "partner"))
        if self.holder is not None:
            object.__setattr__(self, "holder", _piece(self.holder, "holder"))

    @classmethod
    def trusted(cls, partner: str, holder: str | None = None) -> PlayAction:
        """Build from values the engine produced (already normalised; skips validation)."""
        return _trusted(cls, partner=partner, holder=holder)

    @property
    def piece(self) -> str | None:  # type: ignore[override]
        return None

    def __str__(self) -> str:
        return f"play action {self.partner}" + (f" ball {self.holder}" if self.holder else "")

    def public_text(self) -> str:
        return f"play action {self.partner}"


@dataclass(frozen=True, slots=True)
class BallChoice(Action):
    """While the ball is hidden: choose (secretly) which of the pair holds it."""

    holder: str
    type: ClassVar[str] = "ball_choice"

    def __post_init__(self) -> None:
        object.__setattr__(self, "holder", _piece(self.holder, "holder"))

    def __str__(self) -> str:
        return f"ball {self.holder}"

    def public_text(self) -> str:
        return "ball choice"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End your side's part of the current turn."""

    type: ClassVar[str] = "done"

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Plan(Action):
    """A snap plan: up to 7 rows (order = row number), each a move, ability, pass or play action."""

    rows: tuple[PieceAction, ...] = field(default=())
    type: ClassVar[str] = "plan"

    def __post_init__(self) -> None:
        rows = self.rows
        if isinstance(rows, str):
            rows = _split_plan(rows)
        if not isinstance(rows, list | tuple):
            raise bad_input("a plan's rows are a list of actions", rows, rule=SYNTAX)
        if len(rows) > 20:
            raise bad_input("a plan has at most 20 rows (the board has 7)", f"{len(rows)} rows", rule=SYNTAX)
        out: list[PieceAction] = []
        for item in rows:
            r: object = item
            if isinstance(item, str):
                r = parse_row(item)
            elif isinstance(item, dict):
                r = _from_json(item)
            if not isinstance(r, PieceAction):
                raise bad_input("a plan row is a move, an ability, a pass or a play action", r, rule=SYNTAX, legal=ROW_FORMS)
            out.append(r)
        object.__setattr__(self, "rows", tuple(out))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "rows": [str(r) for r in self.rows]}

    def __str__(self) -> str:
        return "plan: " + ("; ".join(str(r) for r in self.rows) if self.rows else "hold")

    def public_text(self) -> str:
        return "plan: " + ("; ".join(r.public_text() for r in self.rows) if self.rows else "hold")


ACTION_TYPES: dict[str, type[Action]] = {
    c.type: c for c in (CaptainPick, CoinCall, FourthDown, Move, Ability, Pass, PlayAction, BallChoice, Done, Plan)
}

ROW_FORMS = (
    "FA1 to H20 NW",
    "FA1 rush to H20 C",
    "HV1 push HV3",
    "ST1 engage FA3",
    "HV1 retreat to G10 C",
    "SF react",
    "QB pass to FA2",
    "play action FA1 ball FA1",
    "play action FA1",
)
FORMS = (
    "captains deep_threat safety",
    "heads",
    "punt",
    "go for it",
    *ROW_FORMS,
    "ball FA1",
    "done",
    "plan: LB to H14 C; HV1 push HV3; QB pass to FA2",
    "plan: hold",
)


def _from_json(data: dict[str, Any]) -> Action:
    cls = ACTION_TYPES.get(str(data.get("type")))
    if cls is None:
        raise bad_input("unknown action type", data.get("type"), rule=SYNTAX, legal=tuple(sorted(ACTION_TYPES)))
    try:
        return cls(**{k: v for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise bad_input(str(exc), data, rule=SYNTAX) from None


def public_text(action: Action) -> str:
    """What the other side may read of ``action`` (secret holders left out)."""
    return action.public_text()


# ---------------------------------------------------------------- parsing
_KIND_CODES = {"fast": "fa", "heavy": "hv", "strong": "st"}
_PHRASES: tuple[tuple[str, Any], ...] = (
    (r"->|=>|→", " to "),
    (r"\bgo for it\b", " go "),
    (r"\bspeed[\s_-]*rush(es|ing)?\b", " rush "),
    (r"\broute[\s_-]*running\b", " route "),
    (r"\bchop[\s_-]*block\b", " chop "),
    (r"\bchip[\s_-]*block\b", " chip "),
    (r"\bplay[\s_-]*action\b", " playaction "),
    (r"\bend[\s_-]*(my\s+|the\s+|our\s+)?(turn|phase|move|moves)\b", " done "),
    (r"\bnorth[\s_-]*west\b", " nw "),
    (r"\bnorth[\s_-]*east\b", " ne "),
    (r"\bsouth[\s_-]*west\b", " sw "),
    (r"\bsouth[\s_-]*east\b", " se "),
    (r"\b(centre|center|middle)\b", " c "),
    (r"\bdeep[\s_-]*threat\b", " dt "),
    (r"\blead[\s_-]*blocker\b", " lb "),
    (r"\bquarter[\s_-]*back\b", " qb "),
    (r"\b(?:the\s+)?(fast|heavy|strong)(?:\s+(?:no\.?|number|#))?\s*(\d)\b",
     lambda m: f" {_KIND_CODES[m.group(1)]}{m.group(2)} "),  # "fast 1", "heavy #2" -> FA1, HV2
    (r"\b([a-z])-(\d{1,2})\b", r"\1\2"),  # "H-20" -> H20
    (r"\bthat'?s\s+(it|all)\b", " done "),
    (r"\b(hand[\s_-]*off|hand\s+it\s+off|handing\s+off)\b", " handoff "),
)
_NOISE = {"the", "a", "my", "our", "with", "and", "then", "square", "position", "at", "onto", "into", "on", "in", "please", "i", "we",
          "will", "m", "ll", "re", "ve", "d", "s", "let", "lets", "us", "now"}
#: common two-letter words that are no piece ids
_NOT_PIECES = {"to", "nw", "ne", "sw", "se", "go", "up", "it", "is", "of", "or", "an", "as", "by", "do", "if", "no", "so", "me", "he",
               "be", "ok", "am", "oh"}
#: words around a one-word decision ("I'll call heads", "let's punt it") that change nothing
_TALK = {"call", "calls", "calling", "take", "takes", "pick", "choose", "it", "say", "coin", "toss", "for", "go", "want", "like",
         "to", "try", "gonna", "ball", "away", "kick", "is", "are", "be", "should", "shall", "do", "decide", "decision", "down",
         "fourth", "4th", "on", "this"}
#: plan texts that mean "nobody moves"
_HOLD = re.compile(r"^\s*(?:snap\s+)?(?:plan\s*:?\s*)?(?:(?:we|i|everyone|everybody|all)\s+)?(?:hold|holds|stay|stays|stay put|"
                   r"nobody moves|no one moves|no moves|no plan|empty plan|nothing|none|hold all|all hold)\s*[.!]?\s*$", re.I)
_ROLE_TOKENS = {"safety": "sf", "nickelback": "nb", "rusher": "ru", "scrambler": "sc", "lineman": "lm", "quarterback": "qb"}


def _norm(text: str) -> str:
    t = text.lower()
    for pat, rep in _PHRASES:
        t = re.sub(pat, rep, t)
    return t


def _tokens(text: str) -> list[str]:
    toks = re.findall(r"[a-z0-9_]+", _norm(text))
    return [t for t in toks if t not in _NOISE]


def _is_square(t: str) -> bool:
    return bool(re.fullmatch(r"[a-z][0-9]{1,2}", t))


def _is_piece(t: str) -> bool:
    return bool(re.fullmatch(r"[a-z]{2}[0-9]?", t)) and t not in _NOT_PIECES


def _piece_tok(t: str) -> str | None:
    t = _ROLE_TOKENS.get(t, t)
    return t.upper() if _is_piece(t) else None


def _role_tok(t: str) -> str | None:
    """A captain role named by a token: its name, code (``dt``) or the start of its name (``nickel``)."""
    if t.upper() in CODE_ROLES:
        return CODE_ROLES[t.upper()]
    if t in ROLE_CODES:
        return t
    hits = [r for r in ROLE_CODES if len(t) >= 4 and r.startswith(t)]
    return hits[0] if len(hits) == 1 else None


#: the default sides of the roles, to put a pick named defense-first in order ("safety and deep threat")
_DEFENSE_ROLES = ("safety", "nickelback", "rusher")


def split_rows(text: str) -> list[PieceAction]:
    """Several piece actions in one text joined by commas, ``;``, ``and`` or ``then`` (a plan typed
    without ``plan:``); ``[]`` unless every part reads as a piece action."""
    parts = [p for p in re.split(r"\s*(?:[,;\n]|\band then\b|\bthen\b|\band\b)\s*", text.strip().rstrip(".")) if p.strip()]
    rows: list[PieceAction] = []
    for part in parts:
        try:
            rows.append(parse_row(part))
        except InvalidActionError:
            return []
    return rows


def _split_plan(text: str) -> list[str]:
    body = re.sub(r"^\s*(snap\s+)?plan\s*:?", "", text.strip(), flags=re.I)
    parts = re.split(r"[;\n]+|(?:^|\s)\d+\s*[.)]\s+", body)
    rows = []
    for p in parts:
        p = re.sub(r"^\s*(row\s*)?\d+\s*[.):-]?\s+", "", p.strip(), flags=re.I).strip(" ,.")
        if p and p.lower() not in ("hold", "none", "nothing", "hold all", "everyone holds", "no moves"):
            rows.append(p)
    return rows


def parse_row(text: str) -> PieceAction:
    """Parse one piece action (a plan row or a reaction-turn action)."""
    a = parse_action(text)
    if not isinstance(a, PieceAction):
        raise bad_input("a plan row is a move, an ability, a pass or a play action", text, rule=SYNTAX, legal=ROW_FORMS)
    return a


_CANON_MOVE = re.compile(r"^([A-Z]{2}[0-9]?) (rush |route |rush route )?to ([A-Z][0-9]{1,2}) (C|NW|NE|SW|SE)$")
_CANON_TARGET = re.compile(r"^([A-Z]{2}[0-9]?) (push|chop|chip|engage|impact|anchor) ([A-Z]{2}[0-9]?)$")
_CANON_SELF = re.compile(r"^([A-Z]{2}[0-9]?) (react|juke|jam|seal)$")
_CANON_PASS = re.compile(r"^(?:([A-Z]{2}[0-9]?) )?pass to ([A-Z]{2}[0-9]?)$")


def _canonical(text: str) -> Action | None:
    """Fast path for the canonical text forms (``str(action)``), e.g. when a log is replayed."""
    m = _CANON_MOVE.match(text)
    if m:
        how = m.group(2) or ""
        return Move.trusted(m.group(1), m.group(3), m.group(4), "rush" in how, "route" in how)
    m = _CANON_TARGET.match(text)
    if m:
        return Ability(m.group(1), WORD_ABILITIES[m.group(2)], m.group(3))
    m = _CANON_SELF.match(text)
    if m:
        return Ability(m.group(1), m.group(2))
    m = _CANON_PASS.match(text)
    if m:
        return Pass(m.group(2), m.group(1))
    if text == "done":
        return Done()
    if text.startswith("plan: "):
        body = text[6:]
        if body == "hold":
            return Plan(())
        rows = []
        for part in body.split("; "):
            row = _canonical(part)
            if not isinstance(row, PieceAction):
                return None
            rows.append(row)
        return Plan(tuple(rows))
    return None


def parse_action(text: str) -> Action:
    """Parse the text form of any Chess-Football action (tolerant of natural phrasing; see ``FORMS``)."""
    if not isinstance(text, str) or not text.strip():
        raise bad_input("empty action", text, rule=SYNTAX, legal=FORMS)
    fast = _canonical(text)
    if fast is not None:
        return fast
    raw = text.strip()
    if _HOLD.match(raw):
        return Plan(())
    if re.match(r"^\s*(snap\s+)?plan\b|^\s*1\s*[.)]\s", raw, re.I) or ";" in raw or "\n" in raw:  # "1. NB seal 2. ..."
        return Plan(tuple(_split_plan(raw)))  # type: ignore[arg-type]
    toks = _tokens(raw)
    if not toks:
        raise bad_input("not a Chess-Football action", text, rule=SYNTAX, legal=FORMS)
    head = toks[0]
    words = [t for t in toks if t not in ("offense", "offensive", "defense", "defensive", "captain", "captains", "are", "is")]
    roles = [_role_tok(t) for t in words]
    if head in ("captain", "captains") or (len(words) == 2 and all(roles)):
        if len(words) != 2:  # after 'captains' any two words: the engine names the roles there are
            raise bad_input("name two captains: 'captains deep_threat safety' (offense, defense)", text, rule=SYNTAX, legal=FORMS)
        off, de = roles[0] or words[0], roles[1] or words[1]
        if head not in ("captain", "captains") and off in _DEFENSE_ROLES and de not in _DEFENSE_ROLES:
            off, de = de, off  # two roles named defense first ('captains X Y' keeps its order: offense, defense)
        return CaptainPick(off, de)
    calls = [t for t in toks if t in ("heads", "tails")]
    if len(calls) == 1 and all(t in _TALK or t in ("heads", "tails") for t in toks):
        return CoinCall(calls[0])
    if "punt" in toks and all(t in _TALK or t == "punt" for t in toks):
        return FourthDown("punt")
    if toks.count("go") == 1 and all(t in _TALK for t in toks):
        return FourthDown("go")
    if toks[0] in ("done", "end", "finish", "finished", "over", "next") and len(toks) <= 2:
        return Done()
    if "playaction" in toks:
        return _parse_play_action(toks[toks.index("playaction") + 1:], text)
    if "pass" in toks or "throw" in toks or "throws" in toks or "passes" in toks:
        i = next(k for k, t in enumerate(toks) if t in ("pass", "throw", "throws", "passes"))
        if any(_piece_tok(t) is None for t in toks[:i] if t not in ("move", "ball")):  # "FA1 to C14 then pass to FA1"
            raise bad_input("a pass reads 'QB pass to FA2' (one action at a time)", text, rule=SYNTAX, legal=FORMS)
        before = [p for p in (_piece_tok(t) for t in toks[:i] if t not in ("move", "ball")) if p]
        after = [p for p in (_piece_tok(t) for t in toks[i + 1:] if t not in ("to", "ball")) if p]
        if len(after) != 1 or len(before) > 1:
            raise bad_input("a pass reads 'QB pass to FA2'", text, rule=SYNTAX, legal=FORMS)
        return Pass(after[0], before[0] if before else None)
    holds = "it" in toks and _piece_tok(toks[0]) and set(toks[1:]) <= _BALL_VERBS and set(toks[1:]) & _HOLDS  # "QB keeps it"
    if head in ("ball", "handoff", "give", "keep") or ("ball" in toks and set(toks) & _BALL_VERBS) or holds:
        who = [p for p in (_piece_tok(t) for t in toks if t not in _BALL_VERBS) if p]
        if len(who) == 1:
            return BallChoice(who[0])
        raise bad_input("name the piece that holds the ball: 'ball FA1'", text, rule=SYNTAX, legal=FORMS)
    return _parse_piece_action(toks, text)


#: words of a ball choice ("give the ball to ST1", "ST1 has the ball", "the QB keeps it")
_BALL_VERBS = {"ball", "handoff", "give", "gives", "keep", "keeps", "has", "have", "holds", "hold", "holder", "gets", "takes",
               "with", "to", "off", "hand", "is", "it"}
_HOLDS = {"keep", "keeps", "has", "have", "holds", "gets", "takes"}


def _parse_play_action(rest: list[str], text: str) -> PlayAction:
    """What follows 'play action': the partner and, optionally, the secret holder ('ball ST1', 'ST1 keeps
    the ball', 'hand off' = the partner, 'fake' or 'keep' = the ball carrier)."""
    bad = bad_input("play action reads 'play action FA1 ball FA1' (or 'play action FA1': the QB keeps it)", text, rule=SYNTAX, legal=FORMS)
    holder: str | None = None
    skip: int | None = None
    if "ball" in rest:
        j = rest.index("ball")
        after = _piece_tok(rest[j + 1]) if j + 1 < len(rest) else None
        if after is not None:
            holder, skip = after, j + 1
    pieces = [p for k, p in enumerate(_piece_tok(t) for t in rest) if p and k != skip]
    if not pieces or len(pieces) > 2 or (holder is not None and len(pieces) > 1):
        raise bad
    partner = pieces[0]
    if holder is None and len(pieces) == 2:
        holder = pieces[1]
    if holder is None and set(rest) & {"handoff", "give", "gives"}:
        holder = partner
    if holder is None and "ball" in rest and not set(rest) & {"keep", "keeps", "fake"}:
        raise bad
    return PlayAction(partner, holder)


def _verb(word: str) -> str:
    """``pushes`` -> ``push``, ``retreats`` -> ``retreat`` (ability words only)."""
    for cut in (2, 1):
        if word.endswith("es"[-cut:]) and word[:-cut] in WORD_ABILITIES:
            return word[:-cut]
    return word


def _parse_piece_action(toks: list[str], text: str) -> PieceAction:
    lead_rush = lead_route = False
    while toks and toks[0] in ("move", "run", "send", "rush", "route"):
        lead_rush = lead_rush or toks[0] == "rush"
        lead_route = lead_route or toks[0] == "route"
        toks = toks[1:]
    if not toks:
        raise bad_input("not a Chess-Football action", text, rule=SYNTAX, legal=FORMS)
    toks = [_verb(t) for t in toks]
    piece = _piece_tok(toks[0])
    if piece is None:
        raise bad_input("start with the piece, e.g. 'FA1 to H20 NW' or 'HV1 push HV3'", text, rule=SYNTAX, legal=FORMS)
    rest = toks[1:]
    rush, route = lead_rush, lead_route
    words = []
    for t in rest:
        if t in ("rush", "rushes"):
            rush = True
        elif t in ("route", "routes"):
            route = True
        elif t in ("moves", "move", "runs", "run", "goes", "go", "steps", "up", "over", "across", "straight", "forward",
                   "downfield", "spot"):
            continue
        else:
            words.append(t)
    ability = next((WORD_ABILITIES[w] for w in words if w in WORD_ABILITIES), None)
    if ability is not None:
        if rush or route:
            raise bad_input("speed rush and route running go with a move: 'FA1 rush to H20 C'", text, rule=SYNTAX, legal=FORMS)
        others = [w for w in words if w not in WORD_ABILITIES and w != "to"]
        if ability == "retreat":
            sq = [w for w in others if _is_square(w)]
            pos = [w for w in others if w in ("c", "nw", "ne", "sw", "se")]
            if len(sq) != 1 or len(pos) > 1:
                raise bad_input("a retreat reads 'HV1 retreat to G10 C'", text, rule=SYNTAX, legal=FORMS)
            return Ability(piece, "retreat", to=sq[0], position=(pos[0] if pos else "c"))
        targets = [p for p in (_piece_tok(w) for w in others) if p]
        if ability in TARGETED:
            if len(targets) != 1:
                raise bad_input(f"{ability} needs one target piece, e.g. '{piece} {ABILITY_WORDS[ability]} HV3'", text, rule=SYNTAX, legal=FORMS)
            return Ability(piece, ability, targets[0])
        if others:
            raise bad_input(f"{ability} takes no target", text, rule=SYNTAX, legal=FORMS)
        return Ability(piece, ability)
    others = [w for w in words if w != "to"]
    sq = [w for w in others if _is_square(w)]
    pos = [w for w in others if w in ("c", "nw", "ne", "sw", "se")]
    if len(sq) == 1 and len(pos) <= 1 and len(others) == len(sq) + len(pos):
        return Move(piece, sq[0], pos[0] if pos else "C", rush=rush, route=route)
    raise bad_input("not a Chess-Football action", text, rule=SYNTAX, legal=FORMS)
