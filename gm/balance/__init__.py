"""``gm balance``: a balance study of a game's ruleset - the answer a rule designer wants in one command.

It sweeps ruleset fields (:mod:`gm.balance.sweep`), plays every ruleset with the bots named (locally on
every core, or on a Dask cluster: :func:`gm.sim.run_jobs`), reports per ruleset each seat's win and draw
rate with 95% intervals, game length and the game's headline event rates (:mod:`gm.balance.study`), flags
what a designer must see (:mod:`gm.balance.flags`: repeated games, lopsided or drawn results, games ended by
a cap, a kind of move a bot never uses, a simple scripted line that beats the default bot, with an example
game for each), and writes an HTML report with plots, JSON and CSV (:mod:`gm.balance.report`).
"""
