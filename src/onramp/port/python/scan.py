"""onramp port scan: find the sites in Python files that a CUDA-ism rule may match.

Run by onramp in its sandbox as `python3 scan.py RESULT.jsonl REQUEST.json`. It
parses each file with Python's own `ast` (never imports or runs it) and writes
one JSON document as the one line of RESULT.jsonl. Which names, methods
and strings count as candidates comes from the request (onramp's rule table);
onramp itself decides which rule each site takes.
"""

import ast
import fnmatch
import json
import sys

EXCERPT_CHARS = 160


def any_glob(text, globs):
    return any(fnmatch.fnmatchcase(text, g) for g in globs)


def import_aliases(tree):
    """Local name -> the dotted name it stands for, from every import in the file."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    root = a.name.split(".")[0]
                    aliases[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name != "*":
                    aliases[a.asname or a.name] = node.module + "." + a.name
    return aliases


def dotted(node, aliases):
    """The dotted name of a Name/Attribute chain with its root resolved, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(aliases.get(node.id, node.id))
    return ".".join(reversed(parts))


def string_text(node):
    """A string constant's text; an f-string's constant parts with {} for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                out.append(part.value)
            else:
                out.append("{}")
        return "".join(out)
    return None


def call_name(call, aliases):
    name = dotted(call.func, aliases)
    if name is None and isinstance(call.func, ast.Attribute):
        name = "." + call.func.attr
    return name or ""


class SiteFinder:
    def __init__(self, aliases, interest, guards, lines):
        self.aliases = aliases
        self.interest = interest
        self.guards = guards
        self.lines = lines
        self.sites = []

    def add(self, kind, text, node, guarded, in_call="", keyword=""):
        line = getattr(node, "lineno", 0)
        code = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        self.sites.append({"kind": kind, "text": text, "line": line, "col": getattr(node, "col_offset", 0),
                           "guarded": guarded, "in_call": in_call, "keyword": keyword,
                           "code": code[:EXCERPT_CHARS]})

    def is_guard(self, test):
        for node in ast.walk(test):
            name = dotted(node, self.aliases) if isinstance(node, (ast.Name, ast.Attribute)) else None
            if name and any_glob(name, self.guards["names"]):
                return True
            if isinstance(node, ast.Compare):
                for operand in [node.left] + node.comparators:
                    text = string_text(operand)
                    if text is not None and any_glob(text, self.guards["strings"]):
                        return True
        return False

    def visit(self, node, guarded, parent=None, call_ctx=("", "")):
        if isinstance(node, (ast.If, ast.IfExp)):
            guarded = guarded or self.is_guard(node.test)
        self.inspect(node, guarded, parent, call_ctx)
        if isinstance(node, ast.JoinedStr):
            return  # its parts were read as one string
        for child in ast.iter_child_nodes(node):
            self.visit(child, guarded, node, self.context_for(node, child, call_ctx))

    def context_for(self, node, child, call_ctx):
        """(enclosing call, keyword) when child is a direct argument of a call."""
        if isinstance(node, ast.Call) and child is not node.func:
            return (call_name(node, self.aliases), "")
        if isinstance(node, ast.keyword):
            return (call_ctx[0], node.arg or "")
        return ("", "")

    def inspect(self, node, guarded, parent, call_ctx):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in self.interest["methods"]:
                name = dotted(func, self.aliases)
                if not (name and any_glob(name, self.interest["names"])):
                    self.add("method", func.attr, node, guarded)
        if isinstance(node, (ast.Name, ast.Attribute)):
            if isinstance(parent, ast.Attribute) and parent.value is node:
                return  # only whole chains
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                return
            name = dotted(node, self.aliases)
            if name and any_glob(name, self.interest["names"]):
                self.add("name", name, node, guarded)
            return
        text = string_text(node)
        if text is not None and any_glob(text, self.interest["strings"]):
            in_call, keyword = call_ctx
            self.add("string", text, node, guarded, in_call, keyword)


def scan_file(path, request):
    result = {"path": path, "lines": 0, "sites": [], "error": None}
    try:
        with open(path, "rb") as f:
            source = f.read()
        lines = source.decode("utf-8", errors="replace").splitlines()
        result["lines"] = len(lines)
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        result["error"] = {"kind": "SyntaxError", "message": e.msg or "invalid syntax", "line": e.lineno or 0}
        return result
    except (OSError, ValueError) as e:
        result["error"] = {"kind": type(e).__name__, "message": str(e), "line": 0}
        return result
    finder = SiteFinder(import_aliases(tree), request["interest"], request["guards"], lines)
    finder.visit(tree, False)
    result["sites"] = sorted(finder.sites, key=lambda s: (s["line"], s["col"], s["kind"], s["text"]))
    return result


def main():
    with open(sys.argv[2], encoding="utf-8") as f:
        request = json.load(f)
    files = [scan_file(path, request) for path in request["files"]]
    document = json.dumps({"python": sys.version.split()[0], "files": files}, sort_keys=True)
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write(document + "\n")


if __name__ == "__main__":
    main()
