"""Asks torch and a backend module what they answer without the device.

Usage: python api_probe.py RESULT_FILE MODULE DEVICE [--registrations-only | --routes OPS_FILE [--args ARGS_FILE] |
                                                     --with-routes OPS_FILE]

MODULE may be empty (probe torch alone); DEVICE may be empty (use the name
the backend gave PrivateUse1, else MODULE without a "torch_" prefix).
Before and after importing MODULE it asks the dispatcher which ops are
registered for the backend's dispatch keys, and evaluates the device strings
(a name such as "tpu" may parse only once the backend registered it).
--registrations-only stops after the registrations. --routes OPS_FILE also
stops there (--with-routes OPS_FILE goes on with the whole probe), after
recording for each op named in OPS_FILE (one a line,
"add.Tensor") what the dispatcher holds for PrivateUse1: whether the module
registered a kernel for it, and the PrivateUse1 line of its dispatch table
(onramp reads the route from that line and the schema: probe/served_routes.h).
For an op whose PrivateUse1 entry is a composite kernel (not the module's
own), its callees are found by running that kernel on meta tensors
(redispatched to PrivateUse1) under a TorchDispatchMode that records the ops
it reaches, recursively: a "callees" record per op. The inputs come from
ARGS_FILE (a JSON object, op -> the arguments of one traced call, as
port/python/trace.py records them); an op without them is "not checked".
Results go to RESULT_FILE as JSON Lines, one record per call, each preceded
by a "begin" record, so that a call that hangs or crashes the interpreter is
still named. Features are detected by looking for them, never by version.
"""
import importlib
import inspect
import json
import os
import sys
import time
import traceback

from onramp_errors import MESSAGE_LIMIT, exception_fields, first_line, shortened

# The backend's own dispatch keys: kernels, autograd formulas, autocast rules.
BACKEND_KEYS = ["PrivateUse1", "AutogradPrivateUse1", "AutocastPrivateUse1"]
ACCELERATOR_CALLS = ["is_available", "device_count", "current_accelerator",
                     "current_device_index", "synchronize"]
VALUE_REPR_LIMIT = 120


class Recorder:
    def __init__(self, path):
        self.out = open(path, "w", buffering=1)

    def emit(self, record):
        self.out.write(json.dumps(record, default=repr) + "\n")
        self.out.flush()

    def call(self, group, api, thunk):
        """Runs thunk, recording its value or the exception it raised."""
        self.emit({"kind": "begin", "api": api})
        record = {"kind": "call", "group": group, "api": api}
        start = time.perf_counter()
        try:
            value = thunk()
        except BaseException as exc:
            record.update(status="raised", **exception_fields(exc))
            record["seconds"] = time.perf_counter() - start
            self.emit(record)
            return
        record["seconds"] = time.perf_counter() - start
        # The call returned; printing its value is a second step that can
        # fail on its own (a tensor's repr needs ops the call did not).
        record.update(status="value", value_type=type(value).__name__, **rendered(value))
        self.emit(record)

    def absent(self, group, api, why):
        self.emit({"kind": "call", "group": group, "api": api, "status": "absent", "message": why})


def short_repr(value):
    text = repr(value)
    return shortened(text, VALUE_REPR_LIMIT)


def rendered(value):
    """{"value": repr} or, when repr raises, {"repr_type", "repr_message"}."""
    try:
        return {"value": short_repr(value)}
    except BaseException as exc:
        return {"value": None, "repr_type": type(exc).__name__, "repr_message": shortened(str(exc), MESSAGE_LIMIT)}



def features(torch):
    utils = getattr(torch, "utils", None)
    c = getattr(torch, "_C", None)
    found = {
        "torch_accelerator": hasattr(torch, "accelerator"),
        "rename_privateuse1_backend": hasattr(utils, "rename_privateuse1_backend"),
        "generate_methods_for_privateuse1_backend": hasattr(utils, "generate_methods_for_privateuse1_backend"),
        "get_privateuse1_backend_name": hasattr(c, "_get_privateuse1_backend_name"),
        "backend_autoload": hasattr(torch, "_import_device_backends"),
    }
    return found


def privateuse1_name(torch):
    getter = getattr(getattr(torch, "_C", None), "_get_privateuse1_backend_name", None)
    try:
        return getter() if getter else None
    except Exception:
        return None


def autoload_entry_points():
    try:
        from importlib.metadata import entry_points
        return sorted(f"{ep.name} = {ep.value}" for ep in entry_points(group="torch.backends"))
    except Exception:
        return []


