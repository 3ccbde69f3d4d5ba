"""Two ``gm serve`` processes on one real PostgreSQL database: the same games served by either, one
request here, the next there; and a process killed (kill -9) in the middle of moves loses nothing it
acknowledged."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
from serve_helpers import ServerProcess, auth, random_call

from gm.session import KeyRing, Session
from gm.session.sql import PostgresStore

GAMES = 4


def play(http: httpx2.Client, sid: str, token: str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """One random legal move of the game's human seat: (its text, the result), None at the end."""
    r = http.post(f"/api/games/{sid}/call", headers=auth(token), json={"tool": "legal_actions"})
    r.raise_for_status()
    legal = r.json()
    if legal.get("outcome") or not legal.get("legal"):
        return None
    text = rng.choice(legal["legal"])
    name, args = random_call("grid-football", [text], rng)
    r = http.post(f"/api/games/{sid}/call", headers=auth(token), json={"tool": name, "args": args})
    r.raise_for_status()
    return text, r.json()


def my_moves(http: httpx2.Client, sid: str, token: str) -> list[str]:
    view = http.get(f"/api/games/{sid}", headers=auth(token)).json()
    return [text for seat, text in view["log"] if seat == view["seat"]]


def test_two_processes_serve_the_same_games_and_kill_9_loses_nothing(pg_dsn: str, tmp_path: Path) -> None:
    key = KeyRing.generate()
    key_hex = key._master.hex()  # the test plays the operator: one key for every process
    p1 = ServerProcess(pg_dsn, tmp_path, "--rate", "0", key=key_hex, wait=False)
    p2 = ServerProcess(pg_dsn, tmp_path, "--rate", "0", key=key_hex, wait=False)
    try:
        p1.wait_ready(), p2.wait_ready()
        h1, h2 = httpx2.Client(base_url=p1.url, timeout=60), httpx2.Client(base_url=p2.url, timeout=60)
        games: list[tuple[str, str]] = []
        for k in range(GAMES):
            made = (h1 if k % 2 else h2).post("/api/games", json={"seed": 50 + k, "opponent": "bot:random"}).json()
            games.append((made["session"], made["token"]))
        # alternately: every request to the other process than the one before
        acked: dict[str, list[str]] = {sid: [] for sid, _ in games}
        rng = random.Random(3)
        for turn in range(4):
            for sid, token in games:
                got = play((h1, h2)[turn % 2], sid, token, rng)
                if got is not None:
                    assert got[1]["ok"], got[1]
                    acked[sid].append(got[0])
        for sid, token in games:
            assert my_moves(h1, sid, token) == my_moves(h2, sid, token)
            assert my_moves(h1, sid, token) == [str(_norm(t)) for t in acked[sid]]

        # kill -9 the first process while it makes moves in every game at once
        lost: list[str] = []

        def hammer(sid: str, token: str, seed: int) -> None:
            local = random.Random(seed)
            client = httpx2.Client(base_url=p1.url, timeout=60)
            try:
                while True:
                    got = play(client, sid, token, local)
                    if got is None:
                        return
                    if got[1]["ok"]:
                        acked[sid].append(got[0])  # acknowledged: it must be stored
            except (httpx2.HTTPError, OSError):
                return  # the process died under us: this move was never acknowledged
            except Exception as exc:  # pragma: no cover - reported below
                lost.append(repr(exc))
            finally:
                client.close()

        before = sum(len(v) for v in acked.values())
        threads = [threading.Thread(target=hammer, args=(sid, token, k)) for k, (sid, token) in enumerate(games)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        p1.kill()
        for t in threads:
            t.join(60)
        assert not lost, lost
        assert sum(len(v) for v in acked.values()) > before  # moves were acknowledged by the process killed
        for sid, token in games:
            stored = my_moves(h2, sid, token)
            want = [str(_norm(t)) for t in acked[sid]]
            # everything acknowledged is there, in order; at most the one move in flight more
            assert stored[: len(want)] == want and len(stored) - len(want) in (0, 1), (sid, stored, want)
            got = play(h2, sid, token, rng)  # and the game goes on, on the survivor
            assert got is None or got[1]["ok"], got
        h1.close()
        h2.close()
    finally:
        p1.stop()
        p2.stop()
    store = PostgresStore(pg_dsn, key, pool_size=2)
    try:
        for sid, _ in games:
            Session.open(sid, store=store)  # every record verifies: nothing torn, nothing forked
    finally:
        store.close()


def _norm(text: str) -> str:
    from gm.core.registry import find_game

    return str(find_game("grid-football").parse_action(text))
