"""An interpreter's facts for onramp (python/interpreter.h), printed as one JSON object.

Run with `python -I -c <this file>`: read from distribution metadata and import
specs, never by importing torch, so it is fast and safe on any interpreter.
"""
import json
import sys
import sysconfig
from importlib import metadata, util


def torch_version():
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return None


def torchgen_dir():
    try:
        spec = util.find_spec("torchgen")
    except Exception:  # a broken package's import spec: no torchgen to read
        return None
    if spec and spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    return None


def facts():
    paths = sysconfig.get_paths()
    return {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "torch": torch_version(),
        "executable": sys.executable,
        "torchgen": torchgen_dir(),
        "venv": sys.prefix != sys.base_prefix,
        "site": list(dict.fromkeys([paths["purelib"], paths["platlib"]])),
    }


if __name__ == "__main__":
    print(json.dumps(facts()))
