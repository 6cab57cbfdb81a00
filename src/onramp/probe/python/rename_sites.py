"""Finds where an installed backend package names its device, without importing it.

Usage: python rename_sites.py RESULT_FILE MODULE

Locates MODULE's top-level package with importlib.util.find_spec (which
imports nothing for a top-level name), parses its .py files with Python's
ast, and records each call of torch.utils.rename_privateuse1_backend,
torch._register_device_module and
torch.utils.generate_methods_for_privateuse1_backend: its path:line
(relative to the package's parent directory), the function it is in, the
conditions of the `if`s that guard it, and where that function is called in
the package and under what conditions, up to the module level or a few
levels up. What a static read cannot tell is said, never guessed: a call
through a name it cannot resolve, a function referenced as a value, a
function never called in the package. Names found as strings in the
package's shared objects are recorded as evidence only: native code may
call these functions too.
Results go to RESULT_FILE as JSON Lines: one "package" record, one "site"
record per call, "native" records, then "end".
"""
import ast
import functools
import importlib.util
import json
import mmap
import os
import sys

from onramp_errors import first_line, shortened

TARGETS = ("rename_privateuse1_backend", "_register_device_module", "generate_methods_for_privateuse1_backend")
MAX_FILES = 5000
MAX_FILE_BYTES = 4 << 20
MAX_DEPTH = 4          # caller levels followed above a site
MAX_CALLERS = 8        # callers listed per function
MAX_NATIVE_BYTES = 2 << 30
TEXT_LIMIT = 200


def unparse(node):
    try:
        return shortened(ast.unparse(node), TEXT_LIMIT)
    except Exception:  # an ast.unparse gap on an odd node: say what it was
        return type(node).__name__


def package_dirs(module):
    """(top-level name, parent dir, [files]) without importing it, or a reason."""
    top = module.split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except Exception as exc:
        return top, None, [], f"find_spec({top!r}) raised {type(exc).__name__}: {first_line(str(exc))}"
    if spec is None:
        return top, None, [], f"no module named {top!r} on this interpreter's path"
    if spec.submodule_search_locations:
        roots = [os.path.abspath(p) for p in spec.submodule_search_locations]
        parent = os.path.dirname(roots[0])
        files = []
        for root in roots:
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
                files += [os.path.join(dirpath, f) for f in sorted(filenames)]
        return top, parent, files, None
    if spec.origin and os.path.isfile(spec.origin):
        return top, os.path.dirname(os.path.abspath(spec.origin)), [os.path.abspath(spec.origin)], None
    return top, None, [], f"{top!r} has no files to read (origin: {spec.origin})"


def module_name(parent, path):
    rel = os.path.relpath(path, parent)[:-3].split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return ".".join(rel)


class Scope:
    """A function (or the module) and the names bound in it."""

    def __init__(self, qualname, node, parent=None, cls=None):
        self.qualname, self.node, self.parent, self.cls = qualname, node, parent, cls
        self.aliases = {}  # local name -> (target, how it was bound)


class Call:
    def __init__(self, module, scope, node, conditions):
        self.module, self.scope, self.node, self.conditions = module, scope, node, conditions


class ModuleInfo:
    def __init__(self, name, path, tree):
        self.name, self.path, self.tree = name, path, tree
        self.functions = {}   # qualname -> Scope
        self.calls = []       # every Call
        self.references = []  # (scope, node, conditions): a Name or Attribute read, not called
        self.imports = {}     # local name -> ("module", dotted) or ("name", dotted module, name)
        self.strings = []     # (scope, node): a str constant naming a target


