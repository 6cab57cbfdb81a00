"""Checks PyTorch's accelerator integration points that the import probe does not.

Usage: python integration.py RESULT_FILE MODULE DEVICE GROUP [--skip POINT]... [--limit POINT SECONDS]... [--lend]
                             [--matrix SECONDS SCRIPT RESULT ARG...]

GROUP is one of
  runtime      with backend autoload off: a small CPU workload timed before the
               backend's import (the baseline of point "harmless"), then the
               import, then one check after another (device guard, generator,
               serialization, distributed, torch.compile, profiler, streams,
               AMP helpers, storage and module methods, test reuse)
  autoload_on  with backend autoload as the environment leaves it: a bare
               `import torch` (which runs the backend's torch.backends entry
               point) and the same CPU workload, timed; where no
               torch.backends entry point is installed (importlib.metadata,
               read before torch is imported), a "no_entry_points" record and
               nothing else: autoload would load nothing
DEVICE may be empty: the name PrivateUse1 has after the import.
--skip POINT leaves a point out (onramp reruns a group without the point that
hung it, so that one hang does not hide the other points).
--limit POINT SECONDS: a check of POINT that has not returned after SECONDS is
recorded as "stopped" and the interpreter exits (a watchdog thread; a hang
that holds the GIL is still ended by onramp's limit on the whole group).
--matrix SECONDS SCRIPT RESULT ARG... (last; runtime group only): first runs
the device-API matrix, `python SCRIPT RESULT ARG...`, in a child forked after
this interpreter's `import torch` (matrix_first.py says when and why), at most
SECONDS, and records how it ended ("matrix"); the device it chose is the
group's where DEVICE is empty.
--lend: a check that has run for a second while the process used at most a
tenth of one core (it waits, it does not work) is recorded as "idle", so that
onramp can lend the process's job slot to other work meanwhile; if that check
returns, a "busy" record follows and the script waits for RESULT_FILE.go
(written by onramp once it holds a slot again) before it goes on. The check's
own time excludes that wait.

The first records name the group and its plan: the points it will check, in
order, so that onramp does not rerun a group whose hung point was its last.

Records go to RESULT_FILE as JSON Lines. Every check is preceded by a "begin"
record naming its point, so that a check that hangs or kills the interpreter
is still named. A check record says what was called ("call"), what came back
("outcome": value, raised, absent: torch's words for nothing registered,
needs_device: cannot be asked without one, not_in_this_torch) and the answer.
Features are detected by looking for them, never by version.
"""
import importlib
import io
import json
import os
import sys
import threading
import time
import traceback

from onramp_errors import exception_fields, first_line, shortened

VALUE_LIMIT = 200
IDLE_AFTER = 0.5   # seconds a check runs before its process's CPU use is sampled
IDLE_WINDOW = 0.5  # seconds sampled
IDLE_SHARE = 0.1   # at most this share of one core over the window: the check waits
STREAM_API = ["Stream", "Event", "current_stream", "synchronize", "memory_allocated",
              "max_memory_allocated", "memory_stats", "empty_cache"]
TEST_MARKERS = ["PrivateUse1TestBase", "instantiate_device_type_tests"]
# What torch (or this script) raises when nothing is registered for the point:
# the check then says "absent" rather than "raised".
ABSENCE_MESSAGES = ["is not linked with support for", "Please register PrivateUse1HooksInterface",
                    "No interface for device", "no Inductor scheduling registered", "has no get_amp_supported_dtype",
                    "torch has no attribute", "device module is not registered",
                    "at the same time for PrivateUse1"]


# The points each group checks, in the order it checks them.
PLANS = {
    "runtime": ["harmless", "generated_methods", "device_guard", "generator", "serialization", "amp",
                "distributed", "profiler", "streams", "test_reuse", "compile"],
    "autoload_on": ["harmless"],
}


