"""The study written for people and for programs: ``report.html`` (plots and tables, one page that opens
offline anywhere), ``results.json`` (everything) and ``results.csv`` (one row per ruleset).

The plots are drawn with matplotlib as SVG inlined in the page: a well-kept library that draws error bars,
box plots and stacked bars without a line of drawing code of ours, and SVG keeps the page a single file
with no script, no network and sharp text at any zoom (a JavaScript charting library would need its
bundle shipped or fetched).  The SVG is made reproducible (fixed ids, no date), so the same study writes
the same page.  Without matplotlib (``pip install 'gm[balance]'``) the page has the tables only.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FLAG_KINDS = ("repeats", "draws", "wins", "capped", "unused", "line")
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def write_report(summary: Mapping[str, Any], out: Path, examples: Mapping[tuple[str, int], str] | None = None) -> dict[str, Path]:
    """Write ``results.json``, ``results.csv`` and ``report.html`` into ``out``; ``examples``: the transcript
    (path relative to ``out``) of each flag, by (ruleset id, flag number)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "csv": out / "results.csv", "html": out / "report.html"}
    data = dict(summary)
    if examples:
        data["rulesets"] = [
            {**rs, "flags": [{**f, "transcript": examples.get((rs["id"], i))} for i, f in enumerate(rs.get("flags", []))]}
            for rs in summary["rulesets"]
        ]
    paths["json"].write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    write_csv(data, paths["csv"])
    paths["html"].write_text(html_page(data), encoding="utf-8")
    return paths


# ----------------------------------------------------------------------------- CSV
def csv_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per ruleset: the swept values, each seat's win rate and interval, draws, length, caps, the
    headline rates, distinct games and the flags' kinds."""
    rows = []
    seats = list(summary["players"])
    for rs in summary["rulesets"]:
        row: dict[str, Any] = {"ruleset": rs["id"], **{f: rs["values"].get(f) for f in summary["varied"]}}
        if rs.get("error"):
            row["error"] = rs["error"]
            rows.append(row)
            continue
        row["games"] = rs["games"]
        for seat in seats:
            r = rs["seats"][seat]
            row |= {f"{seat}_win_rate": _r(r["rate"]), f"{seat}_win_low": _r(r["low"]), f"{seat}_win_high": _r(r["high"])}
        row |= {"draw_rate": _r(rs["draws"]["rate"]), "draw_low": _r(rs["draws"]["low"]), "draw_high": _r(rs["draws"]["high"])}
        row |= {f"length_{k}": v for k, v in rs["length"].items()}
        row |= {"capped_rate": _r(rs["capped"]["rate"]), "distinct_games": rs["distinct"], "unfinished": rs["unfinished"]}
        row |= {f"{kind}_per_game": _r(h["per_game"]) for kind, h in rs["headlines"].items()}
        row["flags"] = " ".join(f["kind"] for f in rs["flags"])
        rows.append(row)
    return rows


def _r(x: float) -> float:
    return round(float(x), 4)


def write_csv(summary: Mapping[str, Any], path: Path) -> None:
    rows = csv_rows(summary)
    names: list[str] = []
    for row in rows:
        names += [k for k in row if k not in names]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=names)
        w.writeheader()
        w.writerows(rows)


# ----------------------------------------------------------------------------- plots
def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig: Any) -> str:
    """The figure as SVG text for inlining (reproducible: fixed ids, no date; text kept as text)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "gm-balance", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _pooled(summary: Mapping[str, Any], field: str) -> tuple[list[Any], dict[str, list[tuple[int, int]]]]:
    """For each value of ``field``: every seat's wins and the draws, pooled over the other swept fields."""
    values: list[Any] = []
    counts: dict[str, dict[Any, list[int]]] = {}
    for rs in summary["rulesets"]:
        if rs.get("error"):
            continue
        v = rs["values"].get(field)
        if v not in values:
            values.append(v)
        for seat, r in rs["seats"].items():
            c = counts.setdefault(seat, {}).setdefault(v, [0, 0])
            c[0] += r["k"]
            c[1] += r["n"]
        c = counts.setdefault("draws", {}).setdefault(v, [0, 0])
        c[0] += rs["draws"]["k"]
        c[1] += rs["draws"]["n"]
    return values, {who: [(c[v][0], c[v][1]) for v in values] for who, c in counts.items()}


