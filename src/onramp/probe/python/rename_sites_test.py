"""Unit tests of rename_sites.py: a package read, never imported, for the
calls that name the PrivateUse1 backend (the fixtures in ../testdata)."""
import json
import os
import sys

import pytest

import rename_sites

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "rename_sites")


@pytest.fixture
def search(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(FIXTURES)

    def run(package):
        out = tmp_path / (package + ".jsonl")
        monkeypatch.setattr(sys, "argv", ["rename_sites.py", str(out), package])
        rename_sites.main()
        return [json.loads(line) for line in out.read_text().splitlines()]

    return run


def sites(records, api=None):
    return [r for r in records if r["kind"] == "site" and api in (None, r["api"])]


def test_a_rename_at_module_level(search):
    records = search("at_import_pkg")
    assert records[0]["kind"] == "package" and records[0]["found"] and records[0]["files"] == 1
    assert records[-1] == {"kind": "end"}
    (site,) = sites(records)
    assert site["api"] == "rename_privateuse1_backend" and site["argument"] == "foo"
    assert site["module_level"] and site["conditions"] == [] and site["line"] == 3


def test_a_rename_under_a_condition_and_its_else_branch(search):
    records = search("guarded_pkg")
    (rename,) = sites(records, "rename_privateuse1_backend")
    (module,) = sites(records, "_register_device_module")
    assert rename["conditions"] == ["os.environ.get('FOO_DEVICES')"]
    assert module["conditions"] == ["not (os.environ.get('FOO_DEVICES'))"]


def test_a_rename_in_a_function_nothing_calls(search):
    (site,) = sites(search("never_pkg"), "rename_privateuse1_backend")
    assert site["function"] == "setup" and not site["module_level"] and site["callers"] == []
    assert len(site["unresolved"]) == 1 and site["unresolved"][0].startswith("never called in the package")


def test_a_missing_package_is_one_record_that_says_so(search):
    records = search("no_such_pkg_here")
    assert records[0]["kind"] == "package" and records[0]["found"] is False and records[0]["message"]
    assert records[1:] == [{"kind": "end"}]


def test_a_long_condition_is_cut_at_a_word():
    node = rename_sites.ast.parse(" and ".join(f"flag_{i}" for i in range(100)), mode="eval").body
    shown = rename_sites.unparse(node)
    assert shown.endswith("…") and len(shown) <= rename_sites.TEXT_LIMIT
    assert shown[:-1].endswith(("and", "flag_" + shown[:-1].rsplit("flag_", 1)[-1]))
    assert rename_sites.unparse(rename_sites.ast.parse("a and b", mode="eval").body) == "a and b"
