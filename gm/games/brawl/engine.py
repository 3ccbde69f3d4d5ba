"""The brawl rules engine.

A game is a run of series (rounds).  Each series: every player on the field draws
3 cards (BR-DRAW); three times both sides secretly lock a placement - one card from
each player, each into its own zone (BR-SECRET, BR-PLACE, BR-ZONE-ONE) - and the
placements are revealed together (BR-REVEAL); then the Agility cards are rolled
(BR-AGILITY-ROLL) and the series is scored (:mod:`gm.games.brawl.scoring`).  Short of a
first down the offense chooses to punt, kick or go for it (BR-FOURTH); going for it
plays one more card each and rescores (BR-GO).

Phases: ``play`` (simultaneous placements; each side's locked placement waits in
``self.pending`` and ``view(seat)`` shows the other side's only as ``locked``) ->
``fourth_down`` (the offense alone) -> ... -> ``game_over``.

Ball position ``spot`` counts yards from the offense's own goal line (BR-R-FIELD).

Representation (speed, issue #22): the revealed cards are records in 24 cells (zone x unit) that the
reveal, the rolls, the scoring totals and the discards read directly; ``zones`` (:class:`PlayedCard`
objects) is built from them only when read.  Each seat's card options are kept with a copy of the
hands they came from, and the placement a seat's space drew last carries its check plan, so the check of
a drawn placement is one comparison of the hands.  What a ruleset fixes (effects, values after effects,
what revealing a card in a zone makes) is looked up once per ruleset (:class:`_Tables`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import TYPE_CHECKING, Any, cast

from gm.core.actions import Action
from gm.core.chance import Choice, Shuffle
from gm.core.errors import IllegalActionError
from gm.core.events import Event, make_event
from gm.core.outcome import Outcome
from gm.core.state import GameState
from gm.core.wording import ordinal
from gm.games.brawl.actions import FourthDown, FourthOption, Placement
from gm.games.brawl.legal import HandOptions, PlacementSpace, hand_options
from gm.games.brawl.rules import (
    ADJACENT,
    BACKFIELD,
    PLAYABLE,
    X_ZONE,
    ZONE_INDEX,
    ZONES,
    BrawlRules,
    Card,
    Effect,
    Kind,
    Unit,
    parse_card,
)
from gm.games.brawl.scoring import SeriesResult, SeriesScore, ZoneTotals, purity, score_series

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

# alike on purpose: every game's engine declares its seats and its phases and decisions as enums of this
# shape; each names its own game's (the tools, the page and the bots read them)
HOME, AWAY = "home", "away"
SEATS = (HOME, AWAY)
OFFENSE, DEFENSE = Unit.OFFENSE, Unit.DEFENSE
UNITS = (OFFENSE, DEFENSE)


class Phase(StrEnum):
    """Where a game stands: both sides placing cards, the offense's 4th-down choice, or over."""

    PLAY = "play"
    FOURTH_DOWN = "fourth_down"
    GAME_OVER = "game_over"


class Decision(StrEnum):
    """The kinds of decision a seat faces (the tools declare which they answer)."""

    PLACEMENT = "placement"
    FOURTH_DOWN = "fourth_down"


PLAY, FOURTH_DOWN, GAME_OVER = Phase.PLAY, Phase.FOURTH_DOWN, Phase.GAME_OVER

#: what each phase asks a seat to decide (the tool layer maps these to tools)
DECISIONS = {PLAY: Decision.PLACEMENT, FOURTH_DOWN: Decision.FOURTH_DOWN}


def _code(card: Card) -> str:
    return card.code


def other(seat: str) -> str:
    return AWAY if seat == HOME else HOME


def _ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    return make_event(kind, rule, template, data)


#: a revealed card as the engine keeps it: (player, card, play, effect, value, roll); value and roll are
#: ``None`` until an Agility card is rolled (see :class:`PlayedCard`)
_Record = tuple[str, Card, int, str, "int | None", "int | None"]
#: a zone's first cell (its offense's; the defense's is the next)
_CELL = {z: 2 * i for i, z in enumerate(ZONES)}
_PLAYABLE_CELLS = tuple((z, _CELL[z]) for z in PLAYABLE)
#: a defense win on one of these kinds alone may take the ball
_TAKES = (Kind.FOCUS, Kind.STRENGTH)
#: each 4th-down choice as an action (a frozen value, shared)
_FOURTH = {o: FourthDown(o) for o in FourthOption}


def _totals(off: list[_Record], de: list[_Record]) -> ZoneTotals:
    """A zone's :class:`ZoneTotals` from its two cells (rolled values; unrolled count as 0)."""
    okinds = [rec[1].kind for rec in off]
    return ZoneTotals(
        sum([rec[4] or 0 for rec in off]),
        sum([rec[4] or 0 for rec in de]),
        purity(okinds),
        purity([rec[1].kind for rec in de]),
        _KINDS_HELD[frozenset(okinds)],
    )


#: every set of kinds -> its kinds in code order (``"AF"``)
_KINDS_HELD = {frozenset(k): "".join(sorted(k)) for n in range(4) for k in combinations(Kind, n)}