def plot_rates(summary: Mapping[str, Any], field: str | None) -> str:
    """Win rates (and the draw rate) with 95% intervals against a swept field; with nothing swept, per
    seat as bars."""
    from gm.balance.stats import wilson

    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot()
    if field is None:
        rs = next(r for r in summary["rulesets"] if not r.get("error"))
        names = [*rs["seats"], "draws"]
        rates = [*rs["seats"].values(), rs["draws"]]
        bars = list(range(len(names)))
        ax.bar(bars, [r["rate"] for r in rates], color=_COLOURS[: len(names)], alpha=0.75)
        ax.errorbar(bars, [r["rate"] for r in rates], yerr=[[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]],
                    fmt="none", ecolor="black", capsize=4)  # fmt: skip
        ax.set_xticks(bars, names)
        ax.set_title("win and draw rates (95% intervals)")
    else:
        values, counts = _pooled(summary, field)
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        xs = list(values) if numeric else list(range(len(values)))
        for k, (who, pairs) in enumerate(counts.items()):
            mids = [s / n if n else 0.0 for s, n in pairs]
            bounds = [wilson(s, n) for s, n in pairs]
            ax.errorbar(xs, mids, yerr=[[m - lo for m, (lo, _) in zip(mids, bounds, strict=True)],
                                        [hi - m for m, (_, hi) in zip(mids, bounds, strict=True)]],
                        marker="o", capsize=4, label=who if who == "draws" else f"{who} wins",
                        color=_COLOURS[k % len(_COLOURS)], linestyle="--" if who == "draws" else "-")  # fmt: skip
        ax.set_xticks(xs, [f"{v:g}" if numeric else str(v) for v in values])
        ax.set_xlabel(field)
        ax.set_title(f"win and draw rates against {field} (95% intervals)")
        ax.legend(loc="best", fontsize="small")
    ax.set_ylim(0, 1)
    ax.set_ylabel("rate")
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def _per_ruleset(summary: Mapping[str, Any], height: float) -> tuple[list[Mapping[str, Any]], Any, Any]:
    """The rulesets that ran, and a figure (with its axes) ``height`` inches high and wide enough for a column each."""
    sets = [rs for rs in summary["rulesets"] if not rs.get("error")]
    fig = _figure(max(4.0, 0.6 * len(sets) + 2.5), height)
    return sets, fig, fig.add_subplot()


def plot_lengths(summary: Mapping[str, Any]) -> str:
    """The distribution of game length (moves) in every ruleset, as box plots."""
    sets, fig, ax = _per_ruleset(summary, 3.4)
    ax.boxplot([rs["lengths"] or [0] for rs in sets], tick_labels=[_label(rs, summary) for rs in sets], showmeans=True)
    ax.set_ylabel("moves per game")
    ax.set_title("game length")
    ax.tick_params(axis="x", labelrotation=30 if len(sets) > 4 else 0)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def plot_flags(summary: Mapping[str, Any]) -> str:
    """How many flags of each kind every ruleset raised, as stacked bars."""
    sets, fig, ax = _per_ruleset(summary, 3.0)
    bottom = [0] * len(sets)
    xs = list(range(len(sets)))
    for k, kind in enumerate(FLAG_KINDS):
        counts = [sum(f["kind"] == kind for f in rs["flags"]) for rs in sets]
        if any(counts):
            ax.bar(xs, counts, bottom=bottom, label=kind, color=_COLOURS[k % len(_COLOURS)])
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    ax.set_xticks(xs, [_label(rs, summary) for rs in sets])
    ax.tick_params(axis="x", labelrotation=30 if len(sets) > 4 else 0)
    ax.set_ylabel("flags")
    ax.set_title("flags per ruleset" if any(bottom) else "flags per ruleset: none")
    if any(bottom):
        ax.legend(loc="best", fontsize="small")
    ax.set_ylim(0, max([*bottom, 1]) + 0.5)
    return _svg(fig)


def _label(rs: Mapping[str, Any], summary: Mapping[str, Any]) -> str:
    if not summary["varied"]:
        return str(rs["id"])
    return ", ".join(str(rs["values"].get(f)) for f in summary["varied"])


