from gm.core import find_game


def test_worked_example_from_the_quick_start() -> None:
    """Ball K20, Play 1 Red '2 right before' vs Play 3 Black -> M26 (quick-start example)."""
    g = find_game("grid-football")
    s = g.new_state(seed=0)
    s.phase, s.offense, s.ball, s.down, s.los, s.to_gain = "play", "home", (10, 20), 1, 20, 30
    s.apply("home", "Play 1, Red, 2 right before")
    s.apply("away", "Play 3, Black")
    assert s.snapshot()["ball"] == "M26"
    assert s.snapshot()["blocked"] == ["M26"]
