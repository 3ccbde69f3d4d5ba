"""Issue #15, tests 3: a session file that was edited, reordered, cut or opened with the wrong key is
refused with one clear line naming where; only a torn last line (a write that never completed) is
tolerated, and then the game is the original less that one record - never a different game.

The files are real: a hidden-seed game of every game, played through the session until its file
holds sealed records (revealed picks, a locked bot pick, Chess-Football's hidden ball holder).
Each mutation is loaded with :meth:`Session.open` (and a sample through ``gm show``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import SECRET_KEY, cli

from gm.core.errors import GameError
from gm.core.registry import find_game
from gm.core.tools import call_for_action
from gm.session import SeedSecret, Session

SID = "tampered"


def _cf_bot(st: Any, seat: str) -> str:
    """Chess-Football's away: has the ball, runs play action with a hidden holder at once."""
    d = st.decision(seat)
    if d == "captains":
        return "captains lead_blocker rusher"
    if d == "coin_call":
        c = st.copy()
        c.apply(seat, "heads")
        return "heads" if c.toss_winner == seat else "tails"
    if d == "turn" and seat == st.offense and not st.field.hidden and not st.field.pa_used:
        return "play action ST1 ball ST1"
    return {"snap_plan": "plan: hold", "fourth_down": "punt"}.get(d or "", "done")


@dataclass
class Original:
    path: Path
    raw: bytes
    log: list[tuple[str, str]]  # the whole engine log of the stored game
    records: list[dict[str, Any]]
    less_last: list[tuple[str, str]] | None = None  # the log without the last record


def _original(tmp: Path, game: str) -> Original:
    """A hidden-seed game of ``game`` whose file holds sealed records, the last one a locked pick or
    a move still carrying a secret."""
    g = find_game(game)
    human = g.seats[0]
    players = {s: "human" if s == human else "bot:random" for s in g.seats}
    bots = {}
    if game == "chess-football":
        from sec_helpers import Scripted

        bots = {"away": Scripted(_cf_bot)}
    secret = SeedSecret(seed=0x1F2E3D4C5B6A7988, salt="77" * 16, bot_seed=0x0123456789ABCDE, nonce_seed=None, practice=False)
    s = Session.create(g, secret=secret, players=players, home=tmp, id=SID, bots=bots)
    rng = random.Random(7)

    def sealed() -> int:
        return sum(1 for line in (tmp / "sessions" / f"{SID}.jsonl").read_text().splitlines() if '"sealed"' in line)

    for _ in range(400):
        if len(s.state.log) >= 12 and sealed() >= (3 if game in ("grid-football", "brawl", "chess-football") else 1):
            break
        if game == "chess-football":
            text = {"captains": "captains scrambler nickelback", "snap_plan": "plan: hold"}.get(s.state.decision(human) or "", "done")
            action = s.state.parse_action(text)
        else:
            action = s.state.legal_actions(human).sample(rng)
        tool, args = call_for_action(s.tools, action)
        assert s.call(tool, args, human)["ok"]
    path = tmp / "sessions" / f"{SID}.jsonl"
    raw = path.read_bytes()
    records = [json.loads(line) for line in raw.decode().splitlines()[1:]]
    return Original(path, raw, [(m.seat, str(m.action)) for m in s.state.log], records)


def _replay_records(orig: Original, n: int) -> list[tuple[str, str]]:
    """The log of the game whose file is the original's header and first ``n`` records."""
    lines = orig.raw.split(b"\n")
    tmp = orig.path.parent.parent / "prefix"
    (tmp / "sessions").mkdir(parents=True, exist_ok=True)
    p = tmp / "sessions" / f"{SID}.jsonl"
    p.write_bytes(b"\n".join(lines[: n + 1]) + b"\n")
    s = Session.open(p, record=False)
    return [(m.seat, str(m.action)) for m in s.state.log]


