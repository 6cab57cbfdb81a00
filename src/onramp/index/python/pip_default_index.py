"""The index pip reads when its configuration names none: pip's own default."""
from pip._internal.models.index import PyPI

if __name__ == "__main__":
    print(PyPI.simple_url)
