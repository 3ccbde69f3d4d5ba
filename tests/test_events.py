"""Core events (gm.core.events)."""

from __future__ import annotations


def test_make_event_builds_the_event_the_constructor_builds() -> None:
    """Engines build events with ``make_event`` (the speed seam ``event-slots``): the same object as
    ``Event(...)`` in type, equality, repr, text and JSON, and still frozen."""
    import dataclasses

    from gm.core.events import Event, make_event

    fast, plain = make_event("touchdown", "GF-TD", "{seat} scores {points}", {"seat": "home", "points": 6}), \
        Event("touchdown", "GF-TD", "{seat} scores {points}", {"seat": "home", "points": 6})
    assert type(fast) is Event
    assert fast == plain and repr(fast) == repr(plain) and fast.text == "home scores 6" and fast.to_json() == plain.to_json()
    try:
        fast.kind = "x"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a made event must stay frozen")
