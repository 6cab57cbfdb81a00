"""Runs code examples statement by statement in one interpreter.

Usage: python run_statements.py RESULT_FILE BLOCKS_FILE STATEMENT_TIMEOUT

BLOCKS_FILE is JSON: {"blocks": [{"origin": "README.md:12", "line": 12,
"code": "..."}]}; a marimo cell's block adds "inputs" and "outputs" (the names
its function takes and returns), copied onto its statements' records as
"cell_inputs" and "cell_outputs". Every top-level statement of
every block runs in order in one namespace, continuing after a failure, like
a reader pasting the README into a REPL (marimo cells arrive already split
and ordered). Each statement record names the top-level names the statement
binds, the modules it imports and the global names it reads, so that a later
NameError can be traced to the failed statement that would have bound the
name. A block that does not parse is one failed record (SyntaxError) that
still names what the block's statements would have bound. Results go to
RESULT_FILE as JSON Lines; a "begin" record precedes each statement so that one that hangs or
kills the interpreter is still named.
"""
import ast
import json
import re
import signal
import sys
import time

from onramp_errors import MESSAGE_LIMIT, exception_fields, shortened

VALUE_REPR_LIMIT = 120


class StatementTimeout(BaseException):
    """Raised by SIGALRM; a BaseException so that `except Exception` in the example cannot swallow it."""


ALARM = {"fired": False}


def on_alarm(signum, frame):
    ALARM["fired"] = True
    raise StatementTimeout()



def target_names(target):
    """Names an assignment target binds: x, (a, b), *rest; not x.attr or x[i]."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in target_names(t)]
    return []


def bindings(node):
    """(names, modules): the top-level names a statement binds and the modules it imports."""
    if isinstance(node, ast.Import):
        return ([a.asname or a.name.split(".")[0] for a in node.names], [a.name for a in node.names])
    if isinstance(node, ast.ImportFrom):
        module = "." * node.level + (node.module or "")
        return ([a.asname or a.name for a in node.names if a.name != "*"],
                [module] + [module + "." + a.name for a in node.names if a.name != "*"])
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return ([node.name], [])
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    names = [n for t in targets for n in target_names(t)]
    # A walrus anywhere in the statement binds at top level too.
    names += [n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)]
    return (names, [])


def reads(node):
    """Global names a statement reads: its loaded names, less the parameters
    and assigned names of the functions, lambdas and comprehensions inside it
    (an approximation: a local of a nested function hides a global of the
    same name read elsewhere in the statement)."""
    loads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    local = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = n.args
            local |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x}
            local |= {m.id for m in ast.walk(n) if isinstance(m, ast.Name) and isinstance(m.ctx, ast.Store)}
        elif isinstance(n, ast.comprehension):
            local |= set(target_names(n.target))
    return sorted(loads - local)


# One line's bindings, for the statement that does not parse: Python's
# parser refuses it whole, so its first line is read by pattern.
DEF_LINE = re.compile(r"^(?:async\s+def|def|class)\s+(\w+)")
IMPORT_LINE = re.compile(r"^import\s+([\w., ]+)")
FROM_LINE = re.compile(r"^from\s+([\w.]+)\s+import\s+\(?([\w, ]+)")
ASSIGN_LINE = re.compile(r"^(\w+(?:\s*,\s*\w+)*)\s*(?::[^=]*)?=(?!=)")
CONTINUATION = ("else", "elif", "except", "finally", ")", "]", "}", "#")


def broken_line_bindings(line):
    line = line.strip()
    if m := DEF_LINE.match(line):
        return [m.group(1)], []
    if m := IMPORT_LINE.match(line):
        parts = [p.split() for p in m.group(1).split(",") if p.strip()]
        return [p[-1] if len(p) == 3 and p[1] == "as" else p[0].split(".")[0] for p in parts], [p[0] for p in parts]
    if m := FROM_LINE.match(line):
        parts = [p.split() for p in m.group(2).split(",") if p.strip()]
        names = [p[-1] if len(p) == 3 and p[1] == "as" else p[0] for p in parts]
        return names, [m.group(1)] + [m.group(1) + "." + p[0] for p in parts]
    if m := ASSIGN_LINE.match(line):
        return [n.strip() for n in m.group(1).split(",")], []
    return [], []


def parsed_bindings(code):
    names, modules = [], []
    for node in ast.parse(code).body:
        n, m = bindings(node)
        names += n
        modules += m
    return names, modules


def starts_statement(line):
    return line[:1] not in ("", " ", "\t", "\n", "\r") and not line.startswith(CONTINUATION)


def unparsed_bindings(code):
    """(names, modules) a block that does not parse would have bound: the
    statements before and after each broken one, parsed on their own, and the
    broken statement's first line read by pattern."""
    names, modules = [], []
    lines = code.splitlines(keepends=True)
    while lines:
        try:
            n, m = parsed_bindings("".join(lines))
            return names + n, modules + m
        except SyntaxError as exc:
            bad = min(max((exc.lineno or 1) - 1, 0), len(lines) - 1)
        # The broken statement starts at the last statement line before the
        # error behind which everything parses (the empty prefix always does).
        for start in range(bad, -1, -1):
            if start > 0 and not starts_statement(lines[start]):
                continue
            try:
                n, m = parsed_bindings("".join(lines[:start]))
                break
            except SyntaxError:
                continue
        b = broken_line_bindings(lines[start])
        names += n + b[0]
        modules += m + b[1]
        rest = [j for j in range(bad + 1, len(lines)) if starts_statement(lines[j])]
        lines = lines[rest[0]:] if rest else []
    return names, modules