class Recorder:
    def __init__(self, path, skip, limits, plan, lend=False):
        self.out = open(path, "w", buffering=1)
        self.skip = set(skip)
        self.limits = limits
        self.plan = [p for p in plan if p not in self.skip]
        self.lock = threading.Lock()
        self.lend = lend
        self.go_path = path + ".go"
        self.lending = threading.Lock()
        self.lent = False

    def emit(self, record):
        with self.lock:
            self.out.write(json.dumps(record, default=repr) + "\n")
            self.out.flush()

    def watchdog(self, point, call):
        """Ends the interpreter once a check of `point` outlives its limit."""
        limit = self.limits.get(point)
        if limit is None:
            return None

        def expire():
            self.emit({"kind": "stopped", "point": point, "call": call, "limit_seconds": limit})
            os._exit(0)

        timer = threading.Timer(limit, expire)
        timer.daemon = True
        timer.start()
        return timer

    def idle_sampler(self, point, call, done):
        """Records "idle" once the check has run IDLE_AFTER seconds and the
        process then used at most IDLE_SHARE of one core for IDLE_WINDOW."""
        def sample():
            if done.wait(IDLE_AFTER):
                return
            cpu = time.process_time()
            if done.wait(IDLE_WINDOW):
                return
            share = (time.process_time() - cpu) / IDLE_WINDOW
            with self.lending:
                if done.is_set() or share > IDLE_SHARE:
                    return
                self.lent = True
                self.emit({"kind": "idle", "point": point, "call": call, "cpu_share": round(share, 3),
                           "after_seconds": IDLE_AFTER + IDLE_WINDOW})

        thread = threading.Thread(target=sample, daemon=True)
        thread.start()

    def take_slot_again(self, point, call):
        """After an "idle" check returned: says so, then waits for onramp's go."""
        self.emit({"kind": "busy", "point": point, "call": call})
        while not os.path.exists(self.go_path):
            time.sleep(0.02)
        os.remove(self.go_path)
        self.lent = False

    def check(self, point, call, thunk, judge=None):
        """Runs thunk; records its value (judge(value) -> True/False says
        whether the answer shows the point provided) or what it raised."""
        if point in self.skip:
            return
        if point not in self.plan:
            raise AssertionError(f"point {point} is not in the group's plan")
        self.emit({"kind": "begin", "point": point, "call": call})
        record = {"kind": "check", "point": point, "call": call}
        timer = self.watchdog(point, call)
        done = threading.Event()
        if self.lend:
            self.idle_sampler(point, call, done)
        start = time.perf_counter()
        try:
            value = thunk()
        except NotInThisTorch as missing:
            record.update(outcome="not_in_this_torch", message=str(missing))
        except NeedsDevice as why:
            record.update(outcome="needs_device", message=str(why))
        except BaseException as exc:
            absent = any(m in str(exc) for m in ABSENCE_MESSAGES)
            record.update(outcome="absent" if absent else "raised", **exception_fields(exc))
        else:
            record.update(outcome="value", value=shortened(safe_repr(value), VALUE_LIMIT * 5))
            if judge is not None:
                record["ok"] = bool(judge(value))
        finally:
            if timer is not None:
                timer.cancel()
            with self.lending:
                done.set()
                lent = self.lent
        record["seconds"] = round(time.perf_counter() - start, 4)
        if lent:
            self.take_slot_again(point, call)
        self.emit(record)


class NeedsDevice(Exception):
    """The check can only be asked where a device is present."""


class NotInThisTorch(Exception):
    """The running torch has no such feature: the check cannot be asked here."""



def safe_repr(value):
    try:
        return shortened(repr(value), VALUE_LIMIT)
    except BaseException as exc:
        return f"<repr raised {type(exc).__name__}>"


def need(obj, *path):
    """obj.a.b..., or NotInThisTorch naming what is missing."""
    for name in path:
        if not hasattr(obj, name):
            raise NotInThisTorch(f"this torch has no {name}")
        obj = getattr(obj, name)
    return obj


def torch_module(name):
    """A torch submodule, or NotInThisTorch where this torch has none."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise NotInThisTorch(f"this torch has no {name} ({type(exc).__name__}: {first_line(str(exc))})") from exc


def privateuse1_name(torch):
    """PrivateUse1's name now; None where this torch cannot say."""
    try:
        return need(torch, "_C", "_get_privateuse1_backend_name")()
    except Exception:
        return None


