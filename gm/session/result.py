"""A tool call's result that is worked out when it is first read.

Most of the cost of a :meth:`gm.session.Session.call` beyond the engine's own apply is the result:
the status line, who acts next, the events in words, the board window.  A caller that never reads
a result (a benchmark, a bot loop, a load test) should not pay for them, and one that reads it (every
front end: it serialises, prints or sends it) must get exactly what an eagerly built dict holds.

:class:`CallResult` is a ``dict`` whose content is made by a function on first use: any read
(``r["ok"]``, ``len(r)``, iteration, ``json.dumps(r)``, ``dict(r)``, ``r == {...}``, ``repr``,
pickling, copying) or write makes it first, after which it is an ordinary dict with the same keys in
the same order.  Until then its own storage holds only one placeholder key (not empty: C's JSON encoder
writes ``{}`` for an empty dict without asking it), so a C-level reader that bypassed the dict
methods would see that key (and fail loudly) rather than part of a result.

The function reads the live game, so the session makes a pending result (:class:`Pending`) before it
changes anything: the content is that of the moment of the call, whenever it is read.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

#: one lock for making results: a reader in one thread and a session settling its pending result
#: before a move in another must not both make it
_MAKING = threading.Lock()
#: the one key a result holds before it is made
_UNMADE = "__result_not_made__"
_setitem = dict.__setitem__
_new_result = dict.__new__


# speed seam: lazy-call-result - a result nobody reads costs no status line, no list of who acts
# next, no events in words and no board window; made on first read (bench tools: <game>.call_overhead,
# the result not read, against <game>.call_read).  Pending.lazy builds it without a Python-level __init__, and
# the dispatcher hands it a function and its arguments rather than a closure, for the same reason.
class CallResult(dict[str, Any]):
    """A result dict made on first use by ``make`` (see the module docstring)."""

    __slots__ = ("__weakref__", "_args", "_make")

    def __init__(self, make: Callable[..., dict[str, Any]] | None = None, *args: Any) -> None:
        # (dict's own __init__ has nothing to do: the dict is empty)
        if make is not None:
            _setitem(self, _UNMADE, None)
        self._make = make
        self._args = args

    def settle(self) -> None:
        """Make the content now (it is read from the live game: before the game changes)."""
        if self._make is not None:
            with _MAKING:
                make = self._make
                if make is not None:
                    made = make(*self._args)
                    dict.clear(self)
                    dict.update(self, made)
                    self._make = None
                    self._args = ()

    def __reduce_ex__(self, protocol: Any) -> Any:  # copies and pickles are plain dicts
        self.settle()
        return (dict, (dict(dict.items(self)),))


def _making(name: str) -> Callable[..., Any]:
    base = getattr(dict, name)

    def method(self: CallResult, *args: Any, **kwargs: Any) -> Any:
        if self._make is not None:
            self.settle()
        return base(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = base.__doc__
    return method


def _comparing(name: str) -> Callable[..., Any]:
    base = getattr(dict, name)

    def method(self: CallResult, other: Any) -> Any:
        self.settle()
        if isinstance(other, CallResult):
            other.settle()
        return base(self, other)

    method.__name__ = method.__qualname__ = name
    return method


# every dict method that reads or writes the content makes it first (set after the class is made, so
# their signatures stay dict's for type checkers; setting a dunder updates the type's slot)
for _name in (
    "__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__", "__reversed__", "__len__",
    "__repr__", "__ior__", "__sizeof__",
    "get", "keys", "values", "items", "copy", "pop", "popitem", "setdefault", "update", "clear",
):
    setattr(CallResult, _name, _making(_name))
for _name in ("__eq__", "__ne__", "__or__", "__ror__"):
    setattr(CallResult, _name, _comparing(_name))
del _name


class Pending:
    """The result a session answered last and may not have been read: :meth:`settle` makes it (if its
    caller still holds it) before the session changes the game it reads."""

    __slots__ = ("_ref",)

    def __init__(self) -> None:
        self._ref: weakref.ref[CallResult] | None = None

    def lazy(self, make: Callable[..., dict[str, Any]], *args: Any) -> CallResult:
        """A result made by ``make(*args)`` on first use, kept as the pending one (the one before is made first)."""
        ref = self._ref
        if ref is not None:
            last = ref()
            if last is not None and last._make is not None:
                last.settle()
        result = _new_result(CallResult)  # (CallResult(make, *args) without a Python-level __init__)
        _setitem(result, _UNMADE, None)
        result._make = make
        result._args = args
        self._ref = weakref.ref(result)
        return result

    def settle(self) -> None:
        ref = self._ref
        if ref is not None:
            self._ref = None
            result = ref()
            if result is not None and result._make is not None:
                result.settle()