def statements_of(block):
    tree = ast.parse(block["code"], filename=block["origin"])
    for node in tree.body:
        yield node, ast.get_source_segment(block["code"], node) or ast.unparse(node)


def run_one(node, source, namespace, timeout):
    """Returns the outcome fields of one statement."""
    is_expression = isinstance(node, ast.Expr)
    module = ast.Expression(node.value) if is_expression else ast.Module([node], [])
    code = compile(module, "<example>", "eval" if is_expression else "exec")
    ALARM["fired"] = False
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        value = eval(code, namespace) if is_expression else exec(code, namespace)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except BaseException as exc:  # SystemExit included: the next statement still runs
        signal.setitimer(signal.ITIMER_REAL, 0)
        # Native code may wrap the alarm's exception in its own (RuntimeError).
        if ALARM["fired"]:
            return {"status": "timeout", "message": f"no result after {timeout:g} s"}
        return {"status": "raised", **exception_fields(exc, 1000)}
    if value is None:
        return {"status": "ok"}
    return dict(echoed(value), status="value", value_type=type(value).__name__)


def echoed(value):
    """The echo of an expression's value, as a REPL prints it: a step of its
    own, so that a repr that raises is not taken for the statement failing."""
    try:
        return {"value": shortened(repr(value), VALUE_REPR_LIMIT)}
    except BaseException as exc:
        return {"value": None, "repr_type": type(exc).__name__, "repr_message": shortened(str(exc), MESSAGE_LIMIT)}


def main():
    result_path, blocks_path, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    out = open(result_path, "w", buffering=1)
    with open(blocks_path) as f:
        blocks = json.load(f)["blocks"]
    signal.signal(signal.SIGALRM, on_alarm)
    namespace = {"__name__": "__main__"}
    index = 0
    for block in blocks:
        cell = {"cell_" + k: block[k] for k in ("inputs", "outputs") if k in block}
        try:
            statements = list(statements_of(block))
        except SyntaxError as exc:
            line = block["line"] + (exc.lineno or 1) - 1
            names, modules = unparsed_bindings(block["code"])
            out.write(json.dumps(dict(cell, kind="statement", index=index, origin=block["origin"], line=line,
                                      source=shortened(block["code"].strip(), 400), status="raised",
                                      type="SyntaxError", message=str(exc.msg), seconds=0.0,
                                      binds=names, imports=modules)) + "\n")
            index += 1
            continue
        for node, source in statements:
            names, modules = bindings(node)
            record = dict(cell, kind="statement", index=index, origin=block["origin"],
                          line=block["line"] + node.lineno - 1, source=source,
                          binds=names, imports=modules, reads=reads(node))
            out.write(json.dumps(dict(record, kind="begin")) + "\n")
            out.flush()
            start = time.perf_counter()
            record.update(run_one(node, source, namespace, timeout))
            record["seconds"] = time.perf_counter() - start
            sys.stdout.flush()
            sys.stderr.flush()
            out.write(json.dumps(record) + "\n")
            out.flush()
            index += 1
    out.write(json.dumps({"kind": "end"}) + "\n")


if __name__ == "__main__":
    main()
    import onramp_exit  # written beside this script by onramp

    onramp_exit.leave()