def cpu_workload(rec, torch, label):
    """A small CPU forward and backward, a DataLoader with pinned memory and a
    torch.load to the CPU: what every CPU-only user runs beside an installed
    backend. Timed; each step is its own check so that a stall is named."""
    def forward_backward():
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))
        data = torch.randn(64, 32)
        start = time.perf_counter()
        for _ in range(5):
            model.zero_grad()
            model(data).sum().backward()
        return round(time.perf_counter() - start, 4)

    def data_loader():
        data = torch.utils.data.TensorDataset(torch.randn(64, 8))
        start = time.perf_counter()
        for _ in torch.utils.data.DataLoader(data, batch_size=16, pin_memory=True):
            pass
        return round(time.perf_counter() - start, 4)

    def load_cpu():
        buffer = io.BytesIO()
        torch.save(torch.arange(1000), buffer)
        buffer.seek(0)
        start = time.perf_counter()
        torch.load(buffer, map_location="cpu")
        return round(time.perf_counter() - start, 4)

    for step, thunk in (("forward_backward", forward_backward), ("data_loader_pinned", data_loader),
                        ("load_map_location_cpu", load_cpu)):
        rec.check("harmless", f"{label}: {step}", thunk)


def distributed_state(torch):
    dist = getattr(torch, "distributed", None)
    if dist is None or not getattr(dist, "is_available", lambda: False)():
        return None
    backend = getattr(dist, "Backend", None)
    return {"backends": list(getattr(backend, "backend_list", []) or []),
            "device_map": dict(getattr(backend, "default_device_backend_map", {}) or {})}


def dynamo_backends(torch):
    try:
        dynamo = importlib.import_module("torch._dynamo")
        return sorted(dynamo.list_backends(exclude_tags=()))
    except Exception:
        return None


def check_guard(rec, torch, device):
    accelerator = getattr(torch, "accelerator", None)
    rec.check("device_guard", "torch.accelerator.current_device_index()",
              lambda: need(torch, "accelerator", "current_device_index")(), lambda v: isinstance(v, int))
    if accelerator is None:
        return
    rec.check("device_guard", "torch.accelerator.set_device_index(0) with device_count() > 0",
              lambda: set_first_device(torch), lambda v: v == 0)


def set_first_device(torch):
    if torch.accelerator.device_count() == 0:
        raise NeedsDevice("device_count() is 0: there is no device index to set")
    torch.accelerator.set_device_index(0)
    return torch.accelerator.current_device_index()


def check_generator(rec, torch, device):
    rec.check("generator", f'torch.Generator(device="{device}").initial_seed()',
              lambda: torch.Generator(device=device).initial_seed(), lambda v: isinstance(v, int))


def check_serialization(rec, torch, device):
    def round_trip():
        buffer = io.BytesIO()
        torch.save(torch.arange(4.0), buffer)
        buffer.seek(0)
        loaded = torch.load(buffer, map_location=device)
        return str(loaded.device)
    rec.check("serialization", f'torch.load(torch.save(cpu tensor), map_location="{device}").device',
              round_trip, lambda v: v.split(":")[0] == device)


def check_amp(rec, torch, device):
    module = getattr(torch, device, None)
    rec.check("amp", f"torch.{device}.get_amp_supported_dtype()",
              lambda: amp_dtypes(module, device), lambda v: bool(v))
    rec.check("amp", f'torch.amp.is_autocast_available("{device}")',
              lambda: need(torch, "amp", "is_autocast_available")(device))


def amp_dtypes(module, device):
    fn = getattr(module, "get_amp_supported_dtype", None)
    if fn is None:
        raise LookupError(f"torch.{device} has no get_amp_supported_dtype")
    return [str(d) for d in fn()]


def check_distributed(rec, torch, device, before):
    def added():
        if before is None:
            raise NotInThisTorch("torch.distributed is not available in this torch")
        after = distributed_state(torch)
        new = sorted(set(after["backends"]) - set(before["backends"]))
        mapped = after["device_map"].get(device)
        return {"added_backends": new, "device_backend": mapped}
    rec.check("distributed", f"torch.distributed.Backend.backend_list and default_device_backend_map[{device!r}] "
              "before and after the import", added,
              lambda v: v["device_backend"] is not None and v["device_backend"] in v["added_backends"] + ["gloo"])


def check_compile(rec, torch, device, backends_before):
    def dynamo_added():
        if backends_before is None:
            raise NotInThisTorch("this torch has no torch._dynamo")
        return sorted(set(dynamo_backends(torch) or []) - set(backends_before))
    rec.check("compile", "torch._dynamo.list_backends(exclude_tags=()) added by the import", dynamo_added)

    def interface():
        get = need(torch_module("torch._dynamo.device_interface"), "get_interface_for_device")
        return get(device).__name__
    rec.check("compile", f'torch._dynamo.device_interface.get_interface_for_device("{device}")', interface, bool)

    def scheduling():
        common = torch_module("torch._inductor.codegen.common")
        found = need(common, "get_scheduling_for_device")(device)
        if found is None:
            raise LookupError(f"no Inductor scheduling registered for {device!r}")
        return found
    rec.check("compile", f'torch._inductor.codegen.common.get_scheduling_for_device("{device}")', scheduling,
              lambda v: v is not None)


