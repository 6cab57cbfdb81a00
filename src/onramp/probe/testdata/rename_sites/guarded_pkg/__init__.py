import os

import torch

if os.environ.get("FOO_DEVICES"):
    torch.utils.rename_privateuse1_backend("foo")
else:
    torch._register_device_module("privateuseone", object())
