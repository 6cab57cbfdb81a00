"""onramp port trace: record every ATen op overload a model calls.

Run by onramp in its sandbox as `python3 trace.py RESULT.jsonl REQUEST.json`. It builds the
model (a torchvision model, no weights, or a user's function), runs it on the
CPU or the meta device under a TorchDispatchMode that counts each op overload
reaching the backend (after autograd and composite decompositions), forward
and backward apart, with the arguments of each op's first call (shapes,
strides, dtypes and scalars: enough to run the op again on meta tensors),
and writes one JSON document as the one line of
RESULT.jsonl when the model is done (never to stdout, which the model's code
writes to). Each phase (build, forward, backward) has its own time limit
(the request's "phase_timeout", seconds): a phase that runs past it stops
with a PhaseTimeout error naming it. The limit is a SIGALRM timer, so it
stops Python code (a sleep, a loop) and waits for an ATen call already
running to return; the sandbox's wall-clock limit remains the backstop.

A CompositeImplicitAutograd op (scaled_dot_product_attention) decomposes in
C++ before the recorder sees anything, and on the CPU it may choose the CPU's
own kernel (_scaled_dot_product_flash_attention_for_cpu), which a device never
meets. So the forward also keeps the torch builtins being called from Python
(a profile hook: CallStack); an op whose first call ran inside a builtin that
names a composite ATen op records it under "within", with the arguments of
that call rebuilt by name from the op's own (torchgen's ops share argument
names). onramp decides from the ATen schema which ops are the CPU's own
(port/device_generic.h) and asks the composite in their place.
"""

import contextlib
import functools
import importlib.util
import json
import os
import signal
import sys
import time
import traceback

# Models whose default input is not 3x224x224.
DEFAULT_INPUT_SHAPES = {"inception_v3": [1, 3, 299, 299], "googlenet": [1, 3, 224, 224]}


class BadRequest(Exception):
    """The request names something that does not exist: onramp exits 2."""


class PhaseTimeout(BaseException):
    """A phase ran past its limit (a BaseException: the model's own
    `except Exception` does not swallow it)."""

    def __init__(self, phase, seconds):
        super().__init__(f"the {phase} phase ran past its limit of {seconds:g} s (--phase-timeout)")
        self.phase = phase


