"""Imports one module in a fresh interpreter and records what that cost.

Usage: python [-X importtime] import_probe.py RESULT_FILE MODULE

The result goes to RESULT_FILE as JSON Lines, never to stdout, so that the
module's own prints cannot corrupt it. Marker lines on stderr delimit the
import, so that onramp can tell the module's stderr (and -X importtime
lines) from the interpreter's own.
"""
import sys
import time

PROCESS_START = time.perf_counter()

import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

from onramp_errors import exception_fields  # noqa: E402

BEGIN_MARKER = "onramp-import-begin"
END_MARKER = "onramp-import-end"


def mapped_libraries():
    """Shared objects mapped into this process, from /proc/self/maps."""
    paths = set()
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) == 6:
                    path = fields[5].strip()
                    if path.startswith("/") and ".so" in os.path.basename(path):
                        paths.add(path)
    except OSError:
        pass
    return paths


def file_size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def short_error(exc):
    return {**exception_fields(exc, 2000), "traceback": traceback.format_exc()[-4000:]}


def import_recording(module):
    """Imports module; returns (error, seconds, warnings shown)."""
    shown = []
    original = warnings.showwarning

    def record(message, category, filename, lineno, file=None, line=None):
        shown.append({"category": category.__name__, "message": str(message),
                      "file": filename, "line": lineno})
        original(message, category, filename, lineno, file, line)

    warnings.showwarning = record
    error = None
    sys.stderr.write(BEGIN_MARKER + "\n")
    sys.stderr.flush()
    start = time.perf_counter()
    try:
        importlib.import_module(module)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt are outcomes too
        error = short_error(exc)
    seconds = time.perf_counter() - start
    sys.stdout.flush()
    sys.stderr.write("\n" + END_MARKER + "\n")
    sys.stderr.flush()
    warnings.showwarning = original
    return error, seconds, shown


def main():
    result_path, module = sys.argv[1], sys.argv[2]
    result = open(result_path, "w", buffering=1)
    result.write(json.dumps({"kind": "begin", "module": module}) + "\n")
    before = mapped_libraries()
    modules_before = len(sys.modules)
    error, seconds, shown = import_recording(module)
    libraries = [{"path": p, "bytes": file_size(p)} for p in sorted(mapped_libraries() - before)]
    result.write(json.dumps({
        "kind": "import",
        "module": module,
        "ok": error is None,
        "seconds": seconds,
        "startup_seconds": time.perf_counter() - PROCESS_START - seconds,
        "error": error,
        "warnings": shown,
        "native_libraries": libraries,
        "modules_loaded": len(sys.modules) - modules_before,
        "python": sys.version.split()[0],
        "executable": sys.executable,
    }) + "\n")
    result.close()


if __name__ == "__main__":
    main()
    import onramp_exit  # written beside this script by onramp

    onramp_exit.leave()
