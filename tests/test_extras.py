"""Side tables in ``attrs["extra"]`` must not stop pandas from joining result frames."""

import pandas as pd

from simkit.core.extras import Extras, extras


def _result(extra):
    f = pd.DataFrame({"side": ["blue", "red"], "wins": [3, 5]})
    f.attrs["extra"] = extra
    return f


def test_results_with_side_tables_concatenate_and_keep_equal_ones():
    a = _result(Extras({"t": pd.DataFrame({"x": [1]})}))
    b = _result(Extras({"t": pd.DataFrame({"x": [1]})}))
    joined = pd.concat([a, b], ignore_index=True)
    assert len(joined) == 4
    assert joined.attrs["extra"] == a.attrs["extra"]


def test_results_with_different_side_tables_concatenate_and_drop_them():
    a = _result(Extras({"t": pd.DataFrame({"x": [1]})}))
    b = _result(Extras({"t": pd.DataFrame({"x": [2]})}))
    joined = pd.concat([a, b], ignore_index=True)
    assert len(joined) == 4
    assert "extra" not in joined.attrs


def test_equality_is_by_caption_and_content():
    one = Extras({"t": pd.DataFrame({"x": [1]}), "n": 3})
    assert one == Extras({"t": pd.DataFrame({"x": [1]}), "n": 3})
    assert one != Extras({"t": pd.DataFrame({"x": [1]}), "n": 4})
    assert one != Extras({"u": pd.DataFrame({"x": [1]}), "n": 3})
    assert one != Extras({"t": pd.Series([1]), "n": 3})


def test_extras_attaches_an_empty_container_once():
    f = pd.DataFrame({"a": [1]})
    extras(f)["t"] = pd.DataFrame({"x": [1]})
    extras(f)["u"] = pd.DataFrame({"x": [2]})
    assert isinstance(f.attrs["extra"], Extras) and list(f.attrs["extra"]) == ["t", "u"]
