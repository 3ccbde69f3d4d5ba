"""Every rule id of brawl, with a one-line title.

``BR-*`` ids name rules of the document (``shared/seeds/003``); ``BR-R-*`` ids name
the rulings recorded in ``rules_md/brawl.md`` where the document is silent, vague,
marked TODO or contradicts itself.  :func:`rules_text` states them with a ruleset's numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.games.brawl.rules import BrawlRules

RULES: dict[str, str] = {
    # --- the document
    "BR-TEAMS": "11 players on offense and on defense; each player has a deck of cards",
    "BR-GRID": "A 4x3 grid of zones: regions Downfield, Midfield, Scrimmage, Backfield; columns Left, Middle, Right",
    "BR-X": "The X (middle of the Backfield) marks where the play starts; no cards are played there",
    "BR-CARDS": "Three cards: Strength (flat), Agility (a range rolled at the end of the series), Focus (flat)",
    "BR-DRAW": "Each round is a 3-play series and begins with every player drawing 3 cards",
    "BR-SECRET": "Offense and defense play their cards simultaneously, in secret",
    "BR-PLACE": "Each side plays one card from each of its players",
    "BR-HAND": "A player plays a card it holds (one of the cards it drew)",
    "BR-ZONE-ONE": "One card per zone: each side's players play into different zones",
    "BR-REVEAL": "The cards in every zone are revealed for offense and defense",
    "BR-REPEAT": "Play and reveal again until all 3 cards have been played",
    "BR-AGILITY-ROLL": "Agility values are rolled at the end of the series",
    "BR-WIN-ZONE": "The offense wins a zone when its total there exceeds the defense's and the zone is connected",
    "BR-ADJ": "A won zone must be orthogonally adjacent to another won zone or to the X",
    "BR-MARGIN": "A won zone is worth the difference between the offense's and the defense's totals",
    "BR-YARDS": "Yards = the sum of the won zones' values x the highest multiplier among them (D 4x, M 2x, S 1x, B 0x)",
    "BR-FIRST-DOWN": "At least 10 yards on the series is a first down",
    "BR-TD": "Enough yards to reach the end zone is a touchdown",
    "BR-FOURTH": "Fewer than 10 yards: the offense chooses to punt, attempt a field goal or go for it",
    "BR-GO": "Go for it: each player draws 1 card, both sides play and reveal once more, the series is rescored",
    "BR-PUNT": "Punt (marked TODO in the document; see BR-R-PUNT)",
    "BR-FIELD-GOAL": "Field goal (marked TODO in the document; see BR-R-FIELD-GOAL)",
    "BR-COMPLETION": "An offense win on Focus alone needs no adjacency: a completion",
    "BR-INTERCEPTION": "A defense win on Focus alone where the offense has cards: an interception",
    "BR-FUMBLE": "A defense win on Strength alone where the offense has cards: a fumble",
    "BR-SACK": "The offense loses all of the Backfield: a sack, no zones count",
    "BR-POSITION": "Each position is strong or weak in some regions (the position table)",
    "BR-STRONG": "Strong (S): double the values on the card",
    "BR-WEAK": "Weak (W): halve the values on the card, rounded down",
    "BR-SYNTAX": "Action text: a placement is PLAYER:CARD@ZONE per player (e.g. QB:F3@MM); 4th down is punt, field goal or go for it",
    # --- rulings (see rules_md/brawl.md)
    "BR-R-SEATS": "Two teams, home and away; each fields an offense and a defense, and the ball alternates",
    "BR-R-ROSTER": "Offense QB, RB, WR1, WR2, SLOT, TE, OT1-OT5; defense MLB, DT1-2, DE1-2, OLB1-2, CB1-2, FS, SS",
    "BR-R-TABLE": "The position table is read by column (B, S, M, D); the S position is the safety; the OLB row ends in W",
    "BR-R-HANDS": "Each side sees only its own hands, the revealed cards and the public deck lists; draw piles are secret to both",
    "BR-R-DECKS": "Deck contents per position are part of the ruleset (8 cards each by default)",
    "BR-R-DECKBUILD": "Decks are built before the game by the ruleset; no cards are gained or lost during play",
    "BR-R-SHUFFLE": "Decks are shuffled by the seeded generator; an empty draw pile reshuffles the played cards",
    "BR-R-AGILITY": "An Agility range lo-hi rolls a whole number from lo to hi, each equally likely",
    "BR-R-AGILITY-MOD": "Strong and weak apply to the rolled Agility value",
    "BR-R-CARD": "A placement names each card by its code; equal codes are interchangeable; the code may be left out when the player holds only one kind",
    "BR-R-ALONE": "A side wins a zone 'on Focus (Strength) alone' when every card it has there is a Focus (Strength) card",
    "BR-R-TIE": "Equal totals: neither side wins or loses the zone",
    "BR-R-EMPTY": "A side with no cards in a zone has a total of 0 there; a zone the offense left empty gives no turnover",
    "BR-R-TURNOVER-ZONE": "A turnover needs the offense's cards in the zone to be all of the winning kind too: all Focus (a pass) for an interception, all Strength (a carry) for a fumble",
    "BR-R-CHAIN": "A completion is a won zone others may connect to; defense wins need no adjacency",
    "BR-R-SACK": "The Backfield's X holds no cards: a sack is the defense winning both playable Backfield zones (BL, BR)",
    "BR-R-PRIORITY": "An interception, then a fumble, then a sack decide the series before any yards; a turnover gains nothing",
    "BR-R-TURNOVER": "After an interception or fumble the other team takes over at the line of scrimmage",
    "BR-R-FIELD": "A 100-yard field; the ball is placed by yards from the offense's own goal line; drives start at the own 25",
    "BR-R-DOWN": "The plays of a series are downs 1-3; going for it is 4th down",
    "BR-R-SPOT": "The series' yards move the ball before the 4th-down choice; punts and kicks go from there",
    "BR-R-GO-RESCORE": "Going for it rescores the whole series from the line of scrimmage: the new yards replace the old",
    "BR-R-GO-FAIL": "Going for it and still short of 10 yards is a turnover on downs at the new spot",
    "BR-R-PUNT": "Punt: 40 yards from the spot; past the goal line it is a touchback at the receiving team's 20",
    "BR-R-FIELD-GOAL": "Field goal: distance = yards to the goal line + 17; a seeded roll against the odds table; 3 points; a miss gives the ball over at the spot",
    "BR-R-SCORE": "A touchdown scores 7 (no conversions); after any score the other team starts a drive at its own 25",
    "BR-R-FOURTH-WHO": "The 4th-down choice is the offense's alone; the defense waits",
    "BR-R-FIRST": "A seeded coin toss decides who has the ball first",
    "BR-R-LENGTH": "A game is 20 series (rounds); a series ends with a first down, a score, a turnover, a punt or a kick",
    "BR-R-WIN": "After the last series the team with more points wins; equal points are a draw",
}


def rules_text(r: BrawlRules) -> dict[str, str]:
    """Every rule as the ruleset ``r`` has it: the titles above with the ruleset's numbers, rosters and
    choices in place of the defaults (the rules lookup of a session answers from these)."""
    from gm.games.brawl.rules import REGION_NAMES, REGIONS

    n, go, need = r.series_cards, r.go_cards, r.first_down_yards
    mult = ", ".join(f"{g} {r.multipliers[g]}x" for g in REGIONS)
    odds = ", ".join(f"up to {d} yards {c}%" for d, c in sorted(r.field_goal_odds.items()))
    sizes = sorted({len(p.deck) for p in r.positions.values()})
    deck_sizes = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    turnover = {
        "pure": "A turnover needs the offense's cards in the zone to be all of the winning kind too: all Focus (a pass) "
        "for an interception, all Strength (a carry) for a fumble",
        "kind": "A turnover needs the offense to have a card of the winning kind in the zone",
        "reach": "A turnover needs the zone to be next to the X or to a zone the offense won (where its play reaches)",
        "any": "A defense win on Focus or Strength alone turns the ball over wherever the offense has cards",
    }[r.turnovers]
    first = {"toss": "A seeded coin toss decides who has the ball first",
             "home": "home has the ball first", "away": "away has the ball first"}[r.first_offense]
    out = dict(RULES)
    out.update({
        "BR-TEAMS": f"{len(r.offense)} players on offense and {len(r.defense)} on defense; each player has a deck of cards",
        "BR-DRAW": f"Each round is a {n}-play series and begins with every player drawing {n} card{'s' if n > 1 else ''}",
        "BR-REPEAT": f"Play and reveal again until all {n} cards have been played",
        "BR-YARDS": f"Yards = the sum of the won zones' values x the highest multiplier among them ({mult})",
        "BR-FIRST-DOWN": f"At least {need} yards on the series is a first down",
        "BR-FOURTH": f"Fewer than {need} yards: the offense chooses to punt, attempt a field goal or go for it",
        "BR-GO": f"Go for it: each player draws {go} card{'s' if go > 1 else ''}, both sides play and reveal {go} more "
        f"time{'s' if go > 1 else ''}, the series is rescored",
        "BR-STRONG": f"Strong (S): multiply the values on the card by {r.strong_factor}",
        "BR-WEAK": f"Weak (W): divide the values on the card by {r.weak_divisor}, rounded down",
        "BR-R-ROSTER": f"Offense {' '.join(r.offense)}; defense {' '.join(r.defense)}",
        "BR-R-DECKS": f"Deck contents per position are part of the ruleset ({deck_sizes} cards each)",
        "BR-R-TURNOVER-ZONE": turnover,
        "BR-R-FIELD": f"A {r.field_length}-yard field; the ball is placed by yards from the offense's own goal line; "
        f"drives start at the own {r.drive_start}",
        "BR-R-GO-FAIL": f"Going for it and still short of {need} yards is a turnover on downs at the new spot",
        "BR-R-PUNT": f"Punt: {r.punt_distance} yards from the spot; past the goal line it is a touchback at the receiving "
        f"team's {r.punt_touchback}",
        "BR-R-FIELD-GOAL": f"Field goal: distance = yards to the goal line + {r.field_goal_extra}; a seeded roll against the "
        f"odds ({odds}); {r.field_goal_points} points; a miss gives the ball over at the spot",
        "BR-R-SCORE": f"A touchdown scores {r.touchdown_points} (no conversions); after any score the other team starts a "
        f"drive at its own {r.drive_start}",
        "BR-R-FIRST": first,
        "BR-R-LENGTH": f"A game is {r.rounds} series (rounds); a series ends with a first down, a score, a turnover, "
        "a punt or a kick",
        "BR-GRID": "A 4x3 grid of zones: regions " + ", ".join(REGION_NAMES[g] for g in REGIONS) + "; columns Left, Middle, Right",
    })
    return out


# alike on purpose: every game has a table of this shape (a player's word -> the rule ids it means, read by
# Game.rule_words and the rules lookup); the words and the rules are each game's own
#: the words players use for the rules, with the rule ids they mean (the rules lookup finds a rule by these too)
RULE_WORDS: dict[str, tuple[str, ...]] = {
    "pick": ("BR-INTERCEPTION", "BR-R-TURNOVER-ZONE"),
    "interception": ("BR-INTERCEPTION", "BR-R-TURNOVER-ZONE"),
    "fumble": ("BR-FUMBLE", "BR-R-TURNOVER-ZONE"),
    "turnover": ("BR-INTERCEPTION", "BR-FUMBLE", "BR-R-TURNOVER-ZONE", "BR-R-TURNOVER"),
    "sack": ("BR-SACK", "BR-R-SACK"),
    "completion": ("BR-COMPLETION", "BR-R-CHAIN"),
    "pass": ("BR-COMPLETION", "BR-INTERCEPTION"),
    "catch": ("BR-COMPLETION",),
    "connect": ("BR-ADJ", "BR-R-CHAIN"),
    "chain": ("BR-ADJ", "BR-R-CHAIN"),
    "adjacent": ("BR-ADJ",),
    "multiplier": ("BR-YARDS",),
    "yards": ("BR-YARDS", "BR-MARGIN"),
    "margin": ("BR-MARGIN",),
    "tie": ("BR-R-TIE",),
    "x": ("BR-X",),
    "zone": ("BR-GRID", "BR-ZONE-ONE", "BR-WIN-ZONE"),
    "hand": ("BR-HAND", "BR-R-HANDS"),
    "deck": ("BR-R-DECKS", "BR-R-DECKBUILD", "BR-R-SHUFFLE"),
    "shuffle": ("BR-R-SHUFFLE",),
    "draw": ("BR-DRAW", "BR-R-SHUFFLE"),
    "secret": ("BR-SECRET", "BR-R-HANDS"),
    "reveal": ("BR-REVEAL",),
    "roll": ("BR-AGILITY-ROLL", "BR-R-AGILITY"),
    "agility": ("BR-CARDS", "BR-AGILITY-ROLL", "BR-R-AGILITY", "BR-R-AGILITY-MOD"),
    "strength": ("BR-CARDS", "BR-FUMBLE"),
    "focus": ("BR-CARDS", "BR-COMPLETION", "BR-INTERCEPTION"),
    "strong": ("BR-STRONG", "BR-POSITION"),
    "weak": ("BR-WEAK", "BR-POSITION"),
    "position": ("BR-POSITION", "BR-R-TABLE"),
    "roster": ("BR-R-ROSTER", "BR-TEAMS"),
    "punt": ("BR-PUNT", "BR-R-PUNT"),
    "kick": ("BR-FIELD-GOAL", "BR-R-FIELD-GOAL"),
    "fg": ("BR-FIELD-GOAL", "BR-R-FIELD-GOAL"),
    "touchdown": ("BR-TD", "BR-R-SCORE"),
    "td": ("BR-TD", "BR-R-SCORE"),
    "score": ("BR-R-SCORE", "BR-R-WIN"),
    "down": ("BR-R-DOWN", "BR-FIRST-DOWN", "BR-FOURTH"),
    "4th": ("BR-FOURTH", "BR-GO", "BR-R-FOURTH-WHO"),
    "fourth": ("BR-FOURTH", "BR-GO", "BR-R-FOURTH-WHO"),
    "go": ("BR-GO", "BR-R-GO-RESCORE", "BR-R-GO-FAIL"),
    "win": ("BR-R-WIN",),
    "length": ("BR-R-LENGTH",),
    "toss": ("BR-R-FIRST",),
}
