"""Policy pairings shared by `scenario run --policies all` and `simkit sensitivity`."""

import pandas as pd

from simkit.core import pairings as PR


def test_every_combination_up_to_the_cap():
    got = PR.pairings(["a", "b"], ["x", "y", "z"])
    assert len(got) == 9 and got[0] == {"a": "x", "b": "x"} and got[-1] == {"a": "z", "b": "z"}


def test_many_sides_change_one_policy_at_a_time():
    sides = [f"car{i}" for i in range(6)]
    default = {s: "hunter" for s in sides}
    got = PR.pairings(sides, ["hunter", "coward", "rammer"], default)
    assert len(got) == 6 * 2                       # 3**6 > 64; the default itself is left out
    assert all(sum(p[s] != "hunter" for s in sides) == 1 for p in got)
    assert len(PR.pairings(["a", "b"], ["x", "y"], {"a": "x", "b": "x"})) == 3
    # without a default the fallback names only the side that changes
    part = PR.pairings(sides, ["hunter", "coward", "rammer"])
    assert len(part) == 18 and all(len(p) == 1 for p in part)
    assert PR.label(part[0], 6) == "car0=hunter (others as in the file)"
    assert PR.label({"a": "x", "b": "y"}, 2) == "a=x vs b=y"


def test_table_stacks_one_block_per_pairing_and_keeps_named_extras():
    def frame_of(chosen):
        f = pd.DataFrame({"side": list(chosen), "policy": list(chosen.values()),
                          "wins": [len(p) for p in chosen.values()]})
        f.attrs = {"columns": ["pairing", "side", "wins"],
                   "extra": {"kept": pd.DataFrame({"n": [1]}), "dropped": pd.DataFrame()}}
        return f

    out = PR.table(frame_of, ["a", "b"], ["x", "yy"], keep_extra=["kept"])
    assert len(out) == 8 and out.pairing.nunique() == 4
    assert list(out.columns[:2]) == ["side", "pairing"]
    assert out.attrs["columns"] == ["pairing", "side", "wins"]
    assert sorted(out.attrs["extra"]) == [f"{PR.label(p)}: kept"
                                          for p in sorted(PR.pairings(["a", "b"], ["x", "yy"]),
                                                          key=PR.label)]
    assert out.loc[out.pairing == "a=yy vs b=x", "wins"].tolist() == [2, 1]
