"""Asks torch and a backend module what they answer without the device.

Usage: python api_probe.py RESULT_FILE MODULE DEVICE [--registrations-only | --routes OPS_FILE |
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
            record.update(status="raised", type=type(exc).__name__, message=first_lines(str(exc)))
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
    return text if len(text) <= VALUE_REPR_LIMIT else text[:VALUE_REPR_LIMIT - 3] + "..."


def rendered(value):
    """{"value": repr} or, when repr raises, {"repr_type", "repr_message"}."""
    try:
        return {"value": short_repr(value)}
    except BaseException as exc:
        return {"value": None, "repr_type": type(exc).__name__, "repr_message": first_lines(str(exc))}


def first_lines(text, limit=1000):
    return text if len(text) <= limit else text[:limit - 3] + "..."


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


def probe_device_strings(rec, torch, names, group="device strings"):
    for name in dict.fromkeys(names):
        for source in (f'torch.device("{name}")', f'torch.device("{name}:0")',
                       f'torch.empty(1, device="{name}")', f'torch.randn((4,4), device="{name}")'):
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
            found[key] = {"error": f"{type(exc).__name__}: {first_lines(str(exc), 200)}"}
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


def emit_routes(rec, torch, ops_file, before, after, fallback_before):
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
    with open(ops_file) as f:
        ops = [line.strip() for line in f if line.strip()]
    for op in dict.fromkeys(ops):
        qualified = op if "::" in op else "aten::" + op
        line = dump_line(torch, op)
        rec.emit({"kind": "op", "op": op, "known": line is not None, "own": qualified in added,
                  "dump": line or ""})


def parses(torch, text):
    """None when torch.device(text) parses, else the message it raised."""
    try:
        torch.device(text)
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {first_lines(str(exc), 300)}"


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
        rec.emit({"kind": kind, "name": name, "ok": False, "type": type(exc).__name__,
                  "message": first_lines(str(exc)), "traceback": traceback.format_exc()[-3000:]})
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


def main():
    rec = Recorder(sys.argv[1])
    module_name, requested_device = sys.argv[2], sys.argv[3]
    routes_flag = sys.argv[4:5]
    routes_file = sys.argv[5] if routes_flag in (["--routes"], ["--with-routes"]) and len(sys.argv) > 5 else None
    registrations_only = routes_flag == ["--registrations-only"] or (routes_file is not None and
                                                                     routes_flag == ["--routes"])
    autoload_disabled = disable_autoload(module_name)
    torch = import_or_record(rec, "torch", "torch_import")
    if torch is None:
        return
    before = registrations(torch)
    fallback_before = privateuse1_fallback(torch) if routes_file else None
    guess = guessed_device(requested_device, module_name)
    names_before = None
    if module_name and not registrations_only:
        names_before = device_name_state(torch, [guess, "privateuseone"])
        probe_device_strings(rec, torch, [guess], "device strings before import")
    if module_name:
        import_or_record(rec, module_name, "module_import")
    after = registrations(torch)
    emit_registrations(rec, before, after)
    if routes_file:
        emit_routes(rec, torch, routes_file, before or {}, after or {}, fallback_before)
    if registrations_only:
        rec.emit({"kind": "end"})
        return
    backend_name = privateuse1_name(torch)
    device, device_source = choose_device(requested_device, module_name, backend_name)
    rec.emit({"kind": "device_name", "guess": guess, "before": names_before,
              "after": device_name_state(torch, [guess, backend_name, "privateuseone"])})
    rec.emit({"kind": "env", "python": sys.version.split()[0], "executable": sys.executable,
              "torch_version": getattr(torch, "__version__", None), "torch_file": getattr(torch, "__file__", None),
              "features": features(torch), "privateuse1_backend_name": backend_name,
              "autoload_entry_points": autoload_entry_points(), "autoload_disabled": autoload_disabled,
              "device": device,
              "device_source": device_source})
    probe_accelerator(rec, torch)
    probe_device_module(rec, torch, device)
    probe_device_strings(rec, torch, [device, guess, "privateuseone"])
    rec.emit({"kind": "end"})


if __name__ == "__main__":
    main()
