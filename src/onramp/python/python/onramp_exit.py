"""Ends one of onramp's scripts without the interpreter's finalization.

onramp writes this beside every script it runs; each imports it last, once
its records are written. Module teardown and atexit hooks cost 0.3 to 0.6 s of
CPU once torch is imported, and nothing is measured after them. The streams
are flushed first (one the target closed or replaced is left as it is).
"""
import os
import sys


def leave():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(0)
