"""Variants of the backend's routes, each behind an environment switch read at import.

One build serves every variant: the registrations are made at run time with
torch.library, so that a tool that asks the dispatcher how each op reaches
PrivateUse1 has a real example of each route. All are off by default.

ONRAMP_REF_OUT_ONLY=1        sin is served only through its out= kernel: the
                             backend registers sin.out, not sin (sin's
                             structured delegate is sin.out, so torch's
                             default backend kernel for sin calls it).
ONRAMP_REF_BOXED_FALLBACK=1  a key-wide boxed fallback for PrivateUse1: every
                             op without a kernel runs on the CPU (its tensors
                             copied there, its results and the arguments it
                             writes copied back).
(ONRAMP_REF_RENAME_ONLY_WITH_DEVICE is read by __init__.py.)
"""
import os

import torch


def switched_on(name: str) -> bool:
    return os.environ.get(name, "0") not in ("", "0")


def _to(value, device):
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(_to(v, device) for v in value)
    return value


def _device_of(args):
    for a in args:
        if isinstance(a, torch.Tensor) and a.device.type not in ("cpu", "meta"):
            return a.device
        if isinstance(a, (list, tuple)):
            found = _device_of(a)
            if found is not None:
                return found
    return None


def _sin_out(self, *, out):
    result = torch.sin(self.cpu())
    out.resize_(result.shape)
    out.copy_(result)
    return out


def _run_on_cpu(op, *args, **kwargs):
    """The boxed fallback: run op on CPU copies of its tensors; the arguments
    it writes (in-place and out=) get the results copied back."""
    device = _device_of(list(args) + list(kwargs.values()))
    cpu_args = _to(args, "cpu")
    cpu_kwargs = {k: _to(v, "cpu") for k, v in kwargs.items()}
    result = op(*cpu_args, **cpu_kwargs)
    if device is None:
        return result
    written = {}
    for i, argument in enumerate(op._schema.arguments):
        if argument.alias_info is None or not argument.alias_info.is_write:
            continue
        positional = not argument.kwarg_only and i < len(args)
        original = args[i] if positional else kwargs.get(argument.name)
        copy = cpu_args[i] if positional else cpu_kwargs.get(argument.name)
        if isinstance(original, torch.Tensor) and isinstance(copy, torch.Tensor):
            if original.shape != copy.shape:
                original.resize_(copy.shape)
            original.copy_(copy)
            written[id(copy)] = original

    def back(value):
        if isinstance(value, torch.Tensor):
            return written[id(value)] if id(value) in written else value.to(device)
        if isinstance(value, (list, tuple)):
            return type(value)(back(v) for v in value)
        return value

    return back(result)


# Kept for the life of the process: a Library deregisters its kernels when collected.
_LIBRARIES = []


def register() -> None:
    if switched_on("ONRAMP_REF_OUT_ONLY"):
        lib = torch.library.Library("aten", "IMPL")
        lib.impl("sin.out", _sin_out, "PrivateUse1")
        _LIBRARIES.append(lib)
    if switched_on("ONRAMP_REF_BOXED_FALLBACK") and hasattr(torch.library.Library, "fallback"):
        lib = torch.library.Library("_", "IMPL")
        lib.fallback(_run_on_cpu, "PrivateUse1")
        _LIBRARIES.append(lib)
