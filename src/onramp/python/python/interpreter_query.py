"""An interpreter's facts for onramp (python/interpreter.h), printed as one JSON object.

Run with `python -I -c <this file>`: read from distribution metadata and import
specs, never by importing torch, so it is fast and safe on any interpreter.
The wheel tags it supports come from pip's vendored packaging (bare
interpreters have no packaging of their own), else packaging; without
either they are null and `tags_source` says why.
"""
import json
import platform
import sys
import sysconfig
from importlib import metadata, util

TAG_MODULES = ("pip._vendor.packaging.tags", "packaging.tags")


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


def supported_tags(modules=TAG_MODULES):
    """(tags, source): each tag [python, abi, platform], most preferred first, as pip orders them;
    (None, why) when no module gives them."""
    failures = []
    for name in modules:
        try:
            tags = __import__(name, fromlist=["sys_tags"])
            return [[t.interpreter, t.abi, t.platform] for t in tags.sys_tags()], name + ".sys_tags()"
        except Exception as e:  # an old or missing module: the next one, else unknown
            failures.append("%s: %s: %s" % (name, type(e).__name__, " ".join(str(e).split())))
    return None, "unknown: " + "; ".join(failures)


def libc():
    name, version = platform.libc_ver()
    return "%s %s" % (name, version) if name and version else None


def facts():
    paths = sysconfig.get_paths()
    tags, source = supported_tags()
    return {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "torch": torch_version(),
        "executable": sys.executable,
        "torchgen": torchgen_dir(),
        "venv": sys.prefix != sys.base_prefix,
        "site": list(dict.fromkeys([paths["purelib"], paths["platlib"]])),
        "platform": sysconfig.get_platform(),
        "libc": libc(),
        "tags": tags,
        "tags_source": source,
    }


if __name__ == "__main__":
    print(json.dumps(facts()))
