"""What an exception says, with the one its chain began with.

onramp writes this beside every script it runs (python/sandbox.cpp). A
wrapper hides the cause: torch's backend autoload raises "RuntimeError:
Failed to load the backend extension: X" from what the entry point raised,
and libraries re-raise inside `except`. The record keeps both: the raised
exception ("type", "message") and the innermost of its chain ("cause_type",
"cause_message"), followed through __cause__ and, unless suppressed,
__context__. "raised_through" names the packages whose code the innermost
exception's traceback passed through, outermost first (the standard
library's and the running script's left out): a failure inside a package
whose service could not be reached follows from that.
"""
import sys

# A message is kept whole up to this many characters (torch's "Could not run"
# lists every dispatch key's kernel); only a pathological one is cut.
MESSAGE_LIMIT = 16000
PUNCTUATION = ".,;:!?)]}"


def shortened(text, limit):
    """text in at most `limit` characters (at least 8): whole where it fits,
    else cut at the last whitespace or punctuation that keeps at least half of
    it and ended with "…", never mid-word: the rule of onramp's
    util::shortened, so that every cut reads the same."""
    limit = max(limit, 8)
    if len(text) <= limit:
        return text
    room = limit - 1
    cut = room
    for i in range(room, room // 2, -1):
        if text[i].isspace() or text[i - 1] in PUNCTUATION:
            cut = i
            break
    return text[:cut].rstrip() + "…"


def first_line(text):
    """The first non-empty line of text, whole, stripped ("" for none)."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def innermost(exc):
    """The exception exc's chain began with (exc itself when it has none)."""
    seen = {id(exc)}
    while True:
        inner = exc.__cause__ if exc.__cause__ is not None else (
            None if exc.__suppress_context__ else exc.__context__)
        if inner is None or id(inner) in seen:
            return exc
        seen.add(id(inner))
        exc = inner


def raised_through(exc):
    """The top-level packages of exc's traceback frames, outermost first, each once."""
    packages = []
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__") or ""
        top = name.split(".")[0]
        if top and top != "__main__" and top not in sys.stdlib_module_names and top not in packages:
            packages.append(top)
        tb = tb.tb_next
    return packages


def exception_fields(exc, limit=MESSAGE_LIMIT):
    """{"type", "message"} of exc, and {"cause_type", "cause_message"} of the
    innermost exception of its chain where that is another one."""
    fields = {"type": type(exc).__name__, "message": shortened(str(exc), limit)}
    inner = innermost(exc)
    if inner is not exc:
        fields.update(cause_type=type(inner).__name__, cause_message=shortened(str(inner), limit))
    through = raised_through(inner)
    if through:
        fields["raised_through"] = through
    return fields
