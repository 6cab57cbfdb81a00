"""Unit tests of api_probe.py's pure parts: reading torch's answers (a torch
stood in by plain objects), choosing the device, and the records it writes."""
import json
from types import SimpleNamespace

import api_probe as ap


def recorder(tmp_path):
    path = tmp_path / "api.jsonl"
    return ap.Recorder(str(path)), lambda: [json.loads(line) for line in path.read_text().splitlines()]


def test_features_read_what_this_torch_has():
    bare = SimpleNamespace(utils=None, _C=None)
    assert not any(ap.features(bare).values())
    modern = SimpleNamespace(accelerator=object(), _import_device_backends=object(),
                             utils=SimpleNamespace(rename_privateuse1_backend=1),
                             _C=SimpleNamespace(_get_privateuse1_backend_name=lambda: "tpu"))
    found = ap.features(modern)
    assert found["torch_accelerator"] and found["backend_autoload"] and found["rename_privateuse1_backend"]
    assert found["get_privateuse1_backend_name"] and not found["generate_methods_for_privateuse1_backend"]


def test_the_privateuse1_name_is_none_where_torch_cannot_tell():
    renamed = SimpleNamespace(_C=SimpleNamespace(_get_privateuse1_backend_name=lambda: "tpu"))
    assert ap.privateuse1_name(renamed) == "tpu"
    assert ap.privateuse1_name(SimpleNamespace()) is None

    def broken():
        raise RuntimeError("no backend")

    assert ap.privateuse1_name(SimpleNamespace(_C=SimpleNamespace(_get_privateuse1_backend_name=broken))) is None


def test_the_device_is_the_request_then_the_rename_then_the_module_then_the_default():
    assert ap.choose_device("xpu", "torch_tpu", "tpu") == ("xpu", "--device")
    assert ap.choose_device(None, "torch_tpu", "tpu") == ("tpu", "the PrivateUse1 backend name")
    assert ap.choose_device(None, "torch_npu.core", "privateuseone") == ("npu", "the module name")
    assert ap.choose_device(None, "habana", None) == ("habana", "the module name")
    assert ap.choose_device(None, None, None) == ("privateuseone", "default")


def test_a_call_records_its_value_or_what_it_raised(tmp_path):
    rec, records = recorder(tmp_path)
    rec.call("g", "ok", lambda: [1, 2])
    rec.call("g", "fails", lambda: 1 / 0)

    class BadRepr:
        def __repr__(self):
            raise ValueError("no repr")

    rec.call("g", "unprintable", BadRepr)
    rec.absent("g", "gone", "absent")
    out = records()
    assert [r["kind"] for r in out] == ["begin", "call", "begin", "call", "begin", "call", "call"]
    assert out[1]["status"] == "value" and out[1]["value"] == "[1, 2]" and out[1]["value_type"] == "list"
    assert out[3]["status"] == "raised" and out[3]["type"] == "ZeroDivisionError"
    assert out[5]["status"] == "value" and out[5]["value"] is None and out[5]["repr_type"] == "ValueError"
    assert out[6] == {"kind": "call", "group": "g", "api": "gone", "status": "absent", "message": "absent"}


def test_long_values_and_messages_are_cut_with_an_ellipsis():
    assert ap.short_repr("x" * 500).endswith("…") and len(ap.short_repr("x" * 500)) == ap.VALUE_REPR_LIMIT
    assert ap.short_repr([1, 2]) == "[1, 2]"


def test_registrations_before_and_after_become_one_record_per_key(tmp_path):
    rec, records = recorder(tmp_path)
    before = {"PrivateUse1": ["a"], "AutogradPrivateUse1": [], "AutocastPrivateUse1": {"error": "RuntimeError: no key"}}
    after = {"PrivateUse1": ["a", "b", "c"], "AutogradPrivateUse1": ["d"], "AutocastPrivateUse1": []}
    ap.emit_registrations(rec, before, after)
    ap.emit_registrations(rec, None, after)
    out = records()
    assert out[0] == {"kind": "registrations", "available": True, "key": "PrivateUse1", "before": 1,
                      "added": ["b", "c"], "after": 3}
    assert out[1]["added"] == ["d"]
    assert out[2] == {"kind": "registrations", "available": False, "key": "AutocastPrivateUse1",
                      "message": "RuntimeError: no key"}
    assert out[3]["available"] is False and "key" not in out[3]


def test_a_dispatch_table_gives_its_privateuse1_line():
    table = "Undefined: registered\nPrivateUse1: registered at x.cpp:3 [kernel]\nCPU: fn\n"
    known = {"aten::add.Tensor": table}
    torch = SimpleNamespace(_C=SimpleNamespace(_dispatch_dump_table=lambda op: known.get(op, "")))
    assert ap.dump_line(torch, "add.Tensor") == "PrivateUse1: registered at x.cpp:3 [kernel]"
    assert ap.dump_line(torch, "unknown") is None


def test_the_ops_file_gives_the_ops_to_ask_and_the_structured_delegates(tmp_path):
    path = tmp_path / "ops.txt"
    path.write_text("div_.Scalar\nmm\n\ndiv_.Tensor -> div.out\n  add.Tensor ->  add.out \n-> x\n")
    assert ap.read_ops_file(str(path)) == (["div_.Scalar", "mm"], {"div_.Tensor": "div.out", "add.Tensor": "add.out"})


def test_a_composites_callee_is_asked_with_its_structured_delegate(tmp_path, monkeypatch):
    rec, records = recorder(tmp_path)
    tables = {"aten::div_.Scalar": "PrivateUse1: registered at a.cpp:1 [math kernel]\n",
              "aten::div_.Tensor": "PrivateUse1: registered at b.cpp:2 [default backend kernel]\n",
              "aten::div.out": "PrivateUse1: registered at c.cpp:3 [backend fallback]\n"}
    torch = SimpleNamespace(_C=SimpleNamespace(_dispatch_dump_table=lambda op: tables.get(op, "")),
                            _ops=SimpleNamespace(OpOverload=SimpleNamespace(redispatch=None)))
    monkeypatch.setattr(ap, "callees_of", lambda torch, op, args, kwargs: {"div_.Tensor": ((), {})})
    lines = {"div_.Scalar": ap.dump_line(torch, "div_.Scalar")}
    ap.emit_callees(rec, torch, ["div_.Scalar"], {"div_.Scalar": {"args": [], "kwargs": {}}}, lines, set(),
                    {"div_.Tensor": "div.out"})
    out = records()
    assert out[0] == {"kind": "callees", "op": "div_.Scalar", "checked": True, "callees": ["div_.Tensor"]}
    assert [(r["op"], r["dump"]) for r in out if r["kind"] == "op"] == [
        ("div_.Tensor", "PrivateUse1: registered at b.cpp:2 [default backend kernel]"),
        ("div.out", "PrivateUse1: registered at c.cpp:3 [backend fallback]")]
