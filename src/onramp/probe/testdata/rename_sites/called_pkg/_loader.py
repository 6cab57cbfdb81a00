import json

import torch

from . import hardware


class Loader:
    def _init_device(self):
        torch.utils.rename_privateuse1_backend("foo")

    def run(self):
        if hardware.device_count() > 0:
            self._init_device()


def load():
    json.load  # a module from outside the package: not a caller
    Loader().run()
