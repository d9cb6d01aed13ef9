"""The shared argument and scenario-field checks (simkit.core.checks): one clear error naming
the file and the field, and never a number mistaken for a flag or the reverse."""

import pytest

from simkit.core.checks import get_field, known_fields, positive_int, text, whole_number
from simkit.core.errors import UserInputError


def test_get_field_returns_the_value_or_the_default():
    raw = {"turns": 10, "name": "x"}
    assert get_field(raw, "turns", int, "f.toml") == 10
    assert get_field(raw, "seed", int, "f.toml", default=7) == 7
    assert get_field(raw, "name", (str,), "f.toml", "scenario.name") == "x"


@pytest.mark.parametrize("raw, types, needle", [
    ({}, int, "missing"),
    ({"k": "ten"}, int, "expected int, got 'ten'"),
    ({"k": True}, (int, float), "expected int/float, got True"),   # bool is not a number
    ({"k": 3}, bool, "expected bool, got 3"),
])
def test_get_field_errors_name_the_file_and_field(raw, types, needle):
    with pytest.raises(UserInputError, match=needle) as e:
        get_field(raw, "k", types, "f.toml", "side.k")
    assert "f.toml" in str(e.value) and "side.k" in str(e.value)


def test_a_bool_is_accepted_where_a_bool_is_asked_for():
    assert get_field({"k": False}, "k", (bool,), "f.toml") is False


def test_known_fields_refuses_a_misspelt_field():
    known_fields({"turns": 1}, {"turns", "name"}, "f.toml")
    with pytest.raises(UserInputError, match="unknown field") as e:
        known_fields({"tunrs": 1}, {"turns", "name"}, "f.toml", "side.")
    assert "side.tunrs" in str(e.value)


def test_whole_number_and_text():
    assert whole_number(3, "f", "k", 1, 6) == 3
    for bad in (0, 7, 2.0, True, "3"):
        with pytest.raises(UserInputError):
            whole_number(bad, "f", "k", 1, 6)
    assert text("  a ", "f", "k") == "a"
    for bad in ("", "  ", 3, None):
        with pytest.raises(UserInputError):
            text(bad, "f", "k")


def test_positive_int():
    assert positive_int("5", "--trials") == 5
    with pytest.raises(UserInputError, match="positive"):
        positive_int(0, "--trials")