def choose_device(requested, module, backend_name):
    if requested:
        return requested, "--device"
    if backend_name and backend_name != "privateuseone":
        return backend_name, "the PrivateUse1 backend name"
    if module:
        base = module.split(".")[0]
        return (base[len("torch_"):] if base.startswith("torch_") else base), "the module name"
    return "privateuseone", "default"


def cuda_functions(torch):
    """Public functions of torch.cuda, looked up now: the API a CUDA user knows."""
    names = []
    for name in sorted(dir(torch.cuda)):
        obj = getattr(torch.cuda, name, None)
        # Callables that are not classes: plain functions, builtins, and wrapped
        # ones (torch.cuda.device_count is an lru_cache wrapper).
        if name.startswith("_") or inspect.isclass(obj) or not callable(obj):
            continue
        if getattr(obj, "__module__", "").startswith("torch.cuda"):
            names.append(name)
    return names


def needs_arguments(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in params)


def probe_accelerator(rec, torch):
    accelerator = getattr(torch, "accelerator", None)
    for name in ACCELERATOR_CALLS:
        api = f"torch.accelerator.{name}"
        fn = getattr(accelerator, name, None) if accelerator is not None else None
        if fn is None:
            rec.absent("torch.accelerator", api, "torch.accelerator is absent" if accelerator is None else "absent")
        else:
            rec.call("torch.accelerator", api, fn)


def probe_device_module(rec, torch, device):
    """torch.DEVICE, and torch.privateuseone where a backend that could not be
    renamed (torch before 2.1) registered its module instead."""
    probed = []
    for name in dict.fromkeys([device, "privateuseone"]):
        group = f"torch.{name}"
        module = getattr(torch, name, None)
        if module is None:
            rec.absent(group, group, f"torch has no attribute {name!r}")
            continue
        if any(module is other for other in probed):
            continue
        probed.append(module)
        for fn_name in cuda_functions(torch):
            api = f"{group}.{fn_name}"
            fn = getattr(module, fn_name, None)
            if fn is None:
                rec.absent(group, api, "absent")
            elif needs_arguments(fn):
                rec.emit({"kind": "call", "group": group, "api": api, "status": "skipped",
                          "message": "needs arguments"})
            else:
                rec.call(group, api, fn)


def seed_cpu_generator(torch):
    """The same random values every run for a backend that draws them from the
    CPU generator: printing a tensor takes value-dependent paths (and ops)."""
    try:
        torch.default_generator.manual_seed(0)
    except Exception:
        pass


def probe_device_strings(rec, torch, names, group="device strings"):
    for name in dict.fromkeys(names):
        for source in (f'torch.device("{name}")', f'torch.device("{name}:0")',
                       f'torch.zeros(1, device="{name}")', f'torch.randn((4,4), device="{name}")'):
            seed_cpu_generator(torch)
            rec.call(group, source, lambda s=source: eval(s, {"torch": torch}))


def registrations(torch):
    """{key: sorted op names} registered now, or None where torch cannot say."""
    ask = getattr(getattr(torch, "_C", None), "_dispatch_get_registrations_for_dispatch_key", None)
    if ask is None:
        return None
    found = {}
    for key in BACKEND_KEYS:
        try:
            found[key] = sorted(ask(key))
        except Exception as exc:  # a key this torch does not have
            found[key] = {"error": f"{type(exc).__name__}: {first_line(str(exc))}"}
    return found


def emit_registrations(rec, before, after):
    if before is None or after is None:
        rec.emit({"kind": "registrations", "available": False,
                  "message": "this torch has no torch._C._dispatch_get_registrations_for_dispatch_key"})
        return
    for key in BACKEND_KEYS:
        b, a = before.get(key), after.get(key)
        if isinstance(a, dict) or isinstance(b, dict):
            rec.emit({"kind": "registrations", "available": False, "key": key,
                      "message": (a if isinstance(a, dict) else b)["error"]})
            continue
        rec.emit({"kind": "registrations", "available": True, "key": key, "before": len(b),
                  "added": sorted(set(a) - set(b)), "after": len(a)})


# The dispatcher's introspection the routes need; detected, since a torch
# may lack any of them.
ROUTE_INTROSPECTION = ["_dispatch_get_registrations_for_dispatch_key", "_dispatch_dump_table",
                       "_dispatch_has_backend_fallback"]


