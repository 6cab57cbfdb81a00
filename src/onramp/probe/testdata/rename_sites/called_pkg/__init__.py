from ._loader import load

load()
