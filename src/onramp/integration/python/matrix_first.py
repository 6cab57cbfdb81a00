"""Runs the device-API matrix (api_probe.py) from the runtime group's
interpreter, before the group's own checks, so that both pay torch's import
once.

Both scripts begin the same way: backend autoload off, then `import torch`.
integration.py does that, then calls run() here, which forks: the child
restores the environment variable as it was before that preamble and runs
api_probe.py as `python api_probe.py ...` would (sys.argv, __main__), its
stdout and stderr written to RESULT.stdout and RESULT.stderr; api_probe.py's
own preamble then finds torch imported. A forked child starts from the state
of its parent at the fork (torch's thread pools are re-made after a fork, as
for DataLoader workers): what the matrix asks afterwards is asked of the state
a fresh interpreter has after the same preamble. Where the preambles differ
(TORCH_DEVICE_BACKEND_AUTOLOAD set to anything but 0 before the group started:
the matrix leaves it, the group turns it off), or the import of torch failed
here, the matrix runs in a fresh interpreter of its own instead.

The group waits for the matrix (the group needs the device name it chose),
then records how it ended: a "matrix" record in the group's result file
(exit code or signal, whether the limit ended it, its wall time, its peak
RSS, how it ran: "forked" or "fresh").
"""
import json
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
import traceback

AUTOLOAD = "TORCH_DEVICE_BACKEND_AUTOLOAD"


def shares_the_preamble(autoload_before):
    """Whether the matrix would import torch as the group does (autoload off)."""
    return autoload_before is None or autoload_before == "0"


def environment_before(environ, autoload_before):
    """The autoload variable put back as it was before the group's preamble."""
    if autoload_before is None:
        environ.pop(AUTOLOAD, None)
    else:
        environ[AUTOLOAD] = autoload_before
    return environ


def open_streams(result):
    return [os.open(result + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) for suffix in (".stdout", ".stderr")]


def run_in_child(argv, autoload_before):
    """The child's side of the fork: never returns."""
    code = 1
    try:
        for fd, target in zip((1, 2), open_streams(argv[1])):
            os.dup2(target, fd)
            os.close(target)
        environment_before(os.environ, autoload_before)
        sys.argv = list(argv)
        runpy.run_path(argv[0], run_name="__main__")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


def start_fresh(argv, autoload_before):
    out, err = open_streams(argv[1])
    env = environment_before(dict(os.environ), autoload_before)
    try:
        return subprocess.Popen([sys.executable] + list(argv), stdout=out, stderr=err, env=env).pid
    finally:
        os.close(out)
        os.close(err)


def wait_within(pid, limit):
    """(status, rusage, ended by the limit), the child killed at the limit."""
    expired = threading.Event()

    def expire():
        expired.set()
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    timer = threading.Timer(limit, expire)
    timer.daemon = True
    timer.start()
    try:
        _, status, usage = os.wait4(pid, 0)
    finally:
        timer.cancel()
    return status, usage, expired.is_set()


def run(rec, argv, limit, autoload_before, torch_imported):
    """Runs the matrix (argv: api_probe.py's path and arguments) and records how it ended."""
    forked = torch_imported and shares_the_preamble(autoload_before)
    start = time.perf_counter()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    if forked:
        pid = os.fork()
        if pid == 0:
            run_in_child(argv, autoload_before)
    else:
        pid = start_fresh(argv, autoload_before)
    status, usage, timed_out = wait_within(pid, limit)
    record = {"kind": "matrix", "how": "forked" if forked else "fresh", "timed_out": timed_out,
              "seconds": round(time.perf_counter() - start, 4), "peak_rss_bytes": usage.ru_maxrss * 1024}
    if os.WIFSIGNALED(status):
        record["signal"] = os.WTERMSIG(status)
    else:
        record["exit_code"] = os.WEXITSTATUS(status)
    rec.emit(record)


def device_chosen(result):
    """The device the matrix chose (its "env" record), or ""."""
    device = ""
    try:
        with open(result) as lines:
            for line in lines:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict) and record.get("kind") == "env" and isinstance(record.get("device"), str):
                    device = record["device"]
    except OSError:
        pass
    return device
