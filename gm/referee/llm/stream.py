"""The narration as it streams: what of a model's reply may be shown while it is still written.

The player is told only what happened, so a streamed word is shown only once it cannot turn into
a claim the engine contradicts.  :class:`NarrationStream` takes the text deltas of each reply and
hands on (``emit``) the longest part that is safe:

- whole words only, and nothing of a reply that may still hold a tool call, reasoning, a code
  block or a drawn board (from the first ``<``, ```` ``` ````, ``{`` or ``[``, or a line starting
  with a number, everything waits for the end of the reply);
- a clause holding a word a claim is made of (a number, a seat's name, an ordinal, "wins",
  "your", "done" ...) waits until the clause is complete;
- what is shown is checked as it grows (``check``: the narration check of the turn so far, move
  claims included); a complete sentence the check finds false stops the reply there, a sentence
  still being written waits.

When the turn is done, :meth:`finish` is given the narration gm settled on (the model's words,
or the engine's version when the check overruled them) and sends the rest of it, so that the
pieces sent add up to exactly the narration returned.  Text shown from a reply that then called
a tool stays shown (it passed the check); what was held of it is dropped, as the referee drops
words beside a tool call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gm.referee.base import TextSink
from gm.referee.llm.check import BOARD_LINE

#: where everything after waits for the end of the reply: a tag (a tool call, reasoning), a code
#: block, JSON (a call written as text), a bracket (a call list, a rule id)
HOLD_MARK = re.compile(r"<|```|\{|\[")
#: a line that may be a drawn board (or a down and distance: it waits until the line is whole)
NUMBER_LINE = re.compile(r"(?:^|\n)[ \t]*[0-9]")
CLAUSE_END = re.compile(r"[.!?;:,\n](?=\s|$)|\s[-–—]\s")
SENTENCE_END = re.compile(r"[.!?;\n](?=\s|$)")
#: words claims are made of (beside any number and the seats' names): a clause holding one is
#: shown only when it is complete and checked
CLAIM_WORDS = frozenset(
    "first second third fourth fifth 1st 2nd 3rd 4th 5th win wins won winner winning lose loses lost draw tie tied level "
    "over leads lead leading trails trailing ahead behind score scores scored your you've you're i i've i'm we we've "
    "done all locked set placed moved played made called submitted in down picked nothing rephrase couldn't".split()
)
_THINK_OPEN = re.compile(r"<(think|thinking)>", re.I)


class NarrationStream:
    """Shows the safe part of each reply as it is written (see the module's description)."""

    def __init__(self, emit: TextSink, *, seats: Iterable[str] = (), reasoning_first: bool = False) -> None:
        self.emit = emit
        self.seats = frozenset(s.lower() for s in seats)
        #: the server writes reasoning with no opening tag, ended by a lone ``</think>``
        self.reasoning_first = reasoning_first
        self.sent = ""  # everything emitted this message
        self._reply = ""  # the current reply's text so far
        self._shown = 0  # how much of the current reply's visible text was emitted
        self._current = ""  # what was emitted of the current reply
        self._gap = ""  # the spacing after it, not emitted yet
        self._check: Callable[[str], list[str]] = lambda text: []
        self._blocked = False
        self._hold = False

    # ------------------------------------------------------------ replies
    def begin(self, check: Callable[[str], list[str]], *, hold: bool = False) -> None:
        """A new reply starts; ``check`` finds what is false in a narration; ``hold``: show nothing of
        it before it ends (a reply that may still be answered by a reminder)."""
        self._reply, self._shown, self._current, self._gap = "", 0, "", ""
        self._check, self._blocked, self._hold = check, False, hold

    def feed(self, delta: str) -> None:
        """More text of the current reply."""
        if not delta:
            return
        self._reply += delta
        if self._blocked or self._hold:
            return
        visible = self._visible()
        cut = self._safe(visible)
        if cut > self._shown:
            self._send(visible[self._shown:cut])
            self._shown = cut

    def drop(self) -> None:
        """The current reply is not the narration (it called a tool, or gm asked again): what was
        held of it is dropped; what was shown stays shown."""
        self._reply, self._shown, self._current, self._gap = "", 0, "", ""
        self._blocked = True

    def finish(self, narration: str) -> str:
        """Send the rest of the ``narration`` gm settled on; returns the narration as the player read
        it (everything sent this message, ``narration`` included once)."""
        cur = self._current
        at = _after(narration, cur) if cur else None
        rest = narration[at:] if at is not None else ("\n" if self.sent and narration else "") + narration
        if rest:
            self.emit(rest)
            self.sent += rest
        self._blocked = True
        return self.sent

    # ------------------------------------------------------------ plumbing
    def _send(self, text: str) -> None:
        """Emit ``text`` (the spacing at its end waits for the next words: a reply cut short after it
        ends on a word, not on a space)."""
        if not self._current:
            text = text.lstrip()
            if not text:
                return
        body = text.rstrip()
        gap = text[len(body):]
        if not body:
            self._gap += gap
            return
        piece = (("\n" if self.sent else "") if not self._current else self._gap) + body
        self._gap = gap
        self.emit(piece)
        self.sent += piece
        self._current += piece.lstrip("\n") if not self._current else piece

    def _visible(self) -> str:
        """The reply so far without its reasoning (nothing until a reasoning block is closed)."""
        text = self._reply
        if self.reasoning_first:
            end = text.lower().find("</think>")
            if end < 0:
                return ""
            text = text[end + len("</think>"):]
        text = text.lstrip()
        m = _THINK_OPEN.match(text)
        if m:
            end = text.lower().find(f"</{m.group(1).lower()}>")
            if end < 0:
                return ""
            text = text[end + len(m.group(0)) + 1:].lstrip()
        elif "<think" in text[:12].lower() or text[:1] == "<":
            return ""
        return text

    def _safe(self, text: str) -> int:
        """How much of ``text`` (the reply's visible text) may be shown now."""
        limit = len(text)
        mark = HOLD_MARK.search(text, self._shown)
        if mark:
            limit = mark.start()
        for m in NUMBER_LINE.finditer(text, 0, limit):
            start = m.start() + (1 if text[m.start()] == "\n" else 0)
            end = text.find("\n", start)
            if end < 0 or end >= limit:
                limit = min(limit, start)  # a line starting with a number waits until it is whole
                break
            if BOARD_LINE.match(text[start:end]):
                self._blocked = True  # a drawn board: gm shows the engine's; nothing more of this reply
                limit = min(limit, start)
                break
        cut = limit
        if cut == len(text):  # the last word may still be growing
            space = max(text.rfind(" ", 0, cut), text.rfind("\n", 0, cut), text.rfind("\t", 0, cut))
            cut = space + 1 if space >= 0 else 0
        clause = max((m.end() for m in CLAUSE_END.finditer(text, 0, cut)), default=0)
        for w in re.finditer(r"[A-Za-z0-9&'’-]+", text[clause:cut]):
            if self._risky(w.group(0)):
                cut = clause + w.start()
                break
        if cut <= self._shown:
            return self._shown
        # what was shown passed; only the sentences from the one being shown on need checking (the
        # claims are read a sentence at a time), which keeps a long reply's check cheap
        start = max((m.end() for m in SENTENCE_END.finditer(text, 0, self._shown)), default=0)
        if self._check(text[start:cut]):
            done = max((m.end() for m in SENTENCE_END.finditer(text, start, cut)), default=start)
            if done > start and self._check(text[start:done]):
                self._blocked = True  # a whole sentence the engine contradicts: nothing more of this reply
                return self._shown
            cut = min(cut, done)
        return max(cut, self._shown)

    def _risky(self, word: str) -> bool:
        w = word.lower().strip("'’-")
        return any(c.isdigit() for c in w) or "&" in w or w in CLAIM_WORDS or w in self.seats


def _after(text: str, prefix: str) -> int | None:
    """Where ``prefix`` ends in ``text`` when ``text`` starts with it (spacing aside), else ``None``."""
    if text.startswith(prefix):
        return len(text[:len(prefix)])
    want = " ".join(prefix.split())
    got = ""
    for i, ch in enumerate(text):
        got = " ".join((text[: i + 1]).split())
        if got == want and (i + 1 == len(text) or not ch.isspace()):
            return i + 1
        if len(got) > len(want):
            return None
    return None
