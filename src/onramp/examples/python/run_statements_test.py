"""Unit tests of run_statements.py's pure parts: what a statement binds,
imports and reads, a broken block's bindings, and the statement records."""
import ast
import json
import sys

import run_statements as rs


def node(code):
    return ast.parse(code).body[0]


def test_bindings_of_imports_definitions_and_assignments():
    assert rs.bindings(node("import torch_tpu.core as tc, os.path")) == (["tc", "os"], ["torch_tpu.core", "os.path"])
    assert rs.bindings(node("from .sub import a, b as c")) == (["a", "c"], [".sub", ".sub.a", ".sub.b"])
    assert rs.bindings(node("from m import *")) == ([], ["m"])
    assert rs.bindings(node("def f(x): return x")) == (["f"], [])
    assert rs.bindings(node("a, (b, *c) = x.y, z[0] = 1, 2, 3")) == (["a", "b", "c"], [])
    assert rs.bindings(node("for i, j in pairs: pass")) == (["i", "j"], [])
    assert rs.bindings(node("with open(p) as fh, lock: pass")) == (["fh"], [])
    assert rs.bindings(node("print(n := 3)")) == (["n"], [])


def test_reads_leave_out_what_nested_scopes_bind():
    assert rs.reads(node("y = torch.ones(3) + x")) == ["torch", "x"]
    assert rs.reads(node("f = lambda a: a + b")) == ["b"]
    assert rs.reads(node("s = [v * k for v in values]")) == ["k", "values"]
    assert rs.reads(node("def g(p):\n    q = p\n    return q + glob")) == ["glob"]


def test_a_broken_line_is_read_by_pattern():
    assert rs.broken_line_bindings("import a.b as x, c") == (["x", "c"], ["a.b", "c"])
    assert rs.broken_line_bindings("from m import (p, q as r") == (["p", "r"], ["m", "m.p", "m.q"])
    assert rs.broken_line_bindings("async def go(:") == (["go"], [])
    assert rs.broken_line_bindings("x, y = (1,") == (["x", "y"], [])
    assert rs.broken_line_bindings("x == 1 +") == ([], [])


def test_a_block_that_does_not_parse_still_names_its_bindings():
    code = "import torch\nmodel = Net(\ndevice = 'tpu'\nfrom torch_tpu import api\n"
    names, modules = rs.unparsed_bindings(code)
    assert names == ["torch", "model", "device", "api"]
    assert modules == ["torch", "torch_tpu", "torch_tpu.api"]


def test_statements_keep_their_source_segment():
    block = {"origin": "README.md:3", "line": 3, "code": "x = 1\nif x:\n    y = 2\nprint(x)\n"}
    assert [source for _, source in rs.statements_of(block)] == ["x = 1", "if x:\n    y = 2", "print(x)"]


def test_a_long_value_is_shown_cut_at_a_word():
    shown = rs.echoed(list(range(100)))["value"]
    assert shown.endswith("…") and len(shown) <= rs.VALUE_REPR_LIMIT
    assert repr(list(range(100))).startswith(shown[:-1]) and shown[:-1].endswith(",")
    assert rs.echoed([1, 2]) == {"value": "[1, 2]"}


def test_main_writes_a_record_per_statement_and_goes_on_after_a_failure(tmp_path, monkeypatch):
    blocks = {"blocks": [{"origin": "README.md:1", "line": 1, "code": "a = 2\nb = a / 0\na * 3\n"},
                         {"origin": "README.md:9", "line": 9, "code": "def broken(:\n"},
                         {"origin": "nb.py:4", "line": 4, "code": "c = a", "inputs": ["a"], "outputs": ["c"]}]}
    (tmp_path / "blocks.json").write_text(json.dumps(blocks))
    result = tmp_path / "result.jsonl"
    monkeypatch.setattr(sys, "argv", ["run_statements.py", str(result), str(tmp_path / "blocks.json"), "5"])
    rs.main()
    records = [json.loads(line) for line in result.read_text().splitlines()]
    done = [r for r in records if r["kind"] == "statement"]
    assert [r["kind"] for r in records].count("begin") == 4
    assert records[-1] == {"kind": "end"}
    assert [(r["line"], r["status"]) for r in done] == [(1, "ok"), (2, "raised"), (3, "value"), (9, "raised"),
                                                        (4, "ok")]
    assert done[1]["type"] == "ZeroDivisionError" and done[1]["reads"] == ["a"]
    assert done[2]["value"] == "6" and done[2]["value_type"] == "int"
    assert done[3]["type"] == "SyntaxError" and done[3]["binds"] == ["broken"]
    assert done[4]["cell_inputs"] == ["a"] and done[4]["cell_outputs"] == ["c"]
