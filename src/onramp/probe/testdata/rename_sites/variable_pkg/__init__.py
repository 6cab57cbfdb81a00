import torch

rename = getattr(torch.utils, "rename_privateuse1_backend", None)
if rename is not None:
    rename("foo")


def _late():
    torch._register_device_module("foo", object())


HOOKS = [_late]
NAMES = ("generate_methods_for_privateuse1_backend",)


def _init():
    torch.utils.generate_methods_for_privateuse1_backend()


class Holder:
    def go(self):
        self.impl._init()