def privateuse1_fallback(torch):
    c = torch._C
    try:
        return bool(c._dispatch_has_backend_fallback(c.DispatchKey.PrivateUse1))
    except Exception:
        return None


def dump_line(torch, op):
    """The PrivateUse1 line of the op's dispatch table: "" when it has none,
    None when the dispatcher does not know the op."""
    qualified = op if "::" in op else "aten::" + op
    try:
        table = torch._C._dispatch_dump_table(qualified)
    except Exception:
        return None
    if not table.strip():  # torch 2.13 answers an unknown op with an empty table
        return None
    for line in table.splitlines():
        if line.startswith("PrivateUse1:"):
            return line
    return ""


def read_ops_file(path):
    """(ops, delegates): each op to ask, in order, and {op: its structured delegate} from the
    file's "OP -> DELEGATE" lines (ask_routes.h's routes_file_text)."""
    ops, delegates = [], {}
    with open(path) as f:
        for line in f:
            op, arrow, delegate = (part.strip() for part in line.partition("->"))
            if arrow and op and delegate:
                delegates[op] = delegate
            elif op and not arrow:
                ops.append(op)
    return ops, delegates


def emit_routes(rec, torch, ops_file, before, after, fallback_before, args_file=None):
    """One "op" record per op; "own" is a PrivateUse1 registration the
    import added (after minus before). A computed kernel alone says nothing:
    plain torch has one for every structured op."""
    c = getattr(torch, "_C", None)
    missing = [name for name in ROUTE_INTROSPECTION if not hasattr(c, name)]
    rec.emit({"kind": "introspection", "available": not missing, "missing": missing,
              "torch_version": getattr(torch, "__version__", None)})
    if missing:
        return
    rec.emit({"kind": "fallback", "key": "PrivateUse1", "before": fallback_before,
              "after": privateuse1_fallback(torch)})
    added = set(after.get("PrivateUse1", [])) - set(before.get("PrivateUse1", [])) \
        if isinstance(after.get("PrivateUse1"), list) and isinstance(before.get("PrivateUse1"), list) else set()
    ops, delegates = read_ops_file(ops_file)
    lines = {}
    for op in dict.fromkeys(ops):
        qualified = op if "::" in op else "aten::" + op
        line = lines[op] = dump_line(torch, op)
        rec.emit({"kind": "op", "op": op, "known": line is not None, "own": qualified in added,
                  "dump": line or ""})
    # The routes are complete: a crash in the callee check below loses only callees.
    rec.emit({"kind": "routes_done"})
    traced_args = {}
    if args_file:
        with open(args_file) as f:
            traced_args = json.load(f)
    emit_callees(rec, torch, list(dict.fromkeys(ops)), traced_args if isinstance(traced_args, dict) else {},
                 lines, added, delegates)


class NotRebuilt(Exception):
    """An argument the callee check cannot rebuild on the meta device."""


def rebuild(torch, value):
    """A traced argument on the meta device: tensors become empty meta
    tensors of the same shape, strides and dtype; devices become meta."""
    if isinstance(value, list):
        return [rebuild(torch, v) for v in value]
    if not isinstance(value, dict):
        return value
    def attribute(name, kind):
        found = getattr(torch, str(name), None)
        if not isinstance(found, kind):
            raise NotRebuilt(f"{name} is not a torch.{kind.__name__}")
        return found
    if "tensor" in value:
        dtype = attribute(value.get("dtype"), torch.dtype)
        if "stride" in value:
            return torch.empty_strided(value["tensor"], value["stride"], dtype=dtype, device="meta")
        return torch.empty(value["tensor"], dtype=dtype, device="meta")
    if "dtype" in value:
        return attribute(value["dtype"], torch.dtype)
    if "device" in value:
        return torch.device("meta")
    if "memory_format" in value:
        return attribute(value["memory_format"], torch.memory_format)
    if "layout" in value:
        return attribute(value["layout"], torch.layout)
    raise NotRebuilt(f"an argument of type {value.get('unsupported', '?')}")


def overload_packet(torch, op):
    """torch.ops.aten.masked_fill.Scalar for "masked_fill.Scalar"."""
    namespace, _, full = op.rpartition("::")
    name, _, overload = full.partition(".")
    return getattr(getattr(getattr(torch.ops, namespace or "aten"), name), overload or "default")


def op_name(func):
    namespace, _, name = func._schema.name.partition("::")
    overload = func._overloadname
    full = name if overload in ("default", "") else name + "." + overload
    return full if namespace == "aten" else namespace + "::" + full