def _outcome(orig: Original, data: bytes, what: str) -> str:
    """Load ``data`` in place of the original file: ``refused`` (a one-line error) or ``torn`` (the
    original less its last record, data ending in a torn line).  Anything else fails the test."""
    orig.path.write_bytes(data)
    try:
        try:
            s = Session.open(orig.path, record=False)
        except GameError as exc:
            msg = exc.message
            assert "\n" not in msg and "CORE-INTERNAL" not in msg and "Traceback" not in msg, (what, msg)
            assert exc.rule == "CORE-SESSION", (what, msg)
            assert "line " in msg or "another gm key" in msg or "not a gm session file" in msg, (what, msg)
            return "refused"
        except Exception as exc:  # pragma: no cover - a failure of the test subject
            raise AssertionError(f"{what}: {type(exc).__name__}: {exc}") from exc
        loaded = [(m.seat, str(m.action)) for m in s.state.log]
        if orig.less_last is None:
            orig.less_last = _replay_records(orig, len(orig.records) - 1)
        allowed = (orig.log, orig.less_last)
        assert loaded in allowed, f"{what}: loaded as a different game ({len(loaded)} moves of {len(orig.log)})"
        if tuple(loaded) == tuple(orig.log):
            assert data == orig.raw, f"{what}: a changed file loaded as the same game"
            return "same"
        return "torn"
    finally:
        orig.path.write_bytes(orig.raw)


# ------------------------------------------------------------- mutations
def _classes(raw: bytes) -> dict[str, list[int]]:
    """Byte positions of the file by what they are part of."""
    out: dict[str, list[int]] = {"header": [], "public record": [], "sealed blob": [], "mac": [], "newline": []}
    pos = 0
    for i, line in enumerate(raw.split(b"\n")[:-1]):
        text = line.decode()
        sealed_at = text.find('"sealed":"')
        mac_at = text.find('"mac":"')
        for j in range(len(line)):
            at = pos + j
            if mac_at >= 0 and mac_at + 7 <= j < mac_at + 7 + 64:
                out["mac"].append(at)
            elif i == 0:
                out["header"].append(at)
            elif sealed_at >= 0 and sealed_at + 10 <= j < text.index('"', sealed_at + 10):
                out["sealed blob"].append(at)
            else:
                out["public record"].append(at)
        out["newline"].append(pos + len(line))
        pos += len(line) + 1
    return out


_REPLACEMENTS = b'0a9fF"{}:,\n \x00\xff-_'


def _byte_edits(raw: bytes, rng: random.Random, per_class: int) -> Iterator[tuple[str, bytes]]:
    for kind, positions in _classes(raw).items():
        for at in rng.sample(positions, min(per_class, len(positions))):
            new = rng.choice([b for b in _REPLACEMENTS if b != raw[at]])
            yield f"{kind} byte {at}: {raw[at:at + 1]!r} -> {bytes([new])!r}", raw[:at] + bytes([new]) + raw[at + 1:]


def _line_edits(raw: bytes, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    lines = raw.split(b"\n")[:-1]
    n = len(lines)

    def join(ls: list[bytes]) -> bytes:
        return b"".join(x + b"\n" for x in ls)

    for i in range(n):
        yield f"line {i + 1} deleted", join(lines[:i] + lines[i + 1:])
        yield f"line {i + 1} duplicated", join(lines[: i + 1] + lines[i:])
    for i in range(n - 1):
        yield f"lines {i + 1} and {i + 2} swapped", join([*lines[:i], lines[i + 1], lines[i], *lines[i + 2:]])
    for _ in range(6):
        i, j = sorted(rng.sample(range(1, n), 2))
        swapped = list(lines)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        yield f"lines {i + 1} and {j + 1} swapped", join(swapped)


def _truncations(raw: bytes, rng: random.Random, count: int) -> Iterator[tuple[str, bytes]]:
    ends = [i + 1 for i, b in enumerate(raw) if b == 0x0A]
    for k in sorted(rng.sample(range(1, len(raw)), count)):
        yield f"cut at byte {k} of {len(raw)}", raw[:k]
    for e in ends[:-1]:
        yield f"cut after line {ends.index(e) + 1}", raw[:e]


GAMES = ["grid-football", "brawl", "chess-football", "quarterback", "gridmaster4"]


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Original]:
    made: dict[str, Original] = {}

    def get(game: str) -> Original:
        if game not in made:
            with pytest.MonkeyPatch.context() as mp:
                mp.setenv("GM_SECRET_KEY", SECRET_KEY)
                made[game] = _original(tmp_path_factory.mktemp(game.replace("-", "_")), game)
        return made[game]

    return get