def resolve_relative(module, level, name, is_package):
    if not level:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[:len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(parts + ([name] if name else []))


class Walker(ast.NodeVisitor):
    """Collects functions, calls with their guarding conditions, imports and
    references of one module."""

    def __init__(self, info, is_package):
        self.info, self.is_package = info, is_package
        self.scope = Scope("", info.tree)
        self.cls = None
        self.conditions = []

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        owner = self.scope.qualname
        if self.cls:  # a method: Class.name (Outer.Class.name for a nested class)
            owner = f"{owner}.{self.cls}" if owner else self.cls
        qual = f"{owner}.{node.name}" if owner else node.name
        scope = Scope(qual, node, self.scope, owner if self.cls else None)
        self.info.functions.setdefault(qual, scope)
        saved = self.scope, self.conditions, self.cls
        self.scope, self.conditions, self.cls = scope, [], None
        for stmt in node.body:
            self.visit(stmt)
        self.scope, self.conditions, self.cls = saved

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        saved = self.cls
        self.cls = f"{self.cls}.{node.name}" if self.cls else node.name
        for stmt in node.body:
            self.visit(stmt)
        self.cls = saved

    def visit_If(self, node):
        self.visit(node.test)
        test = unparse(node.test)
        self.conditions.append(test)
        for stmt in node.body:
            self.visit(stmt)
        self.conditions[-1] = f"not ({test})"
        for stmt in node.orelse:
            self.visit(stmt)
        self.conditions.pop()

    def visit_Import(self, node):
        for alias in node.names:
            if alias.asname:
                self.info.imports[alias.asname] = ("module", alias.name)
            else:
                top = alias.name.split(".")[0]
                self.info.imports[top] = ("module", top)
                self.info.imports.setdefault(alias.name, ("module", alias.name))

    def visit_ImportFrom(self, node):
        base = resolve_relative(self.info.name, node.level, node.module, self.is_package)
        for alias in node.names:
            local = alias.asname or alias.name
            if alias.name in TARGETS and local != alias.name:
                self.scope.aliases[local] = (alias.name, f"imported as `{local}` at line {node.lineno}", None)
            # `from . import mod` binds a module; `from .mod import f` a name: both kept.
            self.info.imports[local] = ("name", base, alias.name)

    def visit_Assign(self, node):
        self.visit(node.value)
        for t in node.targets:
            self.visit(t)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return
        local, value = node.targets[0].id, node.value
        how = f"the variable `{local}`, bound at line {node.lineno} to `{unparse(value)}`"
        # rename = getattr(torch.utils, "rename_privateuse1_backend", None)
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "getattr"
                and len(value.args) >= 2 and isinstance(value.args[1], ast.Constant)
                and value.args[1].value in TARGETS):
            self.scope.aliases[local] = (value.args[1].value, how, value.args[1])
        elif isinstance(value, (ast.Name, ast.Attribute)) and callee_name(value) in TARGETS:
            self.scope.aliases[local] = (callee_name(value), how, None)

    def visit_Call(self, node):
        self.info.calls.append(Call(self.info, self.scope, node, list(self.conditions)))
        # The callee is a call's, not a reference: `f()` does not pass f on.
        if isinstance(node.func, ast.Attribute):
            self.visit(node.func.value)
        elif not isinstance(node.func, ast.Name):
            self.visit(node.func)
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.info.references.append((self.scope, node, list(self.conditions)))

    def visit_Attribute(self, node):
        if isinstance(node.ctx, ast.Load):
            self.info.references.append((self.scope, node, list(self.conditions)))
        self.visit(node.value)

    def visit_Constant(self, node):
        if isinstance(node.value, str) and node.value in TARGETS:
            self.info.strings.append((self.scope, node))


def callee_name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def alias_of(scope, name):
    """(target, how) when `name` is bound in scope or an enclosing one to a target."""
    while scope is not None:
        if name in scope.aliases:
            return scope.aliases[name]
        scope = scope.parent
    return None


