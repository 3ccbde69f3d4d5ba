"""``gm balance``: the sweep, the study's figures and flags, the files it writes (HTML with plots, JSON,
CSV, example games ``gm replay`` opens), the same numbers on one core, a process pool and a Dask cluster."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gm.balance.flags import Thresholds, run_flags
from gm.balance.stats import rate, spread, wilson
from gm.balance.study import Study, parse_vary, run_study, sweep
from gm.cli.app import app
from gm.core import GameError
from gm.core.registry import find_game
from gm.sim import GameResult
from gm.transcript.format import Transcript
from gm.transcript.replay import replay

GF = find_game("grid-football")
QB = find_game("quarterback")
#: a short Grid Football: two quarters of two downs (a game is a few dozen moves)
SHORT_GF = {"quarters": 2, "downs_per_quarter": 2, "switch_after_quarters": [1], "warning_quarters": [2]}
runner = CliRunner()


# ----------------------------------------------------------------------------- the sweep
def test_a_range_includes_both_ends_and_a_list_keeps_its_order() -> None:
    assert parse_vary(GF, "kick_distance=40:60:10").values == (40, 50, 60)
    assert parse_vary(GF, "kick_distance=40:60:15").values == (40, 55)
    assert parse_vary(GF, " first_down_rows = 12,8,10,8 ").values == (12, 8, 10)
    assert parse_vary(QB, "tackle_reading=groups,pairs").values == ("groups", "pairs")
    assert parse_vary(GF, "kick_distance=1:2:0.5").values == (1.0, 1.5, 2.0)


@pytest.mark.parametrize(("spec", "says"), [
    ("kick_distanse=40:60", "did you mean 'kick_distance'"),
    ("kick_distance", "FIELD=LOW:HIGH:STEP"),
    ("kick_distance=60:40", "runs up from LOW to HIGH"),
    ("kick_distance=a:b", "made of numbers"),
    ("kick_distance=0:1000:1", "at most 100 values"),
])  # fmt: skip
def test_a_bad_vary_is_one_clear_error(spec: str, says: str) -> None:
    with pytest.raises(GameError) as info:
        parse_vary(GF, spec)
    assert says in info.value.message and info.value.rule == "CORE-BALANCE"


def test_the_sweep_is_every_combination_and_keeps_an_invalid_one_with_its_reason() -> None:
    sets = sweep(GF, {}, [parse_vary(GF, "kick_distance=40,50"), parse_vary(GF, "first_down_rows=8,2000")])
    assert [s.values for s in sets] == [
        {"kick_distance": 40, "first_down_rows": 8}, {"kick_distance": 40, "first_down_rows": 2000},
        {"kick_distance": 50, "first_down_rows": 8}, {"kick_distance": 50, "first_down_rows": 2000},
    ]  # fmt: skip
    assert sets[0].rules is not None and sets[0].rules["kick_distance"] == 40 and sets[0].error is None
    assert sets[1].rules is None and "first_down_rows" in str(sets[1].error) and "out of range" in str(sets[1].error)


# ----------------------------------------------------------------------------- statistics and flags
def test_wilson_intervals_and_spread() -> None:
    lo, hi = wilson(50, 100)
    assert round(lo, 4) == 0.4038 and round(hi, 4) == 0.5962
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
    assert rate(3, 4)["rate"] == 0.75
    assert spread([5, 1, 3, 9]) == {"median": 4.0, "q1": 2.5, "q3": 6.0, "min": 1.0, "max": 9.0}


def _result(i: int, winner: str | None, digest: str, **kw: Any) -> GameResult:
    return GameResult(winner=winner, reason="r", finished=True, length=10 + i, events={}, index=i, digest=digest, **kw)


def test_each_flag_says_what_is_wrong_with_an_example_game() -> None:
    specs = {"home": "bot:default", "away": "bot:default"}
    results = [
        _result(0, "home", "a", kinds_open={"home": ("punt", "play_call")}, kinds_used={"home": ("play_call",)}),
        _result(1, "home", "b", capped=True),
        _result(2, "home", "a"),
        _result(3, None, "c"),
    ]
    flags = {f.kind: f for f in run_flags(GF, specs, results, Thresholds(draws=0.2, wins=0.7, capped=0.2, line=0.5))}
    assert set(flags) == {"repeats", "draws", "wins", "capped", "unused"}
    assert flags["repeats"].example == 2 and "games 0 and 2" in flags["repeats"].message
    assert flags["draws"].example == 3 and flags["wins"].seat == "home" and flags["wins"].value == 0.75
    assert flags["capped"].example == 1 and "GF-R-SCORELESS" in flags["capped"].message
    assert flags["unused"].seat == "home" and "'punt'" in flags["unused"].message and flags["unused"].example == 0
    # a line winning beyond doubt is flagged; one winning by the luck of a few games is not
    lines = {("away", "punt"): [_result(i, "away", str(i)) for i in range(30)],
             ("home", "punt"): [_result(i, "home" if i < 3 else "away", str(i)) for i in range(4)]}
    line_flags = [f for f in run_flags(GF, specs, [], Thresholds(), lines) if f.kind == "line"] + [
        f for f in run_flags(GF, specs, results, Thresholds(), lines) if f.kind == "line"]
    assert [(f.seat, f.line, f.example) for f in line_flags] == [("away", "punt", 0)]


# ----------------------------------------------------------------------------- a study
def _study(**kw: Any) -> Study:
    base: dict[str, Any] = {"game": GF, "base": dict(SHORT_GF), "varies": [parse_vary(GF, "kick_distance=40:60:20")],
                            "games": 12, "seed": 3, "line_games": 2}
    return Study(**(base | kw))


def test_a_study_reports_rates_with_intervals_lengths_headlines_and_lines() -> None:
    s = run_study(_study())
    assert s["game"] == "grid-football" and s["varied"] == ["kick_distance"] and len(s["rulesets"]) == 2
    for rs in s["rulesets"]:
        n = rs["games"]
        assert n == 12 and sum(rs["seats"][seat]["k"] for seat in GF.seats) + rs["draws"]["k"] + rs["unfinished"] == n
        for r in [*rs["seats"].values(), rs["draws"]]:
            assert r["low"] <= r["rate"] <= r["high"] and r["n"] == n
        assert len(rs["lengths"]) == n and rs["length"]["min"] <= rs["length"]["median"] <= rs["length"]["max"]
        assert set(rs["headlines"]) == set(GF.sim_headlines) and rs["distinct"] == n
        assert {(row["seat"], row["line"]) for row in rs["lines"]} == {(seat, k) for seat in GF.seats for k in GF.action_types()}
        assert all(row["games"] == 2 for row in rs["lines"])
    assert s["rulesets"][0]["rules"]["kick_distance"] == 40 and s["rulesets"][1]["rules"]["kick_distance"] == 60


def test_the_same_study_gives_the_same_numbers_on_one_core_and_in_a_pool() -> None:
    one = run_study(_study(line_games=2), workers=1)
    pool = run_study(_study(line_games=2), workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(pool, sort_keys=True)


def test_a_local_dask_cluster_gives_the_same_numbers_as_the_local_run() -> None:
    """Two Dask workers on loopback TCP (in this process: worker processes would take half a minute to start
    and import gm; the games travel as the same pickled jobs either way)."""
    from distributed import LocalCluster

    local = run_study(_study(games=8, line_games=2), workers=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, host="127.0.0.1", protocol="tcp://",
                      dashboard_address=None) as cluster:  # (real TCP on loopback, in-process workers or not)
        seen: list[tuple[int, int]] = []
        remote = run_study(_study(games=8, line_games=2), workers=2, scheduler=cluster.scheduler_address,
                           progress=lambda done, total: seen.append((done, total)))
    assert json.dumps(local, sort_keys=True) == json.dumps(remote, sort_keys=True)
    assert seen[-1][0] == seen[-1][1] == 2 * (8 + 2 * len(GF.seats) * len(GF.action_types()))


def test_a_scheduler_that_is_not_there_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gm.sim

    monkeypatch.setattr(gm.sim, "CONNECT_TIMEOUT", "1s")
    res = runner.invoke(app, ["balance", "gf", "-n", "2", "--lines", "0", "-o", str(tmp_path / "b"),
                              "--scheduler", "tcp://127.0.0.1:1"], catch_exceptions=True)  # fmt: skip
    assert res.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- the command and its files
def test_gm_balance_writes_html_with_plots_json_csv_and_replayable_examples(tmp_path: Path) -> None:
    out = tmp_path / "study"
    rules = tmp_path / "short.toml"
    rules.write_text("quarters = 2\ndowns_per_quarter = 2\nswitch_after_quarters = [1]\nwarning_quarters = [2]\n")
    res = runner.invoke(app, ["balance", "grid-football", "--vary", "kick_distance=40:60:10", "--games", "10", "--lines", "3",
                              "--seed", "5", "--rules", str(rules), "-o", str(out), "--workers", "1"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "wrote" in res.output and "report.html" in res.output
    data = json.loads((out / "results.json").read_text())
    assert [rs["values"]["kick_distance"] for rs in data["rulesets"]] == [40, 50, 60]
    page = (out / "report.html").read_text()
    assert page.count("<svg") == 3 and "win and draw rates against kick_distance" in page and "game length" in page
    with (out / "results.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["kick_distance"] for r in rows] == ["40", "50", "60"]
    assert {"home_win_rate", "home_win_low", "home_win_high", "draw_rate", "length_median", "touchdown_per_game"} <= set(rows[0])
    flagged = [f for rs in data["rulesets"] for f in rs["flags"]]
    # four downs a game rarely make a touchdown: drawn, ended by the clock (GF-R-SCORELESS), flagged so
    assert {f["kind"] for f in flagged} >= {"draws", "capped"}
    for f in flagged:
        assert f["transcript"] and (out / f["transcript"]).is_file() and f["transcript"] in page
    f = next(f for f in flagged if f["kind"] == "capped")
    tr = Transcript.load(out / f["transcript"])
    assert tr.header.seed == 5 + f["example"] and replay(tr).ok
    again = runner.invoke(app, ["replay", str(out / f["transcript"])])
    assert again.exit_code == 0, again.output


def test_gm_balance_refuses_a_human_seat_and_a_bad_field_in_one_line(tmp_path: Path) -> None:
    res = runner.invoke(app, ["balance", "gf", "--player", "home=human", "-o", str(tmp_path)])
    assert res.exit_code != 0 and "--player takes SEAT=bot" in res.output
    res = runner.invoke(app, ["balance", "gf", "--vary", "kikc_distance=1:2", "-o", str(tmp_path)])
    assert res.exit_code != 0 and "did you mean 'kick_distance'" in res.output and "Traceback" not in res.output


def test_gm_sim_reports_the_same_flags_and_lines(tmp_path: Path) -> None:
    res = runner.invoke(app, ["sim", "quarterback", "-n", "6", "--seed", "2", "--lines", "2", "--workers", "1", "--json",
                              "--max-draws", "0.0"])  # fmt: skip
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["distinct_games"] <= 6 and 0.0 <= rep["capped_rate"] <= 1.0
    assert ("draws" in {f["kind"] for f in rep["flags"]}) == (rep["draws"] > 0)
    res = runner.invoke(app, ["sim", "quarterback", "-n", "4", "--seed", "2", "--workers", "1"])
    assert res.exit_code == 0 and "flags" in res.output and "distinct games" in res.output


def test_a_downs_whistle_is_play_and_a_tie_after_overtime_is_a_cap() -> None:
    """Chess-Football's whistle ends a down (CF-R-DOWN-LIMIT), not the game: a game won on points is not
    'ended by a cap' however many downs were whistled; a game left tied after overtime (CF-R-OT-TIE) is."""
    from gm.sim import play_one

    cf = find_game("chess-football")
    rules = cf.load_rules({"possessions_per_half": 1, "overtime_periods": 1})
    bots = {"home": "bot:default", "away": "bot:default"}
    won = play_one(cf, rules, bots, 3, 0, 100_000)
    tied = play_one(cf, rules, bots, 3, 2, 100_000)
    assert (won.winner, won.reason, won.capped) == ("away", "more points after overtime", False) and won.events["whistle"] == 7
    assert (tied.winner, tied.reason, tied.capped) == (None, "tied after overtime", True) and tied.events["whistle"] == 6