@pytest.mark.parametrize("game", GAMES)
def test_single_byte_edits_of_every_kind_are_refused(game: str, originals: Callable[[str], Original]) -> None:
    orig = originals(game)
    assert b'"sealed"' in orig.raw
    rng = random.Random(f"bytes {game}")
    seen: dict[str, int] = {}
    for what, data in _byte_edits(orig.raw, rng, per_class=40):
        got = _outcome(orig, data, what)
        seen[got] = seen.get(got, 0) + 1
        if got == "torn":  # only the last newline, taken away, makes a torn last line
            assert what.startswith("newline byte") and int(what.split()[2].rstrip(":")) == len(orig.raw) - 1, what
    assert seen.get("refused", 0) >= 120 and "same" not in seen, seen


@pytest.mark.parametrize("game", GAMES)
def test_line_swaps_deletions_and_duplications_are_refused(game: str, originals: Callable[[str], Original]) -> None:
    orig = originals(game)
    rng = random.Random(f"lines {game}")
    n = len(orig.raw.split(b"\n")) - 1
    for what, data in _line_edits(orig.raw, rng):
        got = _outcome(orig, data, what)
        if what == f"line {n} deleted":  # the last record gone whole: as if its write never began
            assert got in ("torn", "refused"), what
        else:
            assert got == "refused", what


@pytest.mark.parametrize("game", GAMES)
def test_a_cut_file_loads_only_as_the_original_less_its_torn_last_record(game: str, originals: Callable[[str], Original]) -> None:
    """A cut anywhere: refused, or (cut inside the last line) perhaps the original less its last record.
    Cutting off more than the last record would take back moves everyone has seen (a bot's revealed
    pick, a roll) - a player could then choose again knowing them."""
    orig = originals(game)
    rng = random.Random(f"cuts {game}")
    last_line_start = orig.raw.rstrip(b"\n").rfind(b"\n") + 1
    for what, data in _truncations(orig.raw, rng, 40):
        got = _outcome(orig, data, what)
        if len(data) >= last_line_start:  # only the last record cut: a write that never completed
            assert got in ("torn", "refused"), what
        else:
            assert got == "refused", what


@pytest.mark.parametrize("game", ["grid-football", "brawl"])
def test_through_the_command_line_and_with_a_wrong_or_missing_key(game: str, originals: Callable[[str], Original],
                                                                 tmp_path: Path) -> None:
    orig = originals(game)
    home = orig.path.parent.parent
    rng = random.Random(f"cli {game}")
    edits = list(_byte_edits(orig.raw, rng, per_class=2))
    try:
        for what, data in edits:
            if data.endswith(b"\n"):
                orig.path.write_bytes(data)
                code, out = cli(home, "show", SID)
                assert code == 2 and out.startswith("gm: error: [CORE-SESSION]") and out.count("\n") == 1, (what, out)
                assert "Traceback" not in out
    finally:
        orig.path.write_bytes(orig.raw)
    assert cli(home, "show", SID)[0] == 0
    # another key: refused, naming the key, whatever the command
    other = "a1" * 32
    for args in (("show", SID), ("show", SID, "--json"), ("export", "token", "--session", SID), ("call", SID, "get_status")):
        code, out = cli(home, *args, env={"GM_SECRET_KEY": other})
        lines = 1 + ("--json" in args)  # --json: the refusal's JSON (gm.core.errors.error_json) on stdout too
        assert code == 2 and out.count("\n") == lines and "another gm key" in out and "restore that key" in out, (args, out)
    # no key at all (none in the environment, none on file): refused in one line, and no new key made
    code, out = cli(home, "show", SID, env={"GM_SECRET_KEY": "", "GM_KEY_FILE": str(tmp_path / "none.key")})
    assert code == 2 and out.count("\n") == 1 and "the gm key" in out and "is missing" in out, out
    assert not (tmp_path / "none.key").exists()
    # a malformed key: one line
    code, out = cli(home, "show", SID, env={"GM_SECRET_KEY": "not hex"})
    assert code == 2 and out.count("\n") == 1 and "CORE-KEY" in out, out
    assert orig.path.read_bytes() == orig.raw