def callees_of(torch, op, args, kwargs):
    """The ops a call of op's PrivateUse1 kernel reaches, in order, each with
    the arguments of its first call (meta tensors)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class CalleeRecorder(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.seen = {}

        def __torch_dispatch__(self, func, types, a=(), kw=None):
            self.seen.setdefault(op_name(func), (a, kw or {}))
            return func(*a, **(kw or {}))

    recorder = CalleeRecorder()
    keys = torch._C.DispatchKeySet(torch._C.DispatchKey.PrivateUse1)
    with recorder:
        overload_packet(torch, op).redispatch(keys, *args, **kwargs)
    return recorder.seen


COMPOSITE_KINDS = ("[default backend kernel]", "[math kernel]")
CALLEE_DEPTH = 6
CALLEE_OPS = 2000


def emit_callees(rec, torch, roots, traced_args, lines, added, delegates=None):
    """A "callees" record for each composite op reached from roots, and an
    "op" record for each callee not yet recorded, and for its structured
    delegate (delegates: op -> delegate), through which torch's default
    backend kernel serves it; lines: op -> dump line."""
    delegates = delegates or {}
    def composite(op):
        qualified = op if "::" in op else "aten::" + op
        line = lines.get(op)
        return bool(line) and line.endswith(COMPOSITE_KINDS) and qualified not in added

    def emit_op(op):
        if op in lines or len(lines) >= CALLEE_OPS:
            return
        qualified = op if "::" in op else "aten::" + op
        lines[op] = dump_line(torch, op)
        rec.emit({"kind": "op", "op": op, "known": lines[op] is not None, "own": qualified in added,
                  "dump": lines[op] or ""})

    pending = []
    redispatch = hasattr(getattr(torch, "_ops", None), "OpOverload") and hasattr(torch._ops.OpOverload, "redispatch")
    for op in roots:
        if not composite(op):
            continue
        if not redispatch:  # torch 1.13: no OpOverload.redispatch (its _op_dk crashes on meta tensors)
            rec.emit({"kind": "callees", "op": op, "checked": False,
                      "why": "this torch has no torch._ops.OpOverload.redispatch"})
            continue
        spec = traced_args.get(op)
        if not isinstance(spec, dict):
            rec.emit({"kind": "callees", "op": op, "checked": False,
                      "why": "no arguments of a call of it were given (a trace records them)"})
            continue
        try:
            args = rebuild(torch, spec.get("args", []))
            kwargs = {k: rebuild(torch, v) for k, v in (spec.get("kwargs") or {}).items()}
        except Exception as exc:
            rec.emit({"kind": "callees", "op": op, "checked": False,
                      "why": f"its traced arguments cannot be rebuilt on meta: {first_line(str(exc))}"})
            continue
        pending.append((op, args, kwargs, 0))
    checked = set()
    while pending:
        op, args, kwargs, depth = pending.pop(0)
        if op in checked:
            continue
        checked.add(op)
        try:
            seen = callees_of(torch, op, args, kwargs)
        except Exception as exc:
            rec.emit({"kind": "callees", "op": op, "checked": False,
                      "why": f"running it on meta tensors raised {type(exc).__name__}: {first_line(str(exc))}"})
            continue
        callees = [c for c in seen if c != op]
        rec.emit({"kind": "callees", "op": op, "checked": True, "callees": callees})
        for callee in callees:
            emit_op(callee)
            if callee in delegates:
                emit_op(delegates[callee])
            if composite(callee) and callee not in checked:
                if depth + 1 >= CALLEE_DEPTH:
                    rec.emit({"kind": "callees", "op": callee, "checked": False,
                              "why": f"deeper than {CALLEE_DEPTH} calls"})
                    checked.add(callee)
                else:
                    pending.append((callee, list(seen[callee][0]), dict(seen[callee][1]), depth + 1))


def parses(torch, text):
    """None when torch.device(text) parses, else the message it raised."""
    try:
        torch.device(text)
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {first_line(str(exc))}"


def device_name_state(torch, names):
    """What torch calls PrivateUse1 now, and for each candidate name what is
    set up under it: the device module (torch._register_device_module sets
    both the attribute and sys.modules["torch.NAME"], which torch imports by
    name), the Tensor methods generate_methods_for_privateuse1_backend adds,
    and which device strings parse."""
    state = {"privateuse1_name": privateuse1_name(torch), "names": []}
    for name in dict.fromkeys(n for n in names if n):
        attribute = getattr(torch, name, None)
        errors = {text: parses(torch, text) for text in (name, f"{name}:0")}
        state["names"].append({
            "name": name,
            "module_attribute": attribute is not None,
            "module_registered": attribute is not None and sys.modules.get(f"torch.{name}") is attribute,
            "tensor_is": hasattr(torch.Tensor, f"is_{name}"),
            "tensor_method": hasattr(torch.Tensor, name),
            "parses": [text for text, error in errors.items() if error is None],
            "error": next((error for error in errors.values() if error), None),
        })
    return state


def guessed_device(requested, module):
    """The device name a user would try before importing the backend."""
    return choose_device(requested, module, None)[0]


def import_or_record(rec, name, kind):
    rec.emit({"kind": "begin", "api": f"import {name}"})
    try:
        module = importlib.import_module(name)
        rec.emit({"kind": kind, "name": name, "ok": True})
        return module
    except BaseException as exc:
        rec.emit({"kind": kind, "name": name, "ok": False, **exception_fields(exc),
                  "traceback": traceback.format_exc()[-3000:]})
        return None


def disable_autoload(module_name):
    """With a module to measure, torch must not load it during `import torch`
    (backend autoload, torch >= 2.5: a `torch.backends` entry point, as
    torch_tpu 0.2.0 has): then "before" would already hold its registrations
    and device name. The module is imported explicitly next, as users do."""
    if not module_name or "TORCH_DEVICE_BACKEND_AUTOLOAD" in os.environ:
        return False
    os.environ["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"
    return True


class Options:
    """The command line: RESULT_FILE MODULE DEVICE [flag FILE [--args FILE]]."""

    def __init__(self, argv):
        self.result = argv[1]
        self.module, self.requested = argv[2], argv[3]
        flag = argv[4:5]
        self.routes_file = argv[5] if flag in (["--routes"], ["--with-routes"]) and len(argv) > 5 else None
        self.args_file = (argv[7] if flag == ["--routes"] and self.routes_file and argv[6:7] == ["--args"]
                          and len(argv) > 7 else None)
        self.registrations_only = flag == ["--registrations-only"] or (self.routes_file is not None and
                                                                       flag == ["--routes"])


class Before:
    """What the probe reads before the module's import."""

    def __init__(self, rec, torch, options):
        self.registrations = registrations(torch)
        self.fallback = privateuse1_fallback(torch) if options.routes_file else None
        self.guess = guessed_device(options.requested, options.module)
        self.names = None
        if options.module and not options.registrations_only:
            self.names = device_name_state(torch, [self.guess, "privateuseone"])
            probe_device_strings(rec, torch, [self.guess], "device strings before import")


