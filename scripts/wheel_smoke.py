"""Wheel smoke test: build gm's wheel, install it into a fresh venv outside the checkout, and use it.

A checkout hides packaging mistakes (a template left out of the wheel is still on disk next to the
code), so this runs gm the way a user who ran ``pip install gm`` would, from a temporary folder:

- ``gm games`` lists every game gm's ``pyproject.toml`` declares, and each loads;
- ``gm play`` (the default game against the bot) piped to the end of a game, then ``gm replay`` of
  the transcript it recorded;
- every kind of ``gm export`` of every game: the bundle (quick start, rules, session template,
  glossary, each titled), the rules on stdout (equal to the committed ``rules_md/<game>.md``),
  the state token, and the prompt (the LLM referee's system prompt);
- ``gm mcp`` through the real ``mcp`` client: tools, resources (every game's rules and quick
  start read back), the ``referee`` prompt of every game;
- ``gm serve``: the browser page and each of its files (they ship inside the package), and a
  game created through the JSON API.

Usage: ``python scripts/wheel_smoke.py [--keep]`` (pip may use its cache and the package
registries; nothing else).  Prints one line per failure and exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: the exports run per game (the bundle holds the quick start, rules, session template and glossary)
EXPORTS = ("bundle", "rules", "token", "prompt")
#: lines fed to `gm play`: an answer to every kind of decision of the default game, over and over
#: (the referee refuses what does not fit; the game ends long before the input does)
PLAY_INPUT = "\n".join(["heads", "receive", "center red", "play 1 red", "5", "punt"] * 400) + "\n"
TIMEOUT = 120

MCP_CLIENT = r'''
import json, sys
import anyio
from mcp import Client, StdioServerParameters

async def main(gm, games_json):
    games = json.loads(games_json)
    out = []
    params = StdioServerParameters(command=gm, args=["mcp"], env=dict(__import__("os").environ))
    async with Client(params, read_timeout_seconds=60) as c:
        tools = [t.name for t in (await c.list_tools()).tools]
        if "new_game" not in tools or "get_board" not in tools:
            out.append(f"tools/list lacks new_game or get_board: {tools}")
        uris = [str(r.uri) for r in (await c.list_resources()).resources]
        for gid, name in games.items():
            for doc in ("rules", "quickstart"):
                uri = f"gm://games/{gid}/{doc}"
                if uri not in uris:
                    out.append(f"resources/list lacks {uri}")
                    continue
                text = (await c.read_resource(uri)).contents[0].text
                if not text.startswith("# ") or name not in text.splitlines()[0]:
                    out.append(f"{uri} does not start with its title: {text[:80]!r}")
            prompt = await c.get_prompt("referee", {"game": gid})
            body = prompt.messages[0].content.text
            if f"You are the referee of {name}." not in body or "Rules (you may quote them" not in body:
                out.append(f"prompt referee of {gid} is not the referee prompt: {body[:80]!r}")
        rules = (await c.read_resource("gm://rules")).contents[0].text
        if not rules.startswith("# "):
            out.append(f"gm://rules is not the rules document: {rules[:80]!r}")
        if [p.name for p in (await c.list_prompts()).prompts] != ["referee"]:
            out.append("prompts/list is not [referee]")
        app = (await c.read_resource("ui://gm/board")).contents[0]  # the board app, built from the package's files
        if app.mime_type != "text/html;profile=mcp-app" or "function drawBoard" not in app.text or "ui/initialize" not in app.text:
            out.append(f"ui://gm/board is not the board app: {app.mime_type} {app.text[:80]!r}")
    print("\n".join(out))

anyio.run(main, sys.argv[1], sys.argv[2])
'''


@dataclass
class Check:
    """One command of the smoke test and what its output must show."""

    name: str
    run: Callable[[], str | None]  # None: passed; else the reason it failed


class Smoke:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.venv = tmp / "venv"
        self.work = tmp / "work"
        self.home = tmp / "gm-home"
        self.work.mkdir()
        self.home.mkdir()
        self.gm = str(self.venv / "bin" / "gm")
        path = [str(self.venv / "bin")] + [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not p.startswith(str(REPO))]
        self.env = {
            "PATH": os.pathsep.join(path),
            "HOME": str(tmp),
            "GM_HOME": str(self.home),
            "NO_COLOR": "1",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
        }
        for key in ("PIP_CACHE_DIR", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT", "XDG_CACHE_HOME", "SSL_CERT_FILE"):
            if key in os.environ:
                self.env[key] = os.environ[key]

    # ------------------------------------------------------------ set-up
    def build_and_install(self) -> None:
        # build from a copy of what the wheel is made of, so the checkout gets no build/ or egg-info
        src = self.tmp / "src"
        shutil.copytree(REPO / "gm", src / "gm", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(REPO / name, src / name)
        dist = self.tmp / "dist"
        _step(f"building the wheel of {REPO}", [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(src)], cwd=self.tmp)
        wheels = sorted(dist.glob("gm-*.whl"))
        if len(wheels) != 1:
            raise SystemExit(f"wheel smoke: FAIL build: expected one gm wheel in {dist}, found {[w.name for w in wheels]}")
        _step("creating a fresh venv", [sys.executable, "-m", "venv", "--without-pip", str(self.venv)], cwd=self.tmp)
        _step(f"installing {wheels[0].name} and its dependencies", [sys.executable, "-m", "pip", "--python", str(self.venv / "bin" / "python"),
              "install", "-q", "--no-compile", str(wheels[0])], cwd=self.tmp)

    def sh(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=self.work, env=self.env, input=stdin, capture_output=True, text=True, timeout=TIMEOUT, check=False)

    def gm_ok(self, *args: str, stdin: str | None = None) -> tuple[str, str | None]:
        """stdout of ``gm ARGS``, and why it failed (``None`` when it exited 0 with output)."""
        p = self.sh(self.gm, *args, stdin=stdin)
        if p.returncode != 0:
            return p.stdout, f"exit {p.returncode}: {_first_line(p.stderr or p.stdout)}"
        if not p.stdout.strip():
            return p.stdout, "printed nothing"
        return p.stdout, None

    # ------------------------------------------------------------- checks
    def games(self) -> dict[str, str]:
        """Game id -> name as the installed gm lists them (every game gm declares must be there)."""
        declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]["gm.games"]
        out, why = self.gm_ok("games")
        if why:
            raise SystemExit(f"wheel smoke: FAIL gm games: {why}")
        listed: dict[str, str] = {}
        for line in out.splitlines():
            gid, _, rest = line.partition(" ")
            if "cannot be loaded" in rest:
                raise SystemExit(f"wheel smoke: FAIL gm games: {line.strip()}")
            listed[gid] = rest.strip().split(" (aliases:")[0].removesuffix(" [default]").strip()
        missing = sorted(set(declared) - set(listed))
        if missing:
            raise SystemExit(f"wheel smoke: FAIL gm games: the installed gm lacks {', '.join(missing)}")
        return {gid: listed[gid] for gid in declared}

    def checks(self, games: dict[str, str]) -> list[Check]:
        out = [Check("import", self.check_import), Check("play + replay", self.check_play), Check("mcp", lambda: self.check_mcp(games)),
               Check("serve", self.check_serve), Check("eval", lambda: self.check_eval(games))]
        for gid, name in games.items():
            for kind in EXPORTS:
                out.append(Check(f"export {kind} --game {gid}", lambda gid=gid, name=name, kind=kind: self.check_export(gid, name, kind)))
        return out

    def check_import(self) -> str | None:
        # (the move builder's and the board's JSON Schemas ship inside the package, as the page's files do; so
        # does the py.typed marker, without which a plugin's mypy ignores gm's annotations)
        p = self.sh(str(self.venv / "bin" / "python"), "-c", "import gm; from gm.core.movebuilder import load_schema; load_schema(); from gm.testing import load_board_schema; load_board_schema(); print(gm.__file__)")
        where = p.stdout.strip()
        if p.returncode or not where.startswith(str(self.venv)):
            return f"gm is imported from {where or p.stderr.strip()!r}, not from the fresh venv"
        if not (Path(where).parent / "py.typed").is_file():
            return f"the installed gm has no py.typed next to {where}: a plugin's mypy would not read gm's types"
        return None

    def check_play(self) -> str | None:
        out, why = self.gm_ok("play", "--seed", "1", stdin=PLAY_INPUT)
        if why:
            return f"gm play: {why}"
        if "Game over:" not in out:
            return f"gm play did not reach the end of the game: {_last_line(out)}"
        transcript = next((ln.removeprefix("Transcript: ") for ln in out.splitlines() if ln.startswith("Transcript: ")), None)
        if transcript is None or not Path(transcript).is_file():
            return "gm play recorded no transcript"
        rep, why = self.gm_ok("replay", transcript)
        if why:
            return f"gm replay of the game gm play recorded: {why}"
        return None if "1 passed, 0 failed" in rep else f"gm replay: {_last_line(rep)}"

    def check_eval(self, games: dict[str, str]) -> str | None:
        """``gm eval --referee scripted`` finds every game's suite (package data) and scores it."""
        out, why = self.gm_ok("eval", "--referee", "scripted")
        if why:
            return f"gm eval: {why}"
        first = out.splitlines()[0] if out else ""
        return None if first.endswith(f" cases in {len(games)} game(s)") else f"gm eval did not run every game's suite: {first}"

    def check_export(self, gid: str, name: str, kind: str) -> str | None:
        if kind == "bundle":
            dest = self.work / f"bundle-{gid}"
            out, why = self.gm_ok("export", "bundle", "--game", gid, "-o", str(dest))
            if why:
                return why
            files = sorted(p.name for p in dest.iterdir()) if dest.is_dir() else []
            if len(files) != 4:
                return f"the bundle holds {files}"
            untitled = [f for f in files if name not in _first_line((dest / f).read_text(encoding="utf-8"))]
            return f"{', '.join(untitled)} of the bundle have no title naming {name}" if untitled else None
        out, why = self.gm_ok("export", kind, "--game", gid)
        if why:
            return why
        if kind == "token":
            # (a new game's token is in the current format, gm2, as the blank session template carries it)
            return None if out.startswith(f"gm2.{gid}.") else f"not a gm2 token of {gid}: {_first_line(out)}"
        if kind == "prompt":
            ok = out.startswith(f"You referee {name} ") and "Rules (you may quote them):" in out
            return None if ok else f"not the referee's system prompt: {_first_line(out)}"
        if not out.startswith("# ") or name not in _first_line(out):
            return f"does not start with a title naming {name}: {_first_line(out)}"
        committed = REPO / "rules_md" / f"{gid.replace('-', '_')}.md"
        if kind == "rules" and committed.is_file() and out != committed.read_text(encoding="utf-8"):
            return f"differs from the committed {committed.relative_to(REPO)}"
        return None

    def check_mcp(self, games: dict[str, str]) -> str | None:
        import json

        p = self.sh(str(self.venv / "bin" / "python"), "-c", MCP_CLIENT, self.gm, json.dumps(games))
        if p.returncode:
            return f"the mcp client failed: {_last_line(p.stderr)}"
        problems = [ln for ln in p.stdout.splitlines() if ln.strip()]
        return "; ".join(problems) or None


    def check_serve(self) -> str | None:
        import json
        import socket
        import urllib.request

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([self.gm, "serve", "--port", str(port), "--store", "memory:"], cwd=self.work, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(base + "/", timeout=5) as r:
                        page = r.read().decode()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        return f"gm serve did not answer: {_last_line(proc.stderr.read() if proc.stderr and proc.poll() is not None else '')}"
                    time.sleep(0.2)
            if "<html" not in page.lower():
                return f"/ is not the page: {_first_line(page)}"
            for name in ("app.js", "board.js", "builder.js", "board.css", "style.css"):
                with urllib.request.urlopen(f"{base}/static/{name}", timeout=10) as r:
                    if r.status != 200 or not r.read():
                        return f"/static/{name} is missing from the installed package"
            req = urllib.request.Request(base + "/api/games", data=json.dumps({"game": "grid-football"}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(req, timeout=30) as r:
                made = json.loads(r.read())
            ok = made.get("ok") is True and made.get("game") == "grid-football" and str(made.get("token", "")).startswith("gms_")
            if not ok:
                return f"POST /api/games: {str(made)[:200]}"
            req = urllib.request.Request(f"{base}/api/games/{made['session']}/table", headers={"Authorization": f"Bearer {made['token']}"})
            with urllib.request.urlopen(req, timeout=30) as r:  # the page's table: board, move builder, story
                table = json.loads(r.read())
            if not (table.get("ok") and table.get("board") and table.get("builder", {}).get("version") == 1):
                return f"GET /api/games/{{id}}/table: {str(table)[:200]}"
            return None
        except OSError as exc:
            return f"gm serve: {exc}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "")[:200]


def _last_line(text: str) -> str:
    return next((ln.strip() for ln in reversed(text.splitlines()) if ln.strip()), "")[:200]


def _step(what: str, cmd: Sequence[str], *, cwd: Path) -> None:
    t = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if p.returncode:
        detail = [ln for ln in (p.stderr + p.stdout).splitlines() if ln.strip() and not ln.startswith("WARNING: Location")]
        raise SystemExit(f"wheel smoke: FAIL {what}: exit {p.returncode}: {detail[-1] if detail else ''}")
    print(f"wheel smoke: {what} ({time.monotonic() - t:.0f} s)", flush=True)


def run(checks: list[Check], workers: int, *, verbose: bool = False) -> list[str]:
    """Run the checks (``workers`` at a time); one line per failure."""
    failures: list[str] = []

    def timed(check: Check) -> tuple[str | None, float]:
        t = time.monotonic()
        try:
            return check.run(), time.monotonic() - t
        except Exception as exc:  # a check that crashed is a failure, not a crash of the smoke test
            return f"{type(exc).__name__}: {exc}", time.monotonic() - t

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(timed, c): c for c in checks}
        for fut in concurrent.futures.as_completed(futures):
            check = futures[fut]
            why, took = fut.result()
            if verbose:
                print(f"wheel smoke: {check.name}: {'FAIL' if why else 'ok'} ({took:.1f} s)", flush=True)
            if why:
                failures.append(f"wheel smoke: FAIL {check.name}: {' '.join(why.split())}")
    return sorted(failures)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (venv, outputs) for a look")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every check with its time")
    args = ap.parse_args(argv)
    start = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="gm-wheel-smoke-"))
    try:
        smoke = Smoke(tmp)
        smoke.build_and_install()
        games = smoke.games()
        checks = smoke.checks(games)
        failures = run(checks, workers=max(2, min(4, os.cpu_count() or 2)), verbose=args.verbose)
        for line in failures:
            print(line, flush=True)
        took = time.monotonic() - start
        print(f"wheel smoke: {len(checks) - len(failures)}/{len(checks)} checks passed for {len(games)} games in {took:.0f} s")
        return 1 if failures else 0
    finally:
        if args.keep:
            print(f"wheel smoke: kept {tmp}")
        else:
            t = time.monotonic()
            shutil.rmtree(tmp, ignore_errors=True)
            if args.verbose:
                print(f"wheel smoke: removed {tmp} ({time.monotonic() - t:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