def test_cutting_off_a_revealed_round_to_choose_again_is_refused(tmp_path: Path) -> None:
    """The attack the cut makes possible: the bot's play call is revealed by the human's call; the
    player cuts the file back to before its own call (the bot's sealed pick still there), and would
    choose again, now knowing the bot's pick.  The cut file must not open."""
    from sec_helpers import Scripted

    human = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left yellow", "number_pick": "number 5",
             "play_call": "play 1 black"}
    bot = {**human, "kick_choice": "kick", "number_pick": "number 1", "play_call": "play 2 red"}
    secret = SeedSecret(seed=0x7777AAAA5555, salt="11" * 16, bot_seed=5, nonce_seed=None, practice=False)
    s = Session.create("grid-football", secret=secret, players={"away": "bot:default"}, home=tmp_path, id=SID,
                       bots={"away": Scripted(lambda st, seat: bot[st.decision(seat)])})
    while s.state.decision("home") != "play_call":
        tool, args = call_for_action(s.tools, s.state.parse_action(human[s.state.decision("home")]))
        assert s.call(tool, args, "home")["ok"]
    path = tmp_path / "sessions" / f"{SID}.jsonl"
    before = path.read_bytes()  # the bot's play call is locked (sealed), the human to call
    r = s.call("call_play", {"play": 1, "colour": "black"}, "home")
    assert r["reveal"]["away"]["choice"] == "play 2 red"  # seen
    after = path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") >= before.count(b"\n") + 2
    path.write_bytes(before)  # the cut: the human's call and what followed are gone
    with pytest.raises(GameError) as err:
        Session.open(SID, home=tmp_path)
    assert err.value.rule == "CORE-SESSION" and "cut off" in err.value.message, err.value.message
    code, out = cli(tmp_path, "show", SID)
    assert code == 2 and out.count("\n") == 1 and "cut off" in out, out
    path.write_bytes(after)
    assert Session.open(SID, home=tmp_path).state.log == s.state.log


def test_the_anchor_itself_cannot_be_edited_or_borrowed(tmp_path: Path) -> None:
    """The anchors live apart from the sessions, in the home's index (GM_HOME/anchors/_index.json,
    one MAC over all of them, and the home's counter beside it): an index edited, an entry of another
    session put in, or the index taken away, and the session is refused; ``gm sessions repair``
    accepts it as it is again."""
    players = {"away": "bot:random"}
    secret = SeedSecret(seed=1, salt="22" * 16, bot_seed=3, nonce_seed=None, practice=False)
    a = Session.create("grid-football", players=players, home=tmp_path, id="one", secret=secret)
    b = Session.create("grid-football", players=players, home=tmp_path, id="two", secret=secret)
    for s in (a, b):
        tool, args = call_for_action(s.tools, s.state.legal_actions("home")[0])
        assert s.call(tool, args, "home")["ok"]
    index = tmp_path / "anchors" / "_index.json"
    good = index.read_bytes()
    body = json.loads(good.split(b"\n")[0])
    assert body["sessions"]["one"]["n"] == len((tmp_path / "sessions" / "one.jsonl").read_text().splitlines()) - 1
    borrowed = {**body, "sessions": {**body["sessions"], "one": body["sessions"]["two"]}}
    fewer = {**body, "sessions": {**body["sessions"], "one": {**body["sessions"]["one"], "n": body["sessions"]["one"]["n"] - 1}}}
    mac = good.split(b"\n")[1]
    for bad in (borrowed, fewer, {**body, "sessions": {}}):
        index.write_bytes(json.dumps(bad, separators=(",", ":"), sort_keys=True).encode() + b"\n" + mac + b"\n")
        with pytest.raises(GameError) as err:
            Session.open("one", home=tmp_path)
        assert "anchor index" in err.value.message and "\n" not in err.value.message, err.value.message
    index.write_bytes(b"not json")
    with pytest.raises(GameError, match="anchor index"):
        Session.open("one", home=tmp_path)
    index.unlink()  # taken away: the home's counter says there was one
    with pytest.raises(GameError, match=r"anchor index .* is missing"):
        Session.open("one", home=tmp_path)
    index.write_bytes(good)
    assert Session.open("one", home=tmp_path).state.log == a.state.log
