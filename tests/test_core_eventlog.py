"""The shared event-log layout: events in order, overflow counted and refused, never cut."""

import numpy as np
import pytest

from simkit.core import eventlog as EL


def test_events_are_kept_in_order_in_the_shared_columns():
    log = EL.new_log(4)
    EL.log_event(log, (1, 2, 3, 7, 10, 11, 12, 13, 14, 15, 16))
    EL.log_event(log, (2, EL.NONE, 0, 8, 0, 0, 0, 0, 0, 0, 0))
    rows = log.table()
    assert rows.shape == (2, EL.WIDTH)
    assert list(rows[0]) == [1, 2, 3, 7, 10, 11, 12, 13, 14, 15, 16]
    assert rows[1, EL.TURN] == 2 and rows[1, EL.PHASE] == EL.NONE and rows[1, EL.KIND] == 8
    f = log.frame({7: "fire"})
    assert list(f.columns) == list(EL.COLUMNS) and f["kind"].tolist() == ["fire", 8]


def test_a_log_past_its_capacity_counts_every_event_and_is_refused():
    log = EL.new_log(2)
    for k in range(5):
        EL.log_event(log, (k, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0))
    assert log.overflowed() and int(log.count[0]) == 5
    assert np.array_equal(log.rows[:, EL.TURN], [0, 1])      # the first two are kept
    with pytest.raises(EL.LogOverflow, match="5 events .* capacity 2"):
        log.table(where="a test game")


def test_the_monte_carlo_log_of_capacity_zero_only_counts():
    log = EL.new_log(0)
    EL.log_event(log, (1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0))
    assert log.rows.shape == (0, EL.WIDTH) and int(log.count[0]) == 1


def test_a_recorded_trial_returns_its_rolls_and_refuses_a_recording_too_small():
    from simkit.core import dice

    def play(st, rolls):
        return [int(dice.roll(st, rolls, 1, 6)) for _ in range(5)]

    result, made = EL.recorded_trial(play, seed=3, trial=2)
    assert list(made) == result and len(made) == 5
    again, _ = EL.recorded_trial(play, seed=3, trial=2)
    assert again == result                                   # trial 2 of seed 3, every time
    with pytest.raises(EL.LogOverflow, match="trial 2 of seed 3 rolled 5 dice.*holds 4"):
        EL.recorded_trial(play, seed=3, trial=2, max_rolls=4)