def after_import(rec, torch, options, before, autoload_disabled):
    """Everything the probe asks once the module is imported; the device it
    chose (None with --registrations-only)."""
    after = registrations(torch)
    emit_registrations(rec, before.registrations, after)
    if options.routes_file:
        emit_routes(rec, torch, options.routes_file, before.registrations or {}, after or {}, before.fallback,
                    options.args_file)
    if options.registrations_only:
        rec.emit({"kind": "end"})
        return None
    backend_name = privateuse1_name(torch)
    device, device_source = choose_device(options.requested, options.module, backend_name)
    rec.emit({"kind": "device_name", "guess": before.guess, "before": before.names,
              "after": device_name_state(torch, [before.guess, backend_name, "privateuseone"])})
    rec.emit({"kind": "env", "python": sys.version.split()[0], "executable": sys.executable,
              "torch_version": getattr(torch, "__version__", None), "torch_file": getattr(torch, "__file__", None),
              "features": features(torch), "privateuse1_backend_name": backend_name,
              "autoload_entry_points": autoload_entry_points(), "autoload_disabled": autoload_disabled,
              "device": device,
              "device_source": device_source})
    probe_accelerator(rec, torch)
    probe_device_module(rec, torch, device)
    probe_device_strings(rec, torch, [device, before.guess, "privateuseone"])
    rec.emit({"kind": "end"})
    return device


def main():
    options = Options(sys.argv)
    rec = Recorder(options.result)
    autoload_disabled = disable_autoload(options.module)
    torch = import_or_record(rec, "torch", "torch_import")
    if torch is None:
        return
    before = Before(rec, torch, options)
    if options.module:
        import_or_record(rec, options.module, "module_import")
    after_import(rec, torch, options, before, autoload_disabled)


if __name__ == "__main__":
    main()
    import onramp_exit  # written beside this script by onramp

    onramp_exit.leave()
