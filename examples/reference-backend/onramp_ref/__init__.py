"""onramp_ref: a small PyTorch PrivateUse1 backend whose device memory is host memory.

Importing it registers the backend's allocator, device guard and ATen kernels
with the dispatcher, names the PrivateUse1 device "ref" where torch allows it,
and registers the device's runtime module (see device.py).
"""
import warnings

import torch

from . import _C  # noqa: F401  Loading the extension is what registers the kernels.
from . import device, integration, variants

__version__ = "0.1.0"


def _name_the_device() -> str:
    rename = getattr(torch.utils, "rename_privateuse1_backend", None)
    if rename is None:
        # Before torch 2.1 a PrivateUse1 backend cannot be renamed: its tensors
        # live on "privateuseone" and torch.device("ref") fails to parse.
        return "privateuseone"
    # The shape of a real backend's loader that renames only when it finds a device.
    if variants.switched_on("ONRAMP_REF_RENAME_ONLY_WITH_DEVICE") and device._configured_count() == 0:
        return "privateuseone"
    rename("ref")
    return "ref"


def _warn_without_tcmalloc() -> None:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            if "tcmalloc" in maps.read():
                return
    except OSError:
        return
    warnings.warn(
        "tcmalloc is not loaded: every ref tensor is allocated with the system malloc and "
        "host performance may be degraded. Preload libtcmalloc (LD_PRELOAD) to use it.",
        UserWarning,
        stacklevel=3,
    )


variants.register()
DEVICE_TYPE = _name_the_device()
if hasattr(torch, "_register_device_module") and not hasattr(torch, DEVICE_TYPE):
    torch._register_device_module(DEVICE_TYPE, device)
if integration.ENABLED:
    integration.provide(DEVICE_TYPE, device)
_warn_without_tcmalloc()