def plots(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every plot of the page as (caption, SVG); none without matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return []
    out = [(f"Win rates against {f}", plot_rates(summary, f)) for f in summary["varied"]] or [("Win rates", plot_rates(summary, None))]
    out.append(("Game length", plot_lengths(summary)))
    out.append(("Flags", plot_flags(summary)))
    return out


# ----------------------------------------------------------------------------- the page
_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25em .55em; text-align: right; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
.flag { margin: .3em 0; } .kind { font-weight: 600; } .none { color: #2a7; }
"""


def _pct(r: Mapping[str, Any]) -> str:
    return f"{r['rate']:.0%} <small>[{r['low']:.0%}-{r['high']:.0%}]</small>"


def html_page(summary: Mapping[str, Any]) -> str:
    """The report page: what was played, the plots, a table per ruleset, the flags with their example
    games, and the scripted lines' results."""
    e = html.escape
    seats = list(summary["players"])
    head = (f"{summary['games']} games per ruleset from seed {summary['seed']}; players: "
            + ", ".join(f"{s} {p}" for s, p in summary["players"].items()))
    if summary["varied"]:
        head += "; swept: " + ", ".join(summary["varied"])
    if summary["line_games"]:
        head += f"; {summary['line_games']} games per simple scripted line against the default bot"
    parts = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>gm balance: {e(summary['game'])}</title>",
             f"<style>{_CSS}</style></head><body>", f"<h1>Balance study: {e(summary['game'])}</h1>", f"<p>{e(head)}.</p>"]
    if summary.get("base"):
        parts.append(f"<p>Every ruleset: <code>{e(json.dumps(summary['base'], sort_keys=True))}</code></p>")
    figs = plots(summary)
    if figs:
        parts.append("<h2>Plots</h2>")
        for caption, svg in figs:
            parts.append(f'<figure class="plot"><figcaption>{e(caption)}</figcaption>{svg}</figure>')
    else:
        parts.append("<p><em>No plots: matplotlib is not installed (pip install 'gm[balance]').</em></p>")
    parts.append("<h2>Rulesets</h2><table><tr>" + "".join(
        f'<th class="l">{e(h)}</th>' for h in ["ruleset", *summary["varied"]]) + "".join(
        f"<th>{e(h)}</th>" for h in [*(f"{s} wins" for s in seats), "draws", "length median (IQR)", "capped", "distinct",
                                    "flags"]) + "</tr>")  # fmt: skip
    for rs in summary["rulesets"]:
        cells = [f'<td class="l">{e(rs["id"])}</td>'] + [f'<td class="l">{e(str(rs["values"].get(f)))}</td>' for f in summary["varied"]]
        if rs.get("error"):
            cells.append(f'<td class="l" colspan="{len(seats) + 5}">not a valid ruleset: {e(rs["error"])}</td>')
        else:
            ln = rs["length"]
            cells += [f"<td>{_pct(rs['seats'][s])}</td>" for s in seats]
            cells += [f"<td>{_pct(rs['draws'])}</td>", f"<td>{ln['median']:g} ({ln['q1']:g}-{ln['q3']:g})</td>",
                      f"<td>{rs['capped']['rate']:.0%}</td>", f"<td>{rs['distinct']}/{rs['games']}</td>", f"<td>{len(rs['flags'])}</td>"]
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</table>")
    heads = _headline_table(summary)
    if heads:
        parts.append("<h2>Headline events per game</h2>" + heads)
    parts.append("<h2>Flags</h2>")
    any_flag = False
    for rs in summary["rulesets"]:
        for f in rs.get("flags", []):
            any_flag = True
            link = f' - example: <a href="{e(f["transcript"])}">{e(f["transcript"])}</a> (<code>gm replay {e(f["transcript"])}</code>)' if f.get("transcript") else (
                f" - example: game {f['example']}" if f.get("example") is not None else "")
            parts.append(f'<div class="flag"><span class="kind">{e(rs["id"])} {e(f["kind"])}</span>: {e(f["message"])}{link}</div>')
    if not any_flag:
        parts.append('<p class="none">No flags: nothing a designer must see.</p>')
    lines = [rs for rs in summary["rulesets"] if rs.get("lines")]
    if lines:
        parts.append("<h2>Simple scripted lines against the default bot</h2><table><tr><th class=\"l\">ruleset</th>"
                     "<th class=\"l\">seat</th><th class=\"l\">line</th><th>wins</th><th>draws</th><th>games</th><th>win rate</th></tr>")
        for rs in lines:
            for row in rs["lines"]:
                parts.append(f'<tr><td class="l">{e(rs["id"])}</td><td class="l">{e(row["seat"])}</td><td class="l">{e(row["text"])}</td>'
                             f"<td>{row['wins']}</td><td>{row['draws']}</td><td>{row['games']}</td>"
                             f"<td>{row['win_rate']:.0%} <small>[{row['low']:.0%}-{row['high']:.0%}]</small></td></tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _headline_table(summary: Mapping[str, Any]) -> str:
    sets = [rs for rs in summary["rulesets"] if not rs.get("error")]
    kinds: Sequence[str] = list(sets[0]["headlines"]) if sets else []
    if not kinds:
        return ""
    e = html.escape
    rows = ["<table><tr><th class=\"l\">ruleset</th>" + "".join(f"<th>{e(sets[0]['headlines'][k]['label'])}</th>" for k in kinds) + "</tr>"]
    for rs in sets:
        rows.append(f'<tr><td class="l">{e(rs["id"])}</td>' + "".join(
            f"<td>{rs['headlines'][k]['per_game']:.2f} <small>({rs['headlines'][k]['games_with']:.0%} of games)</small></td>" for k in kinds) + "</tr>")
    rows.append("</table>")
    return "".join(rows)