class Package:
    def __init__(self, top, parent, files):
        self.top, self.parent = top, parent
        self.modules = {}
        self.unparsed = []
        self.skipped = 0
        for path in files:
            if not path.endswith(".py"):
                continue
            if len(self.modules) >= MAX_FILES:
                self.skipped += 1
                continue
            self.parse(path)

    def parse(self, path):
        rel = os.path.relpath(path, self.parent)
        try:
            if os.path.getsize(path) > MAX_FILE_BYTES:
                self.unparsed.append(f"{rel}: larger than {MAX_FILE_BYTES} bytes")
                return
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), filename=rel)
        except (SyntaxError, ValueError, OSError, RecursionError) as exc:
            self.unparsed.append(f"{rel}: {type(exc).__name__}: {first_line(str(exc))}")
            return
        name = module_name(self.parent, path)
        info = ModuleInfo(name, rel, tree)
        Walker(info, os.path.basename(path) == "__init__.py").visit(tree)
        self.modules[name] = info

    def sites(self):
        """(Call, target, how): direct calls, and calls through a name bound to a target."""
        for info in self.modules.values():
            for call in info.calls:
                name = callee_name(call.node.func)
                if name in TARGETS:
                    yield call, name, ""
                    continue
                bound = alias_of(call.scope, name) if isinstance(call.node.func, ast.Name) else None
                if bound:
                    yield call, bound[0], bound[1]

    def unresolved_strings(self):
        """A target named as a string that no call found here goes through."""
        used = set()
        for call, _, how in self.sites():
            if how:
                bound = alias_of(call.scope, call.node.func.id)
                if bound and bound[2] is not None:
                    used.add(id(bound[2]))
        for info in self.modules.values():
            for scope, node in info.strings:
                if id(node) not in used:
                    yield info, scope, node

    def binds(self, info, local, module, name):
        """Whether `local` in `info` names the module-level function `name` of `module`."""
        if info.name == module and local == name and name in info.functions:
            return True
        imp = info.imports.get(local)
        return bool(imp and imp[0] == "name" and imp[1] == module and imp[2] == name)

    def names_module(self, info, local, module):
        imp = info.imports.get(local)
        if not imp:
            return False
        return imp[1] == module if imp[0] == "module" else f"{imp[1]}.{imp[2]}" == module

    def calls_target(self, info, call, module, target):
        """True: `call` calls `target` (a Scope of `module`); None: it may, unresolved."""
        func, simple = call.node.func, target.qualname.split(".")[-1]
        if isinstance(func, ast.Name) and func.id == simple and target.cls is None:
            if target.parent.qualname:  # a nested function: called from its enclosing function
                return info.name == module and within(call.scope, target.parent) or False
            return self.binds(info, simple, module, simple)
        if not (isinstance(func, ast.Attribute) and func.attr == simple):
            return False
        value = func.value
        if isinstance(value, ast.Name):
            imp = info.imports.get(value.id)
            if imp and not (imp[1] or "").split(".")[0] == self.top:
                return False  # a module from outside the package (json.load)
            if value.id in ("self", "cls") and not target.cls:
                return False
        if target.cls:
            owner = target.cls.split(".")[-1]
            if isinstance(value, ast.Name) and value.id in ("self", "cls") and info.name == module \
                    and call.scope.cls == target.cls:
                return True
            # Loader.run() or Loader().run(), in the module that defines Loader
            made = value.func if isinstance(value, ast.Call) else value
            if isinstance(made, ast.Name) and made.id == owner and info.name == module:
                return True
            return None
        if isinstance(value, ast.Name) and self.names_module(info, value.id, module):
            return True
        return None

    def callers(self, module, target):
        """Calls of `target` (a Scope of `module`), and notes on what a static
        read cannot resolve."""
        simple = target.qualname.split(".")[-1]
        found, notes = [], []
        for info in self.modules.values():
            for call in info.calls:
                verdict = self.calls_target(info, call, module, target)
                if verdict:
                    found.append(call)
                elif verdict is None:
                    notes.append(f"{info.path}:{call.node.lineno} calls `{unparse(call.node.func)}`, which may be "
                                 f"this function: a static read cannot resolve "
                                 f"`{unparse(call.node.func.value)}`")
            if target.cls or target.parent.qualname:
                continue
            for scope, node, _ in info.references:
                value = (isinstance(node, ast.Name) and node.id == simple
                         and self.binds(info, simple, module, simple)) \
                    or (isinstance(node, ast.Attribute) and node.attr == simple and isinstance(node.value, ast.Name)
                        and self.names_module(info, node.value.id, module))
                if value:
                    inside = f" in `{scope.qualname}`" if scope.qualname else ""
                    notes.append(f"{info.path}:{node.lineno} passes `{unparse(node)}` as a value{inside}: where "
                                 f"it is called from there a static read cannot tell")
        return found, notes

    def entry_points(self, module, qualname):
        target = f"{module}:{qualname}"
        out = []
        for group, name, value, dist in all_entry_points():
            if not value:
                out.append(name)  # why the entry points could not be read
            elif value == target:
                when = (": torch calls it during `import torch` unless TORCH_DEVICE_BACKEND_AUTOLOAD=0"
                        if group == "torch.backends" else "")
                out.append(f"entry point [{group}] {name} = {value} of {dist}{when}")
        return out

    def importers(self, module):
        """Where the package imports `module` (module-level code runs then)."""
        out = []
        for info in self.modules.values():
            for node in ast.walk(info.tree):
                if isinstance(node, ast.Import) and any(a.name == module for a in node.names):
                    out.append(f"{info.path}:{node.lineno}")
                elif isinstance(node, ast.ImportFrom):
                    base = resolve_relative(info.name, node.level, node.module, info.path.endswith("__init__.py"))
                    if base == module or any(f"{base}.{a.name}" == module for a in node.names):
                        out.append(f"{info.path}:{node.lineno}")
        return out

    def reach(self, call, depth, seen):
        """How the code at `call` is reached: its function's callers, up to MAX_DEPTH."""
        scope, info = call.scope, call.module
        if not scope.qualname:
            importers = [p for p in self.importers(info.name) if not p.startswith(info.path + ":")]
            note = f"runs at `import {info.name}`"
            if info.name != self.top:  # a submodule: its code runs when something imports it
                note += ("; imported at " + ", ".join(importers[:MAX_CALLERS]) if importers
                         else "; nothing in the package imports it")
            return {"module_level": True, "note": note, "callers": [], "unresolved": []}
        key = (info.name, scope.qualname)
        if key in seen or depth >= MAX_DEPTH:
            return {"module_level": False, "note": "" if key not in seen else "recursive", "callers": [],
                    "unresolved": [] if key in seen else [f"not followed above {MAX_DEPTH} levels"]}
        found, notes = self.callers(info.name, scope)
        notes = notes[:MAX_CALLERS] + self.entry_points(info.name, scope.qualname)
        callers = []
        for c in found[:MAX_CALLERS]:
            callers.append(dict(where(c), **self.reach(c, depth + 1, seen | {key})))
        if not found and not notes:
            notes.append("never called in the package (a caller outside it, or native code, may call it)")
        return {"module_level": False, "note": "", "callers": callers, "unresolved": notes}


