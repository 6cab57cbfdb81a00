"""The runtime module torch exposes for the backend's device type.

torch.ref on a torch that can name PrivateUse1 backends, torch.privateuseone
on one that cannot (1.13). Like TorchTPU's, its availability queries belong to
the framework: user code is told to ask torch.accelerator instead.
"""
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


def is_available() -> bool:
    _refuse_users("is_available")
    return True


def device_count() -> int:
    _refuse_users("device_count")
    return 1
