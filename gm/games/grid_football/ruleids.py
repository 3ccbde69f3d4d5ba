"""Every rule id of Grid Football, with a one-line title.

``GF-*`` ids name rules of the quick-start document; ``GF-R-*`` ids name the
rulings recorded in ``rules_md/grid_football.md`` where the document is silent,
vague or contradicts itself.  The titles are the rules as the default ruleset words
them (:func:`~gm.games.grid_football.rulestext.rules_text`; a session's custom ruleset
gets its own wording from the same function).
"""

from gm.games.grid_football.rules import GridFootballRules
from gm.games.grid_football.rulestext import rules_text

RULES: dict[str, str] = rules_text(GridFootballRules())
