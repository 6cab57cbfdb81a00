"""The runtime module torch exposes for the backend's device type.

torch.ref on a torch that can name PrivateUse1 backends, torch.privateuseone
on one that cannot (1.13). Like TorchTPU's, its availability queries belong to
the framework: user code is told to ask torch.accelerator instead.

The number of devices comes from ONRAMP_REF_DEVICE_COUNT (default 1, so that
the kernels run). 0 shows, on purpose, what a machine without the device
answers: torch.accelerator.is_available() False and device_count() 0.
"""
import os
import sys

_REFUSAL = (
    "{name} is internal to onramp_ref and can only be called by the PyTorch framework. "
    "Use torch.accelerator.{name} instead."
)


def _called_by_framework() -> bool:
    # Frames up from here: _refuse_users, is_available or device_count, its caller.
    caller = sys._getframe(3).f_globals.get("__name__", "")
    return caller == "torch" or caller.startswith("torch.")


def _refuse_users(name: str) -> None:
    if not _called_by_framework():
        raise RuntimeError(_REFUSAL.format(name=name))


def _configured_count() -> int:
    try:
        return max(0, int(os.environ.get("ONRAMP_REF_DEVICE_COUNT", "1")))
    except ValueError:
        return 1


def is_available() -> bool:
    _refuse_users("is_available")
    return _configured_count() > 0


def device_count() -> int:
    _refuse_users("device_count")
    return _configured_count()