def check_profiler(rec, torch, device):
    def activities():
        supported = need(torch, "_C", "_autograd", "_supported_activities")()
        return sorted(str(a) for a in supported)
    # Informational: torch lists the PrivateUse1 activity once the backend is renamed, stubs or not.
    rec.check("profiler", "torch._C._autograd._supported_activities()", activities)
    rec.check("profiler", f'torch.autograd.profiler.profile(use_device="{device}") around a CPU op: PrivateUse1 '
              "profiler stubs registered (no \"used in profiler but not enabled\" on stderr)",
              lambda: legacy_profile(torch, device), lambda v: v.startswith("stubs registered"))


def legacy_profile(torch, device):
    """Runs the legacy profiler with the device; torch reports missing
    PrivateUse1 stubs only on stderr (a RecordFunction callback warning), so
    fd 2 is read for the duration."""
    import tempfile
    need(torch, "autograd", "profiler", "profile")
    with tempfile.TemporaryFile(mode="w+b") as captured:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(captured.fileno(), 2)
        try:
            with torch.autograd.profiler.profile(use_device=device):
                torch.ones(2) + 1
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        text = captured.read().decode("utf-8", "replace")
    for line in text.splitlines():
        if "used in profiler but not enabled" in line:
            return "stubs not registered: " + shortened(line.strip(), 300)
    return "stubs registered: the profile ran without the missing-stubs warning"


def check_streams(rec, torch, device):
    module = getattr(torch, device, None)
    for name in STREAM_API:
        rec.check("streams", f"hasattr(torch.{device}, {name!r})", lambda n=name: present(module, device, n), bool)


def present(module, device, name):
    if module is None:
        raise LookupError(f"torch has no attribute {device!r}")
    return hasattr(module, name)


def check_methods(rec, torch, device):
    storage = getattr(torch, "TypedStorage", None)
    for owner, name, obj in (("torch.TypedStorage", device, storage),
                             ("torch.TypedStorage", f"is_{device}", storage),
                             ("torch.nn.Module", device, torch.nn.Module)):
        rec.check("generated_methods", f"hasattr({owner}, {name!r})",
                  lambda o=obj, n=name: o is not None and hasattr(o, n), bool)


def check_test_reuse(rec, module_name):
    def scan():
        module = sys.modules.get(module_name)
        root = os.path.dirname(getattr(module, "__file__", "") or "")
        if not root:
            raise LookupError(f"{module_name} has no __file__ to read")
        return find_markers(root)
    rec.check("test_reuse", f"files of {module_name}'s package read for {' or '.join(TEST_MARKERS)}", scan, bool)


def find_markers(root, limit=200):
    """path:line of the first lines naming a device-generic test base (Python files only)."""
    found = []
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".py") or len(found) >= 3:
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        if any(marker in line for marker in TEST_MARKERS):
                            found.append(f"{path}:{number}")
                            break
            except OSError:
                continue
            limit -= 1
            if limit == 0:
                return found
    return found


def import_or_record(rec, name, kind):
    rec.emit({"kind": "begin", "point": "", "call": f"import {name}"})
    start = time.perf_counter()
    try:
        module = importlib.import_module(name)
        rec.emit({"kind": kind, "name": name, "ok": True, "seconds": round(time.perf_counter() - start, 4)})
        return module
    except BaseException as exc:
        # torch's autoload wraps what the entry point raised: the cause is what the backend said.
        rec.emit({"kind": kind, "name": name, "ok": False, **exception_fields(exc),
                  "traceback": traceback.format_exc()[-2000:], "seconds": round(time.perf_counter() - start, 4)})
        return None


def context(rec, torch, device, group):
    count = None
    accelerator = getattr(torch, "accelerator", None)
    try:
        count = accelerator.device_count() if accelerator is not None else None
    except Exception:
        count = None
    rec.emit({"kind": "context", "group": group, "torch_version": getattr(torch, "__version__", None),
              "device": device, "privateuse1_name": privateuse1_name(torch), "device_count": count,
              "autoload_env": os.environ.get("TORCH_DEVICE_BACKEND_AUTOLOAD")})


