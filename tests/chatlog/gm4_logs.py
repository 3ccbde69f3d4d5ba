"""Hand-written GridMaster4 chatbot logs (four default bots, the first twelve moves)."""

CLEAN = """\
## Move log

M1 orange: place 1 at H13 | orange active H13 | scores orange 1, magenta 0, lime 0, aqua 0
M2 magenta: place 1 at H8 | magenta active H8 | scores orange 1, magenta 1, lime 0, aqua 0
M3 lime: place 1 at L7 | lime active L7 | scores orange 1, magenta 1, lime 1, aqua 0
M4 aqua: place 1 at I9 | aqua active I9 | scores orange 1, magenta 1, lime 1, aqua 1
M5 orange: place 2 at K13 | orange active K13 | scores orange 2, magenta 1, lime 1, aqua 1
M6 magenta: place 2 at J10 | magenta active J10 | scores orange 2, magenta 2, lime 1, aqua 1
M7 lime: place 2 at I7 | lime active I7 | scores orange 2, magenta 2, lime 2, aqua 1
M8 aqua: place 2 at G11 | aqua active G11 | scores orange 2, magenta 2, lime 2, aqua 2
"""

#: as a chatbot writes it: a numbered list, bold colours, "Lime green", upper case cells, a
#: markdown table row, chatter
MESSY = """\
Great game so far! **Move Log:**

1. **Orange**: place 1 at h13
2. **Magenta**: Place 1 at H8 (a central start)
3. **Lime green**: place 1 at L7 | scores: orange 1, magenta 1, lime 1, aqua 0

Aqua is thinking...

4. **Aqua**: place 1 at I9
| 5 | orange: place 2 at K13 | Orange active: K13 |
6. Magenta: \u201cplace 2 at J10\u201d
"""
