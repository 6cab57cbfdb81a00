"""Integration points the ref backend provides only with ONRAMP_REF_INTEGRATION=1.

Off by default, so that what onramp reports for the backend stays what it was:
each of these changes the device-API matrix or the device name table. On, the
import also

- generates torch.Tensor.ref / is_ref, the TypedStorage methods and
  nn.Module.ref (torch.utils.generate_methods_for_privateuse1_backend);
- gives torch.ref the device-module functions PyTorch's guide lists:
  device (the context manager torch.load enters), current_device, set_device,
  manual_seed(_all), get_rng_state, set_rng_state,
  initial_seed, get_amp_supported_dtype, is_autocast_enabled,
  get_autocast_dtype, synchronize, memory_allocated, max_memory_allocated,
  memory_stats, empty_cache.

The wheel's autoload entry point (torch.backends) is chosen when the wheel is
built: setup.py adds it with ONRAMP_REF_INTEGRATION=1 in the environment.
"""
import os

import torch

ENABLED = os.environ.get("ONRAMP_REF_INTEGRATION") == "1"


class _Device:
    """torch.ref.device(index): the context manager torch enters to move
    storages to the device (torch.load with map_location="ref"); with one
    device there is nothing to switch."""

    def __init__(self, device):
        self.idx = torch.device(device).index if isinstance(device, (str, torch.device)) else device

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _current_device() -> int:
    return 0


def _set_device(index) -> None:
    if int(index) != 0:
        raise RuntimeError(f"ref has one device; index {index} is out of range")


def _get_rng_state(device="ref"):
    # The kernels draw from the CPU generator (see csrc/ops/aten_ops.cpp).
    return torch.get_rng_state()


def _set_rng_state(state, device="ref") -> None:
    torch.set_rng_state(state)


def _manual_seed(seed) -> None:
    torch.manual_seed(seed)


def _initial_seed() -> int:
    return torch.initial_seed()


def _amp_dtypes():
    return [torch.float32]


def _no_autocast() -> bool:
    return False


def _autocast_dtype():
    return torch.float32


def _synchronize(device=None) -> None:
    # Kernels run on the host, synchronously: nothing is in flight.
    return None


def _zero(device=None) -> int:
    return 0


def _no_stats(device=None) -> dict:
    return {}


DEVICE_FUNCTIONS = {
    "device": _Device, "current_device": _current_device, "set_device": _set_device, "manual_seed": _manual_seed,
    "manual_seed_all": _manual_seed, "get_rng_state": _get_rng_state, "set_rng_state": _set_rng_state,
    "initial_seed": _initial_seed, "get_amp_supported_dtype": _amp_dtypes, "is_autocast_enabled": _no_autocast,
    "get_autocast_dtype": _autocast_dtype, "synchronize": _synchronize, "memory_allocated": _zero,
    "max_memory_allocated": _zero, "memory_stats": _no_stats, "empty_cache": _synchronize,
}


def provide(device_type: str, device_module) -> None:
    """Adds the points above, where this torch can take them."""
    for name, fn in DEVICE_FUNCTIONS.items():
        setattr(device_module, name, fn)
    generate = getattr(torch.utils, "generate_methods_for_privateuse1_backend", None)
    if generate is not None and device_type != "privateuseone" and not hasattr(torch.Tensor, device_type):
        generate(for_tensor=True, for_module=True, for_packed_sequence=True, for_storage=True)


def autoload() -> None:
    """The torch.backends entry point: torch calls it at `import torch`."""
    import onramp_ref  # noqa: F401  Importing the package registers everything.