@functools.lru_cache(maxsize=1)
def all_entry_points():
    """(group, name, value without spaces, distribution) of every installed
    distribution, read once; a failure to read them is one entry, said."""
    try:
        from importlib.metadata import distributions
        return tuple((ep.group, ep.name, ep.value.replace(" ", ""), dist.metadata["Name"])
                     for dist in distributions() for ep in dist.entry_points)
    except Exception as exc:
        return (("", f"entry points not read: {type(exc).__name__}: {first_line(str(exc))}", "", ""),)


def within(scope, outer):
    while scope is not None:
        if scope is outer:
            return True
        scope = scope.parent
    return False


def where(call):
    return {"path": call.module.path, "line": call.node.lineno, "function": call.scope.qualname,
            "conditions": call.conditions, "call": unparse(call.node)}


def native_strings(files, parent):
    """Target names found in the package's shared objects, as evidence only."""
    budget = MAX_NATIVE_BYTES
    for path in files:
        name = os.path.basename(path)
        if not (name.endswith(".so") or ".so." in name):
            continue
        try:
            size = os.path.getsize(path)
            if size == 0 or size > budget:
                continue
            budget -= size
            with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                found = [t for t in TARGETS if m.find(t.encode()) != -1]
        except (OSError, ValueError):
            continue
        if found:
            yield {"kind": "native", "path": os.path.relpath(path, parent), "strings": found}


def main():
    out = open(sys.argv[1], "w", buffering=1)

    def emit(record):
        out.write(json.dumps(record) + "\n")

    top, parent, files, why = package_dirs(sys.argv[2])
    if parent is None:
        emit({"kind": "package", "module": top, "found": False, "message": why})
        emit({"kind": "end"})
        return
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    package = Package(top, parent, files)
    emit({"kind": "package", "module": top, "found": True, "parent": parent,
          "files": len(package.modules), "unparsed": package.unparsed[:20], "skipped": package.skipped})
    found = list(package.sites())
    for call, api, how in found:
        arg = call.node.args[0] if call.node.args else None
        record = {"kind": "site", "api": api, **where(call), "through": how,
                  "argument": arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None}
        record.update(package.reach(call, 0, frozenset()))
        emit(record)
    for info, scope, node in package.unresolved_strings():
        emit({"kind": "site", "api": node.value, "path": info.path, "line": node.lineno, "function": scope.qualname,
              "conditions": [], "call": "", "through": "", "argument": None, "module_level": False, "note": "",
              "callers": [], "unresolved": [f"`{node.value}` is named as a string here; whether and where it is "
                                            f"called a static read cannot tell"]})
    for record in native_strings(files, parent):
        emit(record)
    emit({"kind": "end"})


if __name__ == "__main__":
    main()