@dataclass(frozen=True, slots=True)
class _Tables:
    """What a ruleset fixes for every game played with it, looked up once per ruleset."""

    rules: BrawlRules
    #: every player's position, offense then defense
    positions: dict[str, str]
    #: every player's effect in every zone (the position table)
    effects: dict[str, dict[str, Effect]]
    #: every position's deck, as cards
    decks: dict[str, tuple[Card, ...]]
    #: effect -> a flat card value (0-99) after that effect (:meth:`BrawlRules.modify`, looked up)
    values: dict[str, list[int]]
    def reveal(self, player: str, code: str, zone: str) -> tuple[str, int, str, int | None]:
        """What revealing ``player``'s card ``code`` in ``zone`` makes: its text, its zone's first cell, the
        player's effect there and the card's value (``None``: rolled later)."""
        card, eff = parse_card(code), self.effects[player][zone]
        return f"{player}:{code}@{zone}", _CELL[zone], eff, None if card.rolled else self.values[eff][card.lo]


# speed seam: ruleset-tables - what a ruleset fixes is looked up once per ruleset object (kept while it
# lives: the entry holds it, so its id cannot pass on), and every game of that ruleset shares the one
# object, so the search bot's clones share it instead of copying it (random play 3% faster)
_TABLES: dict[int, _Tables] = {}


def _tables(r: BrawlRules) -> _Tables:
    """The tables of ruleset ``r`` (kept for the last few rulesets; a ruleset is frozen)."""
    t = _TABLES.get(id(r))
    if t is None or t.rules is not r:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        positions = {**r.offense, **r.defense}
        t = _TABLES[id(r)] = _Tables(
            r,
            positions,
            {p: {z: r.effect(pos, z) for z in ZONES} for p, pos in positions.items()},
            {name: tuple(parse_card(c) for c in spec.deck) for name, spec in r.positions.items()},
            {e: [r.modify(v, e) for v in range(100)] for e in Effect},
        )
    return t


@dataclass(slots=True)
class PlayedCard:
    """A revealed card in a zone: who played it, in which play, its effect and value.

    ``value`` is the card's value after the position's effect; ``None`` until an
    Agility range is rolled at the end of the series (``roll`` holds the raw roll)."""

    player: str
    position: str
    card: Card
    play: int
    effect: str
    value: int | None
    roll: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "card": self.card.code,
            "play": self.play,
            "effect": self.effect,
            "roll": self.roll,
            "value": self.value,
        }


