import torch


def setup():
    torch.utils.rename_privateuse1_backend("foo")