class BeforeImport:
    """What the runtime group reads with torch imported and the module not:
    the CPU work's baseline (point harmless), torch.distributed's backends
    and torch._dynamo's list of compilers."""

    def __init__(self, rec, torch):
        cpu_workload(rec, torch, "autoload off, before the import")
        self.distributed = distributed_state(torch)
        self.compilers = dynamo_backends(torch) if "compile" not in rec.skip else None


def checks_after_import(rec, torch, module_name, device, before):
    context(rec, torch, device, "runtime")
    check_methods(rec, torch, device)
    check_guard(rec, torch, device)
    check_generator(rec, torch, device)
    check_serialization(rec, torch, device)
    check_amp(rec, torch, device)
    check_distributed(rec, torch, device, before.distributed)
    check_profiler(rec, torch, device)
    check_streams(rec, torch, device)
    check_test_reuse(rec, module_name)
    check_compile(rec, torch, device, before.compilers)


def run_runtime(rec, module_name, requested, matrix=None):
    autoload_before = os.environ.get("TORCH_DEVICE_BACKEND_AUTOLOAD")
    os.environ["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"
    torch = import_or_record(rec, "torch", "torch_import")
    if matrix is not None:
        import matrix_first  # written beside this script by onramp

        limit, argv = matrix
        rec.emit({"kind": "begin", "point": "", "call": "the device-API matrix (api_probe.py)"})
        matrix_first.run(rec, argv, limit, autoload_before, torch is not None)
        requested = requested or matrix_first.device_chosen(argv[1])
    if torch is None:
        return
    before = BeforeImport(rec, torch)
    if module_name and import_or_record(rec, module_name, "module_import") is None:
        return
    checks_after_import(rec, torch, module_name, requested or privateuse1_name(torch) or "privateuseone", before)


def torch_backends_entry_points():
    """The torch.backends entry points, read as torch's autoload reads them;
    None where they cannot be read."""
    try:
        from importlib.metadata import entry_points
        found = (entry_points(group="torch.backends") if sys.version_info >= (3, 10)
                 else entry_points().get("torch.backends", ()))
        return sorted(f"{ep.name} = {ep.value}" for ep in found)
    except Exception:
        return None


def run_autoload_on(rec, requested):
    if torch_backends_entry_points() == []:
        # Autoload loads the torch.backends entry points and nothing else: with
        # none installed, `import torch` with autoload on runs what the runtime
        # group's import with autoload off runs, so it is not run twice.
        rec.emit({"kind": "no_entry_points", "group": "torch.backends"})
        return
    start = time.perf_counter()
    torch = import_or_record(rec, "torch", "torch_import")
    if torch is None:
        return
    rec.emit({"kind": "timing", "what": "import torch (autoload as set)",
              "seconds": round(time.perf_counter() - start, 4)})
    device = requested or privateuse1_name(torch) or "privateuseone"
    context(rec, torch, device, "autoload_on")
    cpu_workload(rec, torch, "autoload on")


def open_group(path, group, skip, limits, lend=False):
    """The group's recorder, its first records written: the group and its plan."""
    rec = Recorder(path, skip, limits, PLANS.get(group, []), lend)
    rec.emit({"kind": "group", "group": group, "skipped": skip})
    rec.emit({"kind": "plan", "points": rec.plan, "limits": limits})
    return rec


def limits_of(args):
    """--limit POINT SECONDS, each."""
    return {args[i + 1]: float(args[i + 2]) for i, a in enumerate(args) if a == "--limit" and i + 2 < len(args)}


def matrix_of(args):
    """--matrix SECONDS SCRIPT RESULT ARG...: the rest of the command line, taken off args."""
    if "--matrix" not in args:
        return None
    at = args.index("--matrix")
    rest = args[at + 1:]
    del args[at:]
    return float(rest[0]), rest[1:]


def main():
    args = sys.argv[1:]
    matrix = matrix_of(args)
    skip = [args[i + 1] for i, a in enumerate(args) if a == "--skip" and i + 1 < len(args)]
    limits = limits_of(args)
    module_name, requested, group = args[1], args[2], args[3]
    rec = open_group(args[0], group, skip, limits, "--lend" in args)
    if group == "runtime":
        run_runtime(rec, module_name, requested, matrix)
    elif group == "autoload_on":
        run_autoload_on(rec, requested)
    rec.emit({"kind": "end"})


if __name__ == "__main__":
    main()
    import onramp_exit  # written beside this script by onramp

    onramp_exit.leave()