class BrawlState(GameState[BrawlRules]):
    """State of one game of brawl."""


    # ----------------------------------------------------------------- setup
    def _setup(self) -> None:
        r = self.rules
        self.score = {HOME: 0, AWAY: 0}
        self.round = 0
        self.phase = PLAY
        #: each side's locked placement until both have locked (secret: ``view`` shows another side's as
        #: ``locked``), and its card codes (the plan its check returned)
        self.pending: dict[str, Placement] = {}
        self.locked: dict[str, tuple[str, ...]] = {}
        self.hands: dict[str, dict[str, list[Card]]] = {HOME: {}, AWAY: {}}
        #: the cards revealed this series, by cell (zone index x 2 + 0 offense / 1 defense, zones in
        #: ``ZONES`` order), each a record ``(player, card, play, effect, value, roll)`` (see :attr:`zones`)
        self._cells: list[list[_Record]] = []
        self._zones_view: dict[str, dict[str, list[PlayedCard]]] | None = None
        self.play_no = 0
        self.going = False
        self.series_score: SeriesScore | None = None  # the latest scoring of the current series
        self.first_score: SeriesScore | None = None  # the score before going for it
        self.last: dict[str, Any] = {}  # the last finished series, for views
        self.history: list[dict[str, Any]] = []
        tables = _tables(r)
        self.positions = dict(tables.positions)
        #: what the ruleset fixes (effects, decks, values, reveals), shared by every game played with it
        self._tables = tables
        #: seat -> (the players, a copy of each one's hand, each one's card options): the options of the
        #: hands the seat held when they were last looked up (see :meth:`_options`)
        # speed seam: hand-options - each hand's card options worked out once per hands held, not at each
        # count, draw and check of a placement (random play about 6% faster); checked against the hands
        self._known: dict[str, tuple[tuple[str, ...], list[list[Card]], list[HandOptions]]] = {}
        #: each unit's players, roster order
        self._players = {OFFENSE: tuple(r.offense), DEFENSE: tuple(r.defense)}
        #: seat -> (the log's length, the placement space last listed for the seat then): its last drawn
        #: placement is checked by what drawing it worked out (see :meth:`_check_placement`)
        # speed seam: drawn-placement - a placement a bot drew from the listed space is checked by what
        # drawing it worked out, not again from the hands (random play about 15% faster); only that very
        # object, at that move, with the same card options
        self._spaces: dict[str, tuple[int, PlacementSpace]] = {}
        # BR-R-SHUFFLE: every player's deck, shuffled (a chance draw; draw from the end)
        self.piles: dict[str, dict[str, list[Card]]] = {}
        self.discards: dict[str, dict[str, list[Card]]] = {}
        for seat in SEATS:
            self.piles[seat], self.discards[seat] = {}, {}
            for name, pos in self.positions.items():
                self.piles[seat][name] = self.draw(Shuffle("shuffle", tuple(tables.decks[pos]), about=f"{seat} {name}"))
                self.discards[seat][name] = []
        events: list[Event] = [
            _ev("decks", "BR-R-SHUFFLE", "{n} decks (one per player, from the ruleset) are shuffled",
                n=sum(len(r.offense) + len(r.defense) for _ in SEATS), also=["BR-R-DECKS", "BR-R-DECKBUILD"])
        ]
        if r.first_offense == "toss":
            first = self.draw(Choice("toss", SEATS))
            events.append(_ev("toss", "BR-R-FIRST", "coin toss: {seat} has the ball first", seat=first))
        else:
            first = r.first_offense
        self.offense = first
        self.los = r.drive_start
        self._start_series(events)
        #: what setup decided (the decks, the toss, the first draw); reported with the first move's events,
        #: the first result anyone sees
        self.setup_events = events

    # --------------------------------------------------------------- helpers
    @property
    def defense(self) -> str:
        return other(self.offense)

    def unit(self, seat: str) -> Unit:
        """``offense`` or ``defense``: which of ``seat``'s units is on the field."""
        return OFFENSE if seat == self.offense else DEFENSE

    def roster(self, seat: str) -> dict[str, str]:
        """The on-field players of ``seat``: name -> position."""
        return self.rules.roster(self.unit(seat))

    def decision(self, seat: str) -> Decision | None:
        """The kind of decision ``seat`` must make now (``None``: nothing)."""
        if seat not in self.to_act():
            return None
        return DECISIONS.get(self.phase)

    def action_kinds(self, seat: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """A placement or a 4th-down choice, as the decision is (read off the phase, not the placement space)."""
        d = self.decision(seat)
        if d is None:
            return set()
        return {Placement.type if d == Decision.PLACEMENT else FourthDown.type}

    @property
    def plays_in_series(self) -> int:
        return self.rules.series_cards + (self.rules.go_cards if self.going else 0)

    @property
    def to_goal(self) -> int:
        return self.rules.field_length - self.los

    @property
    def zones(self) -> dict[str, dict[str, list[PlayedCard]]]:
        """The cards revealed this series: zone -> ``offense`` / ``defense`` -> :class:`PlayedCard` in the
        order played (``{}`` before the first series).  Built from the engine's records when read, once
        per change: the engine itself reads the records."""
        view = self._zones_view
        if view is None:
            cells, positions = self._cells, self.positions
            view = {}
            if cells:
                for i, z in enumerate(ZONES):
                    view[z] = {
                        unit: [PlayedCard(p, positions[p], card, play, eff, value, roll) for p, card, play, eff, value, roll in cells[2 * i + u]]
                        for u, unit in enumerate(UNITS)
                    }
            self._zones_view = view
        return view

    def total_range(self, zone: str, unit: str) -> tuple[int, int]:
        """The lowest and highest total ``unit`` can have in ``zone`` (Agility unrolled)."""
        lo = hi = 0
        r = self.rules
        for _, card, _, eff, value, _ in self._cells[2 * ZONE_INDEX[zone] + (unit != OFFENSE)]:
            if value is not None:
                lo += value
                hi += value
            else:
                lo += r.modify(card.lo, eff)
                hi += r.modify(card.hi, eff)
        return lo, hi

    def field_goal_distance(self, spot: int | None = None) -> int:
        s = self.fourth_spot if spot is None else spot
        return self.rules.field_length - s + self.rules.field_goal_extra

    @property
    def fourth_spot(self) -> int:
        """Where the ball stands after the series' yards (BR-R-SPOT)."""
        return self.los + (self.series_score.yards if self.series_score else 0)

    def fourth_options(self) -> list[FourthOption]:
        """The offense's 4th-down options now: punt, a field goal when in range, go for it (BR-FOURTH)."""
        out = [FourthOption.PUNT]
        if self.rules.field_goal_chance(self.field_goal_distance()) is not None:
            out.append(FourthOption.FIELD_GOAL)
        out.append(FourthOption.GO_FOR_IT)
        return out

    def field_text(self, spot: int) -> str:
        """``own 25`` / ``opp 30`` / ``midfield`` for a spot counted from the offense's goal line."""
        n = self.rules.field_length
        if 2 * spot == n:
            return "midfield"
        return f"own {spot}" if 2 * spot < n else f"opp {n - spot}"

    # ------------------------------------------------------------ turn model
    def _to_act(self) -> tuple[str, ...]:
        if self.phase == PLAY:
            pending, off = self.pending, self.offense
            de = AWAY if off == HOME else HOME
            if not pending:
                return (off, de)
            if len(pending) == 1:
                return (de,) if off in pending else (off,)
            return tuple([s for s in (off, de) if s not in pending])
        if self.phase == FOURTH_DOWN:
            return (self.offense,)
        return ()

    def _legal(self, seat: str) -> PlacementSpace | tuple[Action, ...]:
        """Placements: every one the check accepts, as a :class:`PlacementSpace` (counted, indexed and
        sampled, never listed); on 4th down the offense's options."""
        if self.phase == FOURTH_DOWN:
            return tuple([_FOURTH[o] for o in self.fourth_options()])
        if self.phase != PLAY:
            return ()
        players = self._players[OFFENSE if seat == self.offense else DEFENSE]
        space = PlacementSpace(players, self.hands[seat], self._options(seat, players))
        self._spaces[seat] = (len(self.log), space)
        return space

    def _options(self, seat: str, players: tuple[str, ...]) -> list[HandOptions]:
        """Each player's card options with its hand now (:func:`hand_options`), looked up once per hands
        held: the placement space counts them, the check reads them.  Kept with a copy of the hands they
        were looked up for, and looked up again when any hand holds other cards (compared card by card)."""
        held = list(map(self.hands[seat].__getitem__, players))
        known = self._known.get(seat)
        if known is not None and known[0] == players and known[1] == held:
            return known[2]
        out = list(map(hand_options, held))
        self._known[seat] = (players, list(map(list.copy, held)), out)
        return out

    def legal_summary(self, seat: str) -> list[str]:
        """The legal choices in short (for rejections, help texts and the legal-actions tool): on 4th
        down the options; when placing, each player's hand, then the zones."""
        if self.phase == FOURTH_DOWN:
            return [str(FourthDown(o)) for o in self.fourth_options()]
        hand = self.hands[seat]
        out = [f"{p}: {' '.join(c.code for c in hand[p])}" for p in self.roster(seat)]
        out.append(f"zones: {' '.join(PLAYABLE)} (one card each; {X_ZONE} is the X)")
        return out

    def _illegal(self, rule: str, reason: str, action: Action, seat: str) -> IllegalActionError:
        return IllegalActionError(reason, rule=rule, input=str(action), legal=self.legal_summary(seat))

    def _check(self, seat: str, action: Action) -> Any:
        """Pure.  The plan of a placement is every entry's card code (a card left out resolved to the one
        kind the player holds); of a 4th-down choice, the option."""
        if self.phase == FOURTH_DOWN:
            if not isinstance(action, FourthDown):
                raise self._illegal("BR-FOURTH", "the offense must choose: punt, field goal or go for it", action, seat)
            if action.option == FourthOption.FIELD_GOAL and FourthOption.FIELD_GOAL not in self.fourth_options():
                dist = self.field_goal_distance()
                longest = max(self.rules.field_goal_odds)
                raise self._illegal(
                    "BR-R-FIELD-GOAL", f"a field goal from {dist} yards is out of range (longest {longest})", action, seat
                )
            return FourthOption(action.option)
        if not isinstance(action, Placement):
            raise self._illegal("BR-PLACE", "now each side plays one card from each player", action, seat)
        return self._check_placement(seat, action)

    def _check_placement(self, seat: str, action: Placement) -> tuple[str, ...]:
        """Every entry's card code, if ``action`` is one card from each player on the field, each into a
        zone of its own (not the X), each a card the player holds; else the error of the first rule broken.
        The placement the seat's space drew last, at this move and with these hands, is one: its plan is
        what drawing it worked out."""
        drawn = self._spaces.get(seat)
        if drawn is not None and drawn[1].drawn is action and drawn[0] == len(self.log):
            space = drawn[1]
            if self._options(seat, space.players) == space.options:
                return space.plan
        roster = self.roster(seat)
        plays = action.placements
        n = len(roster)
        if len(plays) == n:
            players = {cp.player for cp in plays}
            zones = {cp.zone for cp in plays}
            if len(players) == n and len(zones) == n and X_ZONE not in zones and players <= roster.keys():
                # a player's options (its card choices) are exactly the cards it may name (BR-R-CARD)
                codes: list[str] = []
                for cp, options in zip(plays, self._options(seat, tuple([cp.player for cp in plays])), strict=True):
                    choices = options.choices
                    card = cp.card
                    if card is None:
                        if None not in choices:
                            break
                        card = cast(str, choices[0])  # one kind held: its code
                    elif card not in choices:
                        break
                    codes.append(card)
                else:
                    return tuple(codes)
        raise self._placement_error(seat, action)

    def _placement_error(self, seat: str, action: Placement) -> IllegalActionError:
        """Why ``action`` is not a legal placement, by the first rule it breaks (in the order the rules
        are stated: who plays, then where, then which card)."""
        roster = self.roster(seat)
        unit = self.unit(seat)
        seen: set[str] = set()
        for cp in action.placements:
            if cp.player not in roster:
                return self._illegal(
                    "BR-R-ROSTER", f"{cp.player} is not on the field; the {unit} is {', '.join(roster)}", action, seat
                )
            if cp.player in seen:
                return self._illegal("BR-PLACE", f"{cp.player} plays more than one card", action, seat)
            seen.add(cp.player)
        missing = [p for p in roster if p not in seen]
        if missing:
            return self._illegal("BR-PLACE", f"every player plays a card; missing: {', '.join(missing)}", action, seat)
        zones: set[str] = set()
        for cp in action.placements:
            if cp.zone == X_ZONE:
                return self._illegal("BR-X", f"{cp.player}: no cards are played on the X ({X_ZONE})", action, seat)
            if cp.zone in zones:
                return self._illegal("BR-ZONE-ONE", f"{cp.zone}: one card per zone", action, seat)
            zones.add(cp.zone)
        hand = self.hands[seat]
        for cp in action.placements:
            held = hand[cp.player]
            if cp.card is None:
                kinds = {c.code for c in held}
                if len(kinds) != 1:
                    return self._illegal(
                        "BR-R-CARD", f"{cp.player} holds {' '.join(sorted(kinds))}: name the card", action, seat
                    )
            elif not any(c.code == cp.card for c in held):
                have = " ".join(c.code for c in held) or "nothing"
                return self._illegal("BR-HAND", f"{cp.player} does not hold {cp.card} (holds {have})", action, seat)
        raise AssertionError(f"placement {action} passes every rule but was refused")  # pragma: no cover

    # ------------------------------------------------------------------ apply
    def _apply(self, seat: str, action: Action, plan: Any) -> list[Event]:
        events: list[Event] = [] if self.log else list(self.setup_events)
        if isinstance(action, FourthDown):
            self._fourth_down(plan, events)
            return events
        assert isinstance(action, Placement)
        self.pending[seat] = action
        self.locked[seat] = plan
        if len(self.pending) < len(SEATS):
            events.append(_ev("locked", "BR-SECRET", "{seat} has locked its cards for play {play}", seat=seat, play=self.play_no))
            return events
        picks, codes = self.pending, self.locked
        self.pending, self.locked = {}, {}
        self._reveal(picks, codes, events)
        if self.play_no < self.plays_in_series:
            self.play_no += 1
            return events
        self._roll(events)
        self._score(events)
        return events

    # ------------------------------------------------------------ the series
    def _start_series(self, events: list[Event]) -> None:
        r = self.rules
        self.round += 1
        self.phase = PLAY
        self.play_no = 1
        self.going = False
        self.series_score = self.first_score = None
        self._cells = [[] for _ in range(2 * len(ZONES))]
        self._zones_view = None
        self.hands = {HOME: {}, AWAY: {}}
        self._draw_all(r.series_cards, events)
        togo = min(r.first_down_yards, self.to_goal)
        events.append(
            _ev("series", "BR-DRAW", "round {round}/{rounds}: {offense} ball, 1st & {togo} at {at}; every player draws {n}",
                round=self.round, rounds=r.rounds, offense=self.offense,
                togo="goal" if togo == self.to_goal and togo < r.first_down_yards else togo,
                at=self.field_text(self.los), n=r.series_cards, also=["BR-TEAMS", "BR-R-HANDS", "BR-R-FIELD"])
        )

    def _draw_cards(self, pile: list[Card], hand: list[Card], discard: list[Card], n: int, seat: str, about: str) -> bool:
        """Deal ``n`` cards of ``pile`` to ``hand`` (its top ``n``, top first, as popped one by one: a
        chance draw), the ``discard`` shuffled in as a new pile when it runs out (True if it did)."""
        if len(pile) >= n:  # (the common case: the loop below in one step)
            if n > 0:
                hand.extend(self.deal(pile, n, about=about, seen_by=(seat,)))
            return False
        shuffled = False
        while n > 0:
            if not pile:
                reshuffled: list[Card] = self.draw(Shuffle("reshuffle", tuple(discard), about=about))
                pile.extend(reshuffled)
                discard.clear()
                shuffled = True
                if not pile:  # the ruleset's deck minimum rules this out
                    raise IndexError("draw from an empty deck")
            k = min(n, len(pile))
            hand.extend(self.deal(pile, k, about=about, seen_by=(seat,)))
            n -= k
        return shuffled

    def _draw_all(self, n: int, events: list[Event]) -> None:
        """Every player on the field draws ``n`` (BR-DRAW / BR-GO); one event names the reshuffles."""
        reshuffled = []
        draw = self._draw_cards
        for seat, unit in ((self.offense, OFFENSE), (self.defense, DEFENSE)):
            hands, piles, discards = self.hands[seat], self.piles[seat], self.discards[seat]
            for name in self._players[unit]:
                hand = hands.get(name)
                if hand is None:
                    hand = hands[name] = []
                if draw(piles[name], hand, discards[name], n, seat, f"{seat} {name}"):
                    reshuffled.append(f"{seat} {name}")
        if reshuffled:
            events.append(_ev("reshuffle", "BR-R-SHUFFLE", "reshuffled into new draw piles: {players}",
                              players=", ".join(reshuffled), also=["BR-R-DECKBUILD"]))

    def _reveal(self, picks: dict[str, Placement], codes: dict[str, tuple[str, ...]], events: list[Event]) -> None:
        shown: dict[str, str] = {}
        effects: set[str] = set()
        unnamed = False
        play = self.play_no
        cells = self._cells
        self._zones_view = None
        tables = self._tables
        for seat, u in ((self.offense, 0), (self.defense, 1)):
            hand = self.hands[seat]
            parts = []
            for cp, code in zip(picks[seat].placements, codes[seat], strict=True):
                player = cp.player
                held = hand[player]
                card = held[0]
                if card.code == code:
                    del held[0]
                else:
                    i = 1
                    while held[i].code != code:
                        i += 1
                    card = held.pop(i)
                text, cell, eff, value = tables.reveal(player, code, cp.zone)
                cells[cell + u].append((player, card, play, eff, value, None))
                parts.append(text)
                effects.add(eff)
                if cp.card is None:
                    unnamed = True
            shown[seat] = " ".join(parts)
        also = []
        if effects - {Effect.NONE}:  # the position table gave some card a strong or weak effect
            also += ["BR-POSITION", "BR-R-TABLE"]
            also += ["BR-STRONG"] if Effect.STRONG in effects else []
            also += ["BR-WEAK"] if Effect.WEAK in effects else []
        if unnamed:
            also.append("BR-R-CARD")
        if self.play_no < self.plays_in_series:
            also.append("BR-REPEAT")
        events.append(
            _ev("reveal", "BR-REVEAL", "play {play} revealed - {offense} (offense): {ocards} / {defense} (defense): {dcards}",
                play=self.play_no, offense=self.offense, ocards=shown[self.offense],
                defense=self.defense, dcards=shown[self.defense], also=also)
        )

    def _roll(self, events: list[Event]) -> None:
        """BR-AGILITY-ROLL: roll every unrolled Agility card, zone by zone."""
        r = self.rules
        rolls = []
        modified = False
        roll_die, modify = self.roll, r.modify
        for i, cell in enumerate(self._cells):  # zone by zone, the offense's cards first
            for k, rec in enumerate(cell):
                if rec[4] is None:
                    player, card, play, eff, _, _ = rec
                    roll = roll_die("agility roll", card.lo, card.hi, about=f"{player} {card.code}@{ZONES[i >> 1]}")
                    value = modify(roll, eff)
                    cell[k] = (player, card, play, eff, value, roll)
                    mod = "" if eff == "-" else f" ({'x' if eff == 'S' else '/'}{r.strong_factor if eff == 'S' else r.weak_divisor} = {value})"
                    modified = modified or eff != "-"
                    rolls.append(f"{player} {card.code}@{ZONES[i >> 1]} rolls {roll}{mod}")
        self._zones_view = None
        if rolls:
            also = ["BR-R-AGILITY"] + (["BR-R-AGILITY-MOD"] if modified else [])
            events.append(_ev("agility", "BR-AGILITY-ROLL", "Agility rolls: {rolls}", rolls="; ".join(rolls), also=also))

    def _score(self, events: list[Event]) -> None:
        r = self.rules
        cells = self._cells
        totals = {z: _totals(cells[i], cells[i + 1]) for z, i in _PLAYABLE_CELLS}
        s = score_series(totals, r.multipliers, r.turnovers)
        self.series_score = s
        off, de = self.offense, self.defense
        notes = _score_notes(s, totals, self.going)
        if s.won:
            zones = ", ".join(f"{z} +{m}" + (" (completion)" if z in s.completions else "") for z, m in s.won.items())
            events.append(_ev("zones", "BR-WIN-ZONE", "{offense} wins {zones}", offense=off, zones=zones, also=notes.won))
        if s.unconnected:
            events.append(_ev("unconnected", "BR-ADJ", "{offense} leads {zones} but cannot connect them to the X",
                              offense=off, zones=", ".join(s.unconnected)))
        if s.turnover:
            zone = (s.interceptions or s.fumbles)[0]
            intercepted = s.result == SeriesResult.INTERCEPTION
            events.append(_ev(s.result.value, s.rule, "{what}! {defense} wins {zone} on {alone} alone: {defense} takes over",
                              what="INTERCEPTION" if intercepted else "FUMBLE", defense=de, zone=zone,
                              alone="Focus" if intercepted else "Strength", also=notes.turnover))
            self._end_series(events, s.result.value, de, r.field_length - self.los, "BR-R-TURNOVER")
            return
        if s.sack:
            events.append(_ev("sack", "BR-SACK", "SACK! {defense} wins the Backfield ({zones}): no zones count",
                              defense=de, zones=", ".join(BACKFIELD), also=notes.sack))
        else:
            events.append(_ev("yards", "BR-YARDS", "{offense} gains {yards} yards ({margin} x{mult})",
                              offense=off, yards=s.yards, margin=s.margin, mult=s.multiplier, also=notes.yards))
        yards = s.yards
        spot = self.los + yards
        if spot >= r.field_length:
            self.score[off] += r.touchdown_points
            events.append(_ev("touchdown", "BR-TD", "TOUCHDOWN {offense}! (+{pts})", offense=off, pts=r.touchdown_points,
                              also=["BR-R-SCORE", "BR-R-FIELD"]))
            self._end_series(events, "touchdown", de, r.drive_start, "BR-R-SCORE")
        elif yards >= r.first_down_yards:
            events.append(_ev("first_down", "BR-FIRST-DOWN", "first down {offense} at {at}", offense=off, at=self.field_text(spot)))
            self._end_series(events, "first_down", off, spot, "BR-FIRST-DOWN")
        elif self.going:
            last = ordinal(r.series_cards + r.go_cards)  # the go-for-it's last down (BR-R-DOWN): 4th by default
            events.append(_ev("downs", "BR-R-GO-FAIL", "short on " + last + " down: turnover on downs at {at}", at=self.field_text(spot)))
            self._end_series(events, "downs", de, r.field_length - spot, "BR-R-GO-FAIL")
        else:
            self.phase = FOURTH_DOWN
            fg = self.rules.field_goal_chance(self.field_goal_distance(spot))
            events.append(
                _ev("fourth_down", "BR-FOURTH", "{yards} yards is short of a first down: ball at {at}; {offense} chooses {options}",
                    yards=yards, at=self.field_text(spot), offense=off,
                    options="punt, field goal or go for it" if fg is not None else "punt or go for it",
                    also=["BR-R-SPOT", "BR-R-FOURTH-WHO"])
            )

    def _fourth_down(self, option: FourthOption, events: list[Event]) -> None:
        r = self.rules
        off, de = self.offense, self.defense
        spot = self.fourth_spot
        if option == FourthOption.PUNT:
            land = spot + r.punt_distance
            if land >= r.field_length:
                new = r.punt_touchback
                events.append(_ev("punt", "BR-R-PUNT", "{offense} punts into the end zone: touchback, {defense} ball at its own {at}",
                                  offense=off, defense=de, at=new, also=["BR-PUNT"]))
            else:
                new = r.field_length - land
                events.append(_ev("punt", "BR-R-PUNT", "{offense} punts {n} yards: {defense} ball at {at}",
                                  offense=off, n=r.punt_distance, defense=de, at=self.field_text(new), also=["BR-PUNT"]))
            self._end_series(events, "punt", de, new, "BR-R-PUNT")
        elif option == FourthOption.FIELD_GOAL:
            dist = self.field_goal_distance(spot)
            chance = r.field_goal_chance(dist)
            assert chance is not None
            roll = self.roll("field goal roll", 1, 100, about=f"{dist} yards, {chance}%")
            good = roll <= chance
            events.append(_ev("field_goal", "BR-R-FIELD-GOAL", "{offense} tries a field goal from {dist} yards ({chance}%): rolls {roll} - {res}",
                              offense=off, dist=dist, chance=chance, roll=roll, res="GOOD" if good else "no good",
                              also=["BR-FIELD-GOAL", "BR-R-SCORE"] if good else ["BR-FIELD-GOAL"]))
            if good:
                self.score[off] += r.field_goal_points
                self._end_series(events, "field_goal", de, r.drive_start, "BR-R-SCORE")
            else:
                self._end_series(events, "missed_field_goal", de, r.field_length - spot, "BR-R-FIELD-GOAL")
        else:
            self.going = True
            self.phase = PLAY
            self.first_score, self.series_score = self.series_score, None  # rescored after the 4th play (BR-R-GO-RESCORE)
            self.play_no = r.series_cards + 1
            self._draw_all(r.go_cards, events)
            events.append(_ev("go_for_it", "BR-GO", "{offense} goes for it: every player draws {n} more; " + ordinal(self.play_no) + " down",
                              offense=off, n=r.go_cards, also=["BR-R-DOWN", "BR-R-HANDS"]))

    def _end_series(self, events: list[Event], result: str, next_offense: str, spot: int, rule: str) -> None:
        r = self.rules
        s = self.series_score
        self.last = {
            "round": self.round,
            "offense": self.offense,
            "from": self.field_text(self.los),
            "result": result,
            "yards": s.yards if s else 0,
            "went_for_it": self.going,
            "score": s.to_json() if s else None,
        }
        self.history.append(self.last)
        for seat, unit in ((self.offense, OFFENSE), (self.defense, DEFENSE)):
            discards = self.discards[seat]
            for cell in self._cells[unit != OFFENSE :: 2]:
                for rec in cell:
                    discards[rec[0]].append(rec[1])
            for name, held in self.hands[seat].items():
                discards[name].extend(held)
                held.clear()
        if self.round >= r.rounds:
            self._finish(events)
            return
        self.offense = next_offense
        self.los = max(1, min(r.field_length - 1, spot))
        if next_offense != self.last["offense"]:
            events.append(_ev("possession", rule, "{offense} takes over at {at}", offense=next_offense,
                              at=self.field_text(self.los), also=["BR-R-SEATS"]))
        self._start_series(events)

    def _finish(self, events: list[Event]) -> None:
        s = self.score
        if s[HOME] == s[AWAY]:
            outcome = Outcome(None, "equal points", "BR-R-WIN", dict(s))
        else:
            winner = HOME if s[HOME] > s[AWAY] else AWAY
            outcome = Outcome(winner, "more points", "BR-R-WIN", dict(s))
        self.outcome = outcome
        self.phase = GAME_OVER
        self.pending.clear()
        self.locked.clear()
        events.append(_ev("game_over", "BR-R-LENGTH", "end of round {n}: game over - {result}", n=self.round,
                          result=str(outcome), also=["BR-R-WIN"]))

    # --------------------------------------------------------------- views
    def snapshot(self) -> dict[str, Any]:
        """Everything, including both hands and secret pending placements (never shown to a seat)."""
        out = self._public()
        out["hands"] = {s: self._hand_json(s) for s in SEATS}
        out["pending"] = {s: str(a) for s, a in self.pending.items()}
        out["piles"] = {s: {p: len(c) for p, c in self.piles[s].items()} for s in SEATS}
        return out

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see: its own hand only, the other side's pending placement only as 'locked'."""
        out = self._public()
        out["hand"] = self._hand_json(seat) if seat in SEATS else None
        out["pending"] = {s: (str(a) if s == seat else "locked") for s, a in self.pending.items()}
        return out

    def clone(self) -> BrawlState:
        """An independent copy (the search bot's): a deep copy without the memos of each seat's card options and
        placement space (made again from the hands when asked)."""
        from gm.core.search import deep_clone

        return cast(BrawlState, deep_clone(self, {id(self._known): {}, id(self._spaces): {}}))

    def determinizer(self, seat: str, model: Callable[[GameState[Any], str, random.Random], Action] | None = None) -> Callable[[random.Random], BrawlState]:
        """Worlds ``seat`` may believe it is in (the search bot's hook): its own hands as they are and its draw
        piles in a new order; each of the other side's players' hand and draw pile pooled and dealt afresh
        (the same sizes: the cards it may hold are its deck less the cards seen played); the other side's
        placement still locked, if any, drawn again from the hands so dealt (``model``, else uniformly); chance
        to come reseeded."""
        opp = other(seat)
        base = self.clone()
        locked = opp in base.pending
        if locked:  # the lock was made from the real hands: taken back, and made again from the hands dealt
            last = max(i for i, m in enumerate(base.log) if m.seat == opp)
            del base.log[last]
            del base.pending[opp], base.locked[opp]

        def draw(rng: random.Random) -> BrawlState:
            world = base.clone()
            for pile in world.piles[seat].values():  # (put in order first: the draw must not depend on the real one)
                pile.sort(key=_code)
                rng.shuffle(pile)
            hands = world.hands[opp]
            for name, pile in world.piles[opp].items():
                hand = hands.get(name)
                if hand is None:
                    pile.sort(key=_code)
                    rng.shuffle(pile)
                    continue
                pool = sorted(hand + pile, key=_code)
                rng.shuffle(pool)
                hand[:] = pool[: len(hand)]
                pile[:] = pool[len(hand):]
            if locked:
                act = model(world, opp, rng) if model is not None else world.legal_actions(opp).sample(rng)
                world.apply(opp, act)
            world.reseed(rng.getrandbits(63))
            return world

        return draw

    def has_locked_picks(self) -> bool:
        """A placement locked while the other side has not chosen (hands and draw piles are secret too,
        but they belong to the game: a token or an exported session keeps every revealed play)."""
        return bool(self.pending)

    def _hand_json(self, seat: str | None) -> dict[str, list[str]]:
        if seat is None:
            return {}
        return {p: [c.code for c in cards] for p, cards in self.hands[seat].items()}

    def _public(self) -> dict[str, Any]:
        r = self.rules
        playing = self.phase != GAME_OVER
        zones = {}
        for z in PLAYABLE:
            cell: dict[str, Any] = {}
            for unit in UNITS:
                cards = self.zones[z][unit] if self.zones else []
                cell[unit] = [p.to_json() for p in cards]
                cell[f"{unit}_total"] = list(self.total_range(z, unit)) if self.zones else [0, 0]
            zones[z] = cell
        out: dict[str, Any] = {
            "phase": self.phase.value,
            "round": self.round,
            "rounds": r.rounds,
            "offense": self.offense,
            "defense": self.defense,
            "score": dict(self.score),
            "ball": {"spot": self.los, "at": self.field_text(self.los), "to_goal": self.to_goal} if playing else None,
            "down": self.play_no if self.phase == PLAY else None,
            "to_go": min(r.first_down_yards, self.to_goal) if playing else None,
            "going_for_it": self.going,
            "first_score": self.first_score.to_json() if self.going and self.first_score else None,
            "play": self.play_no if self.phase == PLAY else None,
            "plays_in_series": self.plays_in_series,
            "zones": zones,
            "hand_sizes": {s: sum(len(c) for c in self.hands[s].values()) for s in SEATS},
            "series": self.series_score.to_json() if self.series_score else None,
            "to_act": list(self.to_act()),
            "last": dict(self.last),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if self.phase == FOURTH_DOWN:
            dist = self.field_goal_distance()
            out["fourth_down"] = {
                "yards": self.series_score.yards if self.series_score else 0,
                "spot": self.field_text(self.fourth_spot),
                "options": [o.value for o in self.fourth_options()],
                "field_goal": {"distance": dist, "chance": r.field_goal_chance(dist)},
            }
        return out


@dataclass(slots=True)
class _Notes:
    """The extra rule ids a series' scoring events cite (``also``): the rules that decided something."""

    won: list[str]
    turnover: list[str]
    sack: list[str]
    yards: list[str]


def _score_notes(s: SeriesScore, totals: dict[str, ZoneTotals], going: bool) -> _Notes:
    """Which rules beyond each event's own decided this scoring (nothing is cited that did not apply)."""
    tie = one_sided = False  # a zone where both sides' totals are equal; a zone where one side only has cards
    for t in totals.values():
        if t.offense_kind and t.defense_kind:
            tie = tie or t.offense == t.defense
        elif t.offense_kind or t.defense_kind:
            one_sided = True
    # a defense win on Focus/Strength alone that took no ball: the offense's cards there were not all of
    # that kind (BR-R-TURNOVER-ZONE), or it had none there (BR-R-EMPTY)
    taken = s.interceptions + s.fumbles
    spared_kind = spared_empty = False
    for z in s.lost:
        t = totals[z]
        if t.defense_kind in _TAKES and z not in taken:
            if t.offense_kind:
                spared_kind = True
            else:
                spared_empty = True
    spared_rules = (["BR-R-TURNOVER-ZONE"] if spared_kind else []) + (["BR-R-EMPTY"] if spared_empty else [])
    rescore = ["BR-R-GO-RESCORE"] if going else []
    won: list[str] = []
    adjacent = [z for z in s.won if z not in s.completions]  # counted by adjacency, not as completions
    if adjacent:
        won.append("BR-ADJ")
    if s.completions:
        won += ["BR-COMPLETION", "BR-R-ALONE"]
    if adjacent:
        # zones that count only through a completion (BR-R-CHAIN): not reachable from the X over led zones alone
        led = set(s.won) | set(s.unconnected)
        reach = {z for z in ADJACENT[X_ZONE] if z in led}
        todo = list(reach)
        while todo:
            for n in ADJACENT[todo.pop()]:
                if n in led and n not in reach:
                    reach.add(n)
                    todo.append(n)
        if any(z not in reach for z in adjacent):
            won.append("BR-R-CHAIN")
    yards = (["BR-MARGIN"] if s.won else []) + (["BR-R-TIE"] if tie else [])
    yards += (["BR-R-TURNOVER-ZONE"] if spared_kind else []) + (["BR-R-EMPTY"] if one_sided else [])
    return _Notes(
        won=won,
        turnover=["BR-R-PRIORITY", "BR-R-ALONE", "BR-R-TURNOVER-ZONE", *rescore],
        sack=["BR-R-SACK", "BR-R-PRIORITY", *spared_rules, *rescore],
        yards=yards + rescore,
    )
