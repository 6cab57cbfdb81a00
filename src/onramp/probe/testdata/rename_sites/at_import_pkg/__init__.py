import torch

torch.utils.rename_privateuse1_backend("foo")