@contextlib.contextmanager
def phase_limit(request, phase):
    seconds = request.get("phase_timeout")
    if not isinstance(seconds, (int, float)) or seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise PhaseTimeout(phase, seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


ARG_LIMIT = 64  # elements of a list argument kept; a longer one is not rebuilt


def arg_spec(value):
    """An op argument as JSON that api_probe.py can rebuild on meta tensors."""
    import torch

    if isinstance(value, torch.Tensor):
        spec = {"tensor": list(value.shape), "dtype": str(value.dtype).replace("torch.", "")}
        if value.layout == torch.strided and not value.is_contiguous():
            spec["stride"] = list(value.stride())
        if value.layout != torch.strided:
            return {"unsupported": "Tensor (" + str(value.layout) + ")"}
        return spec
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else {"unsupported": "float " + repr(value)}
    if isinstance(value, (list, tuple)):
        if len(value) > ARG_LIMIT:
            return {"unsupported": "a list of " + str(len(value))}
        return [arg_spec(v) for v in value]
    if isinstance(value, torch.dtype):
        return {"dtype": str(value).replace("torch.", "")}
    if isinstance(value, torch.device):
        return {"device": str(value)}
    if isinstance(value, torch.memory_format):
        return {"memory_format": str(value).replace("torch.", "")}
    if isinstance(value, torch.layout):
        return {"layout": str(value).replace("torch.", "")}
    return {"unsupported": type(value).__name__}


def op_name(func):
    """aten::add.Tensor -> add.Tensor; aten::relu.default -> relu; other namespaces kept."""
    schema = func._schema
    namespace, _, name = schema.name.partition("::")
    overload = func._overloadname
    full = name if overload in ("default", "") else name + "." + overload
    return full if namespace == "aten" else namespace + "::" + full


class CallStack:
    """The builtins being called from Python, innermost last (sys.setprofile's
    c_call and c_return events); a composite's C++ kernel runs while its
    builtin is on the stack."""

    def __init__(self):
        self.calls = []

    def hook(self, frame, event, arg):
        if event == "c_call":
            self.calls.append(getattr(arg, "__name__", None))
        elif event in ("c_return", "c_exception") and self.calls:
            self.calls.pop()

    @contextlib.contextmanager
    def active(self):
        previous = sys.getprofile()
        sys.setprofile(self.hook)
        try:
            yield
        finally:
            sys.setprofile(previous)
            self.calls.clear()

    def innermost(self):
        return self.calls[-1] if self.calls else None


def named_arguments(arguments, args, kwargs):
    """{name: value} of one call, from its schema's arguments (each with .name
    and .kwarg_only)."""
    positional = [a.name for a in arguments if not a.kwarg_only]
    named = dict(zip(positional, args))
    named.update(kwargs)
    return named


def call_by_name(arguments, named):
    """The keyword arguments of a call of a schema (its arguments) made from
    another call's values of the same names; None when a required argument
    has no value of its name. Defaults stay out: the op supplies them."""
    call = {}
    for a in arguments:
        if a.name in named:
            call[a.name] = named[a.name]
        elif not a.has_default_value():
            return None
    return call


def composite_call(torch, builtin, func, args, kwargs):
    """{"call": OP, "args": SPEC} for an op run inside the builtin `builtin`
    when it names a CompositeImplicitAutograd ATen op other than func's own;
    SPEC is None where no overload's arguments can be rebuilt from func's
    (the first composite overload is named then)."""
    if not builtin or builtin == func._schema.name.partition("::")[2]:
        return None
    try:
        packet = getattr(torch.ops.aten, builtin)
        overloads = packet.overloads()
    except (AttributeError, RuntimeError):
        return None
    has = getattr(torch._C, "_dispatch_has_kernel_for_dispatch_key", None)
    if has is None:
        return None
    named = named_arguments(func._schema.arguments, args, kwargs)
    found = None
    for overload in overloads:
        full = builtin if overload in ("default", "") else builtin + "." + overload
        if not has("aten::" + full, "CompositeImplicitAutograd"):
            continue
        call = call_by_name(getattr(packet, overload)._schema.arguments, named)
        if call is not None:
            return {"call": full, "args": {"args": [], "kwargs": {k: arg_spec(v) for k, v in call.items()}}}
        found = found or {"call": full, "args": None}
    return found


def make_recorder(stack=None):
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpRecorder(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.phase = "forward"
            self.counts = {"forward": {}, "backward": {}}
            self.args = {}  # op -> the arguments of its first call
            self.within = {}  # op -> the composite call its first call ran inside (composite_call)

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            table = self.counts[self.phase]
            name = op_name(func)
            table[name] = table.get(name, 0) + 1
            if name not in self.args:
                self.args[name] = {"args": arg_spec(list(args)),
                                   "kwargs": {k: arg_spec(v) for k, v in (kwargs or {}).items()}}
                outer = composite_call(torch, stack.innermost(), func, args, kwargs or {}) if stack else None
                if outer:
                    self.within[name] = outer
            return func(*args, **(kwargs or {}))

    return OpRecorder()


def torchvision_model(name, request):
    import torch
    import torchvision

    if hasattr(torchvision.models, "get_model"):
        build = functools.partial(torchvision.models.get_model, name)
        try:
            known = name in torchvision.models.list_models()
        except Exception:
            known = False
    else:
        known = callable(getattr(torchvision.models, name, None)) and not name[0].isupper()
        build = getattr(torchvision.models, name, None)
    if not known:
        raise BadRequest("unknown model torchvision:" + name + " (torchvision " + torchvision.__version__ + ")")
    model = build(weights=None)
    shape = request.get("input_shape") or DEFAULT_INPUT_SHAPES.get(name, [1, 3, 224, 224])
    return model, (torch.randn(*shape),)


def script_function(path, func_name):
    if not os.path.isfile(path):
        raise BadRequest(path + ": no such file")
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("onramp_user_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    func = getattr(module, func_name, None)
    if not callable(func):
        raise BadRequest(path + ": no function " + func_name)
    return func


def tensors_in(value):
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    if hasattr(value, "_fields"):  # named tuples such as InceptionOutputs
        return [t for v in value for t in tensors_in(v)]
    return []


def to_device(value, device):
    import torch

    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(to_device(v, device) for v in value)
    return value


def run_backward(recorder, outputs, result, request):
    import torch

    roots = [t for t in tensors_in(outputs) if t.requires_grad]
    if not roots:
        result["notes"].append("no output requires grad: nothing to run backward on")
        return
    grads = [torch.ones_like(t) for t in roots]  # made outside the recorder: not the model's ops
    recorder.phase = "backward"
    start = time.perf_counter()
    with phase_limit(request, "backward"), recorder:
        torch.autograd.backward(roots, grads)
    result["seconds"]["backward"] = time.perf_counter() - start


def build(request, result):
    """(callable, inputs) for the model; inputs None when the user's function ran itself."""
    start = time.perf_counter()
    if request.get("model"):
        kind, _, name = request["model"].partition(":")
        if kind != "torchvision" or not name:
            raise BadRequest("unknown model " + request["model"] + " (use torchvision:NAME or --script FILE:FUNC)")
        with phase_limit(request, "build"):
            model, inputs = torchvision_model(name, request)
    else:
        func = script_function(request["script"]["file"], request["script"]["function"])
        with phase_limit(request, "build"):
            made = func()
        if not (isinstance(made, tuple) and len(made) == 2 and callable(made[0])):
            raise BadRequest(request["script"]["file"] + ": " + request["script"]["function"]
                             + "() must return (model, inputs)")
        model, inputs = made
        if not isinstance(inputs, (tuple, list)):
            inputs = (inputs,)
    result["seconds"]["build"] = time.perf_counter() - start
    if hasattr(model, "parameters"):
        result["parameters"] = sum(p.numel() for p in model.parameters())
    if hasattr(model, "eval") and not request.get("backward"):
        model.eval()
    device = request.get("device", "cpu")
    if device != "cpu" and hasattr(model, "to"):
        model = model.to(device)
        inputs = to_device(inputs, device)
    result["input_shapes"] = [list(t.shape) for t in tensors_in(inputs)]
    return model, inputs


def trace(request, result):
    import torch

    result["torch"] = torch.__version__
    try:
        import torchvision

        result["torchvision"] = torchvision.__version__
    except ImportError:
        result["torchvision"] = None
    torch.manual_seed(0)
    model, inputs = build(request, result)
    stack = CallStack()
    recorder = make_recorder(stack)
    result["phases"] = recorder.counts
    result["args"] = recorder.args
    result["within"] = recorder.within
    start = time.perf_counter()
    grad = torch.enable_grad() if request.get("backward") else torch.no_grad()
    with phase_limit(request, "forward"), grad, recorder, stack.active():
        outputs = model(*inputs)
    result["seconds"]["forward"] = time.perf_counter() - start
    if request.get("backward"):
        run_backward(recorder, outputs, result, request)


def main():
    with open(sys.argv[2], encoding="utf-8") as f:
        request = json.load(f)
    result = {"error": None, "phases": {"forward": {}, "backward": {}}, "seconds": {}, "notes": [],
              "parameters": None, "input_shapes": [], "python": sys.version.split()[0]}
    status = 0
    try:
        trace(request, result)
    except PhaseTimeout as e:
        result["error"] = {"kind": "PhaseTimeout", "phase": e.phase, "message": str(e)}
    except BadRequest as e:
        result["error"] = {"kind": "BadRequest", "message": str(e)}
        status = 2
    except BaseException as e:  # the model's own failure is a result, not a crash
        lines = traceback.format_exception_only(type(e), e)
        result["error"] = {"kind": type(e).__name__, "message": "".join(lines).strip().splitlines()[-1][:500]}
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write(json.dumps(result, sort_keys=True) + "\n")
    sys.exit(status)


if __name__ == "__main__":
    main()
