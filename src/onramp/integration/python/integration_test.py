"""Unit tests of integration.py's record writing: a check's outcome as the
records onramp reads, the group's plan, and reading torch by path."""
import json
from types import SimpleNamespace

import pytest

import integration as it


@pytest.fixture
def recorder(tmp_path):
    path = tmp_path / "runtime.jsonl"

    def make(plan, skip=(), limits=None):
        rec = it.Recorder(str(path), skip, limits or {}, plan)
        return rec, lambda: [json.loads(line) for line in path.read_text().splitlines()]

    return make


def test_each_outcome_of_a_check(recorder):
    rec, records = recorder(["generator", "amp", "streams", "compile", "profiler"])
    rec.check("generator", "torch.Generator('x')", lambda: 5, judge=lambda v: v == 5)

    def missing():
        raise RuntimeError("Please register PrivateUse1HooksInterface by `RegisterPrivateUse1HooksInterface` first.")

    rec.check("amp", "amp dtypes", missing)
    rec.check("streams", "torch.Stream", lambda: 1 / 0)

    def needs():
        raise it.NeedsDevice("device_count() is 0")

    rec.check("compile", "torch.compile", needs)
    rec.check("profiler", "profile", lambda: it.need(SimpleNamespace(), "profiler", "ProfilerActivity"))
    out = [r for r in records() if r["kind"] == "check"]
    assert [r["outcome"] for r in out] == ["value", "absent", "raised", "needs_device", "not_in_this_torch"]
    assert out[0]["ok"] is True and out[0]["value"] == "5"
    assert out[2]["type"] == "ZeroDivisionError"
    assert out[4]["message"] == "this torch has no profiler"
    assert all(r["seconds"] >= 0 for r in out)
    assert [r["kind"] for r in records()].count("begin") == 5


def test_a_skipped_point_writes_nothing_and_an_unplanned_one_is_a_bug(recorder):
    rec, records = recorder(["harmless", "amp"], skip=["amp"])
    rec.check("amp", "amp", lambda: 1)
    with pytest.raises(AssertionError):
        rec.check("streams", "torch.Stream", lambda: 1)
    assert records() == []


def test_need_follows_a_path_of_attributes():
    torch = SimpleNamespace(accelerator=SimpleNamespace(device_count=lambda: 0))
    assert it.need(torch, "accelerator", "device_count")() == 0
    with pytest.raises(it.NotInThisTorch, match="this torch has no synchronize"):
        it.need(torch, "accelerator", "synchronize")


def test_values_are_shown_short_and_a_failing_repr_is_named():
    class BadRepr:
        def __repr__(self):
            raise KeyError(0)

    assert it.safe_repr(BadRepr()) == "<repr raised KeyError>"
    assert it.safe_repr("z" * 1000).endswith("…") and len(it.safe_repr("z" * 1000)) == it.VALUE_LIMIT
    assert it.safe_repr("abc") == "'abc'"
