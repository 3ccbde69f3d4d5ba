"""Hand-written Quarter Back chatbot logs (a match between the default bots, seed 0)."""

CLEAN = """\
## Move log

T1 blue: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB) | blue QB H-2 | game 1 half 1, score red 0-0 blue | blue won the toss
T2 red: move D2 G1-H1-H0, move T2 H4-H1 | ball H-2 (QB) | red D2 H0, red T2 H1 | game 1 half 1, score red 0-0 blue
T3 blue: move QB H-2-I-1, end | ball I-1 (QB) | blue QB I-1 | game 1 half 1, score red 0-0 blue
T4 red: move D2 H0-I-1 | blue scores 9 | game 1 half 1, score red 0-9 blue
T5 red: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB) | red QB H-2 | game 1 half 2, score red 0-9 blue
"""

#: the same turns as a chatbot writes them: a bulleted list in bold, a code fence, typographic
#: minus signs and dashes, upper and lower case, chatter between the turns
MESSY = """\
Sure! Here's where we are.

**MOVE LOG**

```
- **Turn 1** \u2014 Blue: Move QB E\u22122-F\u22121-G\u22121-H\u22122, End | Ball H\u22122 (QB)
```

Red thinks for a while...

- **Turn 2** \u2014 RED: move D2 G1-H1-H0; move T2 H4-H1 | ball H-2
* Turn 3 \u2014 blue: move qb h-2-i-1, end (the QB slips right) | ball I-1
* Turn 4 \u2014 red: move D2 H0-I-1 \u2014 TACKLE! | Blue scores 9 | score: red 0 - blue 9

Your move, red!
"""

#: the same game with the sides swapped (the default bots under seed 1): seed 0 has blue attack first, seed 1 red
RED_FIRST = """\
## Move log

T1 red: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB) | red QB H-2 | game 1 half 1, score red 0-0 blue | red won the toss
T2 blue: move D2 G1-H1-H0, move T2 H4-H1 | ball H-2 (QB) | blue D2 H0, blue T2 H1 | game 1 half 1, score red 0-0 blue
T3 red: move QB H-2-I-1, end | ball I-1 (QB) | red QB I-1 | game 1 half 1, score red 0-0 blue
T4 blue: move D2 H0-I-1 | red scores 9 | game 1 half 1, score red 9-0 blue
T5 blue: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB) | blue QB H-2 | game 1 half 2, score red 9-0 blue
"""
