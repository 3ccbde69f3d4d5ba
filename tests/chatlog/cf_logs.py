"""Hand-written Chess-Football chatbot logs (the default bots, seed 0: captains, the toss, four snaps)."""

CLEAN = """\
## Move log

T1 away: captains deep_threat safety | home: captains deep_threat safety | pre-game, score home 0-0 away
T2 away: tails | coin tails, away wins the toss | ball H38 (QB), away 1st & 4 at row 37 | half 1, score home 0-0 away
T3 away: plan: DT to L34 C; FA1 to F34 C; FA2 to K34 C; QB pass to DT | home: plan: SF to K33 C; HV3 to G37 C; HV4 to G37 C; ST3 to G37 C; ST4 to N34 C; FA3 to C34 C; FA4 to N34 NW | collision HV3 4 HV1 1 | pass roll 3 | ball H38 (QB), away 2nd & 4 at row 37 | half 1, score home 0-0 away
T4 away: plan: DT to L34 C; FA1 to F34 C; FA2 to K34 C; QB pass to DT | home: plan: SF to K33 C; HV3 to G37 C; HV4 to G37 C; ST3 to G37 C; ST4 to N34 C; FA3 to C34 C; FA4 to N34 NW | collision HV3 5 HV1 4 | pass roll 4 | ball H38 (QB), away 3rd & 4 at row 37 | half 1, score home 0-0 away
T5 away: plan: DT to L34 C; FA1 to F34 C; FA2 to K34 C; QB pass to DT | home: plan: SF to K33 C; HV3 to G37 C; HV4 to G37 C; ST3 to G37 C; ST4 to N34 C; FA3 to C34 C; FA4 to N34 NW | collision HV3 3 HV1 4, HV4 3 HV1 5, ST3 2 HV1 5 | pass roll 2 | ball H11 (QB), home 1st & 4 at row 12 | half 1, score home 0-0 away
"""

#: as a chatbot writes it: a table whose header names the seats, bold, upper and lower case,
#: curly quotes, and chatter
TABLE = """\
Here's the log, coach:

### Move log
| Line | Home | Away | After |
| :-- | :-- | :-- | :-- |
| 1 | Captains **Deep_Threat Safety** | captains deep_threat safety | Pre-game |
| 2 | | \u201ctails\u201d | Coin: tails - Away wins the toss |
| 3 | PLAN: SF to K33 C; HV3 to G37 C; HV4 to G37 C; ST3 to G37 C; ST4 to N34 C; FA3 to C34 C; FA4 to N34 NW | plan: DT to L34 C; FA1 to F34 C; FA2 to K34 C; QB pass to DT | Ball H38, away 2nd and 4 |

The pass fell incomplete. Next snap?
"""
