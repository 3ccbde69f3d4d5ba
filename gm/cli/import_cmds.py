"""``gm import``: bring a game back into gm, from a state token or from a chatbot's move log
(a pasted session document or a whole chat), with an audit of what the chatbot got wrong."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from gm.cli.base import app, echo, errors_to_exit, fail, seat_options

if TYPE_CHECKING:
    from gm.chatlog.audit import Audit
    from gm.core.chance import Chance
    from gm.core.game import Game
    from gm.session import Session
    from gm.session.commit import SeedSecret

_TOKEN = re.compile(r"^[`'\"]*gm[0-9]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-\s]+\.[0-9a-fA-F\s]+[`'\"]*$")
_TOKEN_INSIDE = re.compile(r"\bgm[0-9]+\.[a-z0-9\-]+\.[A-Za-z0-9_\-]{8,}\.[0-9a-f]{16}\b")


def _read(source: str) -> str:
    """The text of ``source``: stdin (``-``), a file, or the argument itself (a token), read with a size
    limit.  Bytes are decoded the way chats are saved (UTF-8 with or without a byte-order mark, UTF-16,
    Latin-1)."""
    from gm.core.chatlog_text import decode
    from gm.core.files import IMPORT_LIMIT, read_bytes, read_stream

    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read()
        return decode(read_stream(stream, IMPORT_LIMIT, "the document on", "stdin"), "stdin")
    path = Path(source).expanduser()
    try:
        is_file = "\n" not in source and path.is_file()
    except OSError:  # a token is no file name (too long for one)
        is_file = False
    if not is_file and path.suffix.lower() in (".md", ".txt", ".log", ".html") and not any(c.isspace() for c in source):
        fail(f"no such file: {source}")
    return decode(read_bytes(path, IMPORT_LIMIT, "document"), source) if is_file else source


def is_token(text: str) -> bool:
    """Whether ``text`` is a gm token and nothing else (line breaks inside it allowed)."""
    return bool(_TOKEN.match(text.strip()))


@app.command("import")
@errors_to_exit
def import_(
    source: str = typer.Argument(
        ..., help="a token (gm2.GAME.PAYLOAD.CHECKSUM, or an older gm1 token), a file (a session document or a "
        "whole chat log from a chatbot), or - to read either from stdin"),
    output: Path | None = typer.Option(None, "--output", "-o", help="write the state as JSON here instead of creating a session"),
    home: Path | None = typer.Option(None, "--gm-home", help="gm home folder for the new session (default $GM_HOME or ~/.gm)"),
    session_id: str | None = typer.Option(None, "--id", help="id of the new session (default: generated)"),
    player: list[str] | None = typer.Option(None, "--player", help="SEAT=human|bot:STRATEGY: who plays a seat from now on (default: as in the token; every seat human for a chatbot game)"),
    game: str | None = typer.Option(None, "--game", "-g", help="chatbot log: the game (default: the game whose move log reads)"),
    rules: Path | None = typer.Option(None, "--rules", help="chatbot log: the TOML ruleset the chatbot played (default: the game's rules)"),
    seed: int | None = typer.Option(None, "--seed", help="chatbot log: the seed of the engine's chance (default: one that agrees with the chance the chat states: its toss, first side, dice and deals)"),
    chance: str = typer.Option("from-log", "--chance", help="chatbot log: from-log (the chat's own dice and deals where its log states them; the seed draws the rest) or seed (gm's seed alone: a roll of the chatbot's that differs is a finding)"),
    as_json: bool = typer.Option(False, "--json", help="chatbot log: print the audit as JSON"),
    export: Path | None = typer.Option(None, "--export", help="chatbot log: also write the corrected session document here, to paste back into the chat"),
) -> None:
    """Bring a game back into gm.  A token is checked, replayed and saved as a new session with the same
    players.  A chatbot's move log (a pasted session document or a whole chat) is replayed through the
    engine with an audit of every place the chatbot got the game wrong; the engine's true game is saved
    as a session to carry on with `gm play --resume`."""
    text = _read(source)
    players = seat_options(player, lambda item: f"--player takes SEAT=human|bot:STRATEGY, not {item!r}")
    if is_token(text):
        _import_token(text, output, home, session_id, players)
        return
    from gm.chatlog.audit import audit, detect_game
    from gm.core.chance import Chance
    from gm.core.errors import StateError
    from gm.core.registry import find_game

    try:
        g = find_game(game) if game else detect_game(text)
    except StateError:
        found = _TOKEN_INSIDE.search(text)
        if found is not None:
            _import_token(found.group(0), output, home, session_id, players)
            return
        if not any(c.isspace() for c in text.strip()):
            _import_token(text, output, home, session_id, players)  # says why it is not a token
            return
        raise
    hint = token_hint(text, g, home)
    ruleset = g.load_rules_file(rules) if rules is not None else hint.rules
    secret, setup = hint.secret, hint.chance
    if seed is not None:  # a seed of the user's: a practice game, whatever the token's was
        secret, setup = None, None
    if chance not in ("from-log", "seed"):
        fail(f"--chance takes from-log or seed, not {chance!r}")
    result = None
    if seed is None and secret is not None:
        if hint.moves:  # a game played in gm up to its token: its seed is the game's
            seed = secret.seed
        else:  # a blank template's token: its game if the chat's own chance agrees with it, else the chat decides
            result = audit(g, text, ruleset, None, setup, prefer=secret.seed, outcomes=chance, tries=1)
            if result.seed_note:
                result, secret = None, None
                setup = Chance.of(setup.generator) if setup is not None else None  # (not the template's outcomes)
    if result is None:
        result = audit(g, text, ruleset, seed, setup, outcomes=chance)
    if secret is not None and secret.seed != result.seed:
        secret = None
    if secret is not None and not secret.practice and not result.state.is_terminal:
        # a running game's seed stays hidden: this one is a copy's fresh seed (token_hint), never shown
        result.seed_hidden = True
        if output is not None:
            fail("the game is still running and its seed is hidden: --output would write it; import it as a session "
                 "(without --output), or once the game is over")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result.state.to_json(), indent=1) + "\n", encoding="utf-8")
        _report(result, None, as_json, export, note=f"wrote {output} ({g.id}, {len(result.state.log)} moves)")
        return
    s = save(result, home=home, session_id=session_id, players=players, secret=secret)
    _report(result, s, as_json, export, copied=result.seed_hidden)


@dataclass(frozen=True)
class TokenHint:
    """What a gm token inside a chatbot's text says about the game its log replays: the ruleset, the
    seed (a hidden one only where its key is; a running game's copy gets a fresh one), the chance
    setup (the generator and outcomes supplied) and how many moves the token's game had."""

    rules: Any = None
    secret: SeedSecret | None = None
    moves: int = 0
    chance: Chance | None = None


#: what an import of a running hidden-seed game says of its copy
_COPY_NOTE = ("the game is still running and its seed is hidden: the copy has a new hidden seed (what every side has "
              "seen so far is kept; chance from here on is new) and fresh bots")


def token_hint(text: str, game: Game, home: Path | None) -> TokenHint:
    """The ruleset, seed and chance of a gm token of ``game`` inside ``text`` (a session document
    exported by gm carries one): a chatbot's log of that game replays with the game's own ruleset and
    chance.  A hidden seed is read only where its key is (the same gm home), and a running game's is
    never used: its copy gets a fresh hidden seed, with the chance outcomes every side has seen
    (:func:`gm.session.token.fresh_copy`); nothing without a token."""
    from gm.core.errors import GameError
    from gm.core.token import decode_token
    from gm.session import FileStore
    from gm.session.commit import SeedSecret
    from gm.session.keys import SealError
    from gm.session.token import decode, fresh_copy, opened

    found = _TOKEN_INSIDE.search(text)
    if found is None:
        return TokenHint()
    token = found.group(0)
    try:
        data = decode_token(token) if token.startswith("gm1.") else decode(token)
        if data.get("game") != game.id:
            return TokenHint()
        rules = game.load_rules(data.get("rules") or {})
        moves = len(data.get("log") or ())
        if "seed" in data and "sealed" not in data:
            from gm.core.chance import Chance

            return TokenHint(rules, SeedSecret.draw(int(data["seed"])), moves, Chance.from_record(data))
    except (GameError, SealError, KeyError, TypeError, ValueError):
        return TokenHint()
    try:
        secret, chance, played = opened(data, FileStore(home))
    except (GameError, SealError, KeyError, TypeError, ValueError):  # sealed with another gm's key: its rules only
        return TokenHint(rules, None, moves)
    if secret.practice:
        return TokenHint(rules, secret, moves, chance)
    copy = fresh_copy(game, rules, secret, chance, played)  # (a StateError: the moves need the old seed)
    return TokenHint(rules, secret, moves, chance) if copy is None else TokenHint(rules, copy[0], moves, copy[1])


def save(
    result: Audit,
    *,
    home: Path | None = None,
    session_id: str | None = None,
    players: dict[str, str] | None = None,
    secret: SeedSecret | None = None,
) -> Session:
    """The engine's true game of an audit, saved as a new session: a practice game (its seed is the
    one the audit replayed with) unless ``secret`` (the hidden seed of the game's token) says
    otherwise, with the audit's chance (its generator, and the chat's own outcomes it was given);
    every seat is human unless ``players`` says otherwise."""
    from gm.session import FileStore, Session
    from gm.session.commit import SeedSecret

    g = result.game
    chosen = {s: "human" for s in g.seats}
    chosen.update(players or {})
    return Session.restore(
        g,
        rules=result.state.rules.model_dump(mode="json"),
        players=chosen,
        secret=secret if secret is not None else SeedSecret.draw(result.seed),
        moves=result.moves,
        store=FileStore(home),
        id=session_id,
        chance=result.state.chance_setup(),
    )


def _report(result: Audit, s: Session | None, as_json: bool, export: Path | None, note: str = "", copied: bool = False) -> None:
    doc_note = ""
    if export is not None and s is not None:
        from gm.export import render_doc
        from gm.session.token import session_token

        export.parent.mkdir(parents=True, exist_ok=True)
        export.write_text(render_doc(s.game, "session", None, s.state, {"token": session_token(s)}), encoding="utf-8")
        doc_note = f"wrote the corrected session document to {export}"
    if as_json:
        data: dict[str, Any] = result.to_json()
        data["session"] = s.id if s is not None else None
        if copied:
            data["note"] = _COPY_NOTE
        typer.echo(json.dumps(data, indent=1))
        return
    echo(result.text())
    if note:
        echo(note)
    if copied:
        echo(_COPY_NOTE)
    if s is None:
        return
    who = ", ".join(f"{name} {p}" for name, p in s.players.items())
    echo(f"saved the engine's game as {s.game.id} session {s.id} ({len(s.state.log)} moves; {who})")
    if result.supplied:
        n = len(result.supplied)
        echo(f"the session plays on the chat's own dice and deals: {n} {'outcome' if n == 1 else 'outcomes'} of chance "
             f"from the log are kept with it; gm's seed draws the rest")
    hint = ""
    if not s.bot_seats and len(s.game.seats) > 1:
        hint = f" (hot seat; to play against a bot, import with --player {s.game.seats[-1]}=bot:default)"
    echo(f"continue with: gm play --resume {s.id}{hint}")
    echo(doc_note or f"corrected session document for the chat: gm export session --session {s.id}")


def _import_token(text: str, output: Path | None, home: Path | None, session_id: str | None, players: dict[str, str]) -> None:
    from gm.core.token import state_from_token
    from gm.session import FileStore
    from gm.session.token import import_token

    if output is not None:
        state = state_from_token(text)
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(state.to_json(), indent=1) + "\n", encoding="utf-8")
        echo(f"wrote {output} ({state.game.id}, {len(state.log)} moves)")
        return
    s = import_token(text, store=FileStore(home), session_id=session_id, players=players)
    who = ", ".join(f"{name} {p}" for name, p in s.players.items())
    echo(f"imported {s.game.id} session {s.id} ({len(s.state.log)} moves; {who})")
    if not s.practice and not s.state.is_terminal:
        echo(_COPY_NOTE)
    viewer = s.human_seats[0] if len(s.human_seats) == 1 else None
    echo(s.game.render(s.state, viewer))
    echo(s.game.status(s.state, viewer))
    echo(f"continue with: gm play --resume {s.id}")
