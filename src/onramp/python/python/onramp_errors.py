"""What an exception says, with the one its chain began with.

onramp writes this beside every script it runs (python/sandbox.cpp). A
wrapper hides the cause: torch's backend autoload raises "RuntimeError:
Failed to load the backend extension: X" from what the entry point raised,
and libraries re-raise inside `except`. The record keeps both: the raised
exception ("type", "message") and the innermost of its chain ("cause_type",
"cause_message"), followed through __cause__ and, unless suppressed,
__context__.
"""

MESSAGE_LIMIT = 1000


def clipped(text, limit=MESSAGE_LIMIT):
    return text if len(text) <= limit else text[:limit - 3] + "..."


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


def exception_fields(exc, limit=MESSAGE_LIMIT):
    """{"type", "message"} of exc, and {"cause_type", "cause_message"} of the
    innermost exception of its chain where that is another one."""
    fields = {"type": type(exc).__name__, "message": clipped(str(exc), limit)}
    inner = innermost(exc)
    if inner is not exc:
        fields.update(cause_type=type(inner).__name__, cause_message=clipped(str(inner), limit))
    return fields
