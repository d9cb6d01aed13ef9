"""Rules-data loading: labels and sources are mandatory; variants patch copies."""

import pytest

from simkit.core.data import load_rules, parse_variant_options
from simkit.core.errors import UserInputError

GOOD = """
source = "test"
[table.t]
label = "RECONSTRUCTED"
source = "reconstructed: for a test"
[table.t.rows]
a = [1, 2, 3]
[variant.v]
doc = "dispute"
default = "x"
[variant.v.choice.x]
doc = "as printed"
[variant.v.choice.y]
doc = "the other reading"
patch = [{ table = "t", row = "a", index = 1, value = 9 }]
"""


def write(tmp_path, text):
    p = tmp_path / "rules.toml"
    p.write_text(text)
    return p


def test_loads_tables_and_applies_variant_patches_to_a_copy(tmp_path):
    rules = load_rules(write(tmp_path, GOOD))
    assert rules.table("t").label == "RECONSTRUCTED"
    patched = rules.with_variants({"v": "y"})
    assert patched.table("t")["rows"]["a"] == [1, 9, 3]
    assert rules.table("t")["rows"]["a"] == [1, 2, 3]
    assert rules.resolve() == {"v": "x"}


@pytest.mark.parametrize("drop", ['label = "RECONSTRUCTED"\n', 'source = "reconstructed: for a test"\n'])
def test_loader_refuses_a_table_without_label_or_source(tmp_path, drop):
    with pytest.raises(UserInputError) as e:
        load_rules(write(tmp_path, GOOD.replace(drop, "")))
    assert "rules.toml" in str(e.value) and "table.t." in str(e.value)


def test_loader_refuses_an_unknown_label(tmp_path):
    with pytest.raises(UserInputError, match="label"):
        load_rules(write(tmp_path, GOOD.replace('"RECONSTRUCTED"', '"GUESSED"')))


def test_malformed_toml_names_the_file(tmp_path):
    with pytest.raises(UserInputError, match="rules.toml: not valid TOML"):
        load_rules(write(tmp_path, "[table.t\n"))


def test_unknown_variant_or_choice_is_named(tmp_path):
    rules = load_rules(write(tmp_path, GOOD))
    with pytest.raises(UserInputError, match="unknown variant 'w'"):
        rules.resolve({"w": "x"})
    with pytest.raises(UserInputError, match="unknown choice 'z'.*choices: x, y"):
        rules.resolve({"v": "z"})
    with pytest.raises(UserInputError, match="name=choice"):
        parse_variant_options(["v"])
