#!/usr/bin/env python3
"""Lists the functions longer than a limit (100 lines) in lib/ and python/relay_mlir.

Issue 35's rule is "no function over 100 lines in the compiler": this script
finds the ones left. A function's length is counted from the line its
signature starts on to the line of its closing brace (C++) or its last
statement (Python), both included.

* C++ (``lib/**/*.cpp``, ``*.h``): a small brace scanner. Comments, string
  and character literals are blanked first; then each ``{`` whose header (the
  text since the previous ``;``, ``{`` or ``}``) ends like a function
  signature (``...) {``, ``...) const override {``, ``... -> T {``) and is
  not a control statement or a lambda opens a function, unless it is nested
  in one (a lambda or local class counts toward its enclosing function).
  ``struct``/``class`` bodies give their methods a ``Class::`` prefix.
* Python (``python/relay_mlir/**/*.py``): every ``def`` (nested ones too,
  named ``outer.inner``), from the ``ast`` module's line numbers.

Usage::

    python scripts/long_functions.py            # list them, longest first
    python scripts/long_functions.py --limit 80
    python scripts/long_functions.py --count    # only the two counts
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
CPP_ROOT = ROOT / "lib"
PY_ROOT = ROOT / "python" / "relay_mlir"
LIMIT = 100


@dataclass(frozen=True)
class Function:
    path: Path
    line: int
    name: str
    length: int

    def __str__(self) -> str:
        return f"{self.length:5d}  {self.path.relative_to(ROOT)}:{self.line}  {self.name}"


# -- C++ ---------------------------------------------------------------------------------------
_LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_RAW_STRING = re.compile(r'R"(\w*)\((.*?)\)\1"', re.S)
_CONTROL = re.compile(r"^(if|for|while|switch|catch|else|do|return)\b")
_SCOPE = re.compile(r"\b(struct|class|namespace|enum|union)\s+([\w:]*)")
_SIGNATURE_END = re.compile(r"\)\s*(const|override|final|noexcept|mutable|&|&&|\s)*"
                            r"(->\s*[\w:<>,\s\*&]+)?$")
_CALLEE = re.compile(r"(~?[\w:]+|operator\s*\S+)\s*\(")


def _blank(match: re.Match) -> str:
    """The literal or comment replaced by spaces, its newlines kept."""
    return re.sub(r"[^\n]", " ", match.group(0))


def _strip(text: str) -> str:
    return _LITERAL.sub(_blank, _RAW_STRING.sub(_blank, text))


def _function_name(header: str) -> Optional[str]:
    """The function a header declares, or None when it is not a signature."""
    h = " ".join(header.split())
    h = re.sub(r"^template\s*<.*?>\s*", "", h)
    if not h or _CONTROL.match(h) or "=" in h.split("(")[0] or h.startswith("["):
        return None
    if not _SIGNATURE_END.search(h.split(") :")[0] + ")" if ") :" in h else h):
        return None
    m = _CALLEE.search(h)
    return m.group(1) if m else None


def cpp_functions(path: Path) -> Iterator[Function]:
    text = _strip(path.read_text())
    # stack entries: (kind, name, start line)
    stack: List[Tuple[str, str, int]] = []
    header_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        if c not in "{};":
            continue
        header = text[header_start:i]
        first = header_start + len(header) - len(header.lstrip())
        header_line = text.count("\n", 0, first) + 1
        header_start = i + 1
        if c == ";":
            continue
        if c == "}":
            if stack:
                kind, name, start = stack.pop()
                if kind == "function":
                    yield Function(path, start, name, line - start + 1)
            continue
        in_function = any(kind in ("function", "inner") for kind, _, _ in stack)
        scope = _SCOPE.search(header)
        name = None if scope else _function_name(header)
        if in_function:
            stack.append(("inner", "", line))
        elif scope:
            stack.append(("scope", scope.group(2) if scope.group(1) != "namespace" else "", line))
        elif name:
            owners = [n for kind, n, _ in stack if kind == "scope" and n]
            stack.append(("function", "::".join(owners + [name]), header_line))
        else:
            stack.append(("block", "", line))


# -- Python ------------------------------------------------------------------------------------
def py_functions(path: Path) -> Iterator[Function]:
    tree = ast.parse(path.read_text(), filename=str(path))

    def visit(node: ast.AST, prefix: str) -> Iterator[Function]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                yield Function(path, child.lineno, name, child.end_lineno - child.lineno + 1)
                yield from visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, prefix + child.name + ".")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, "")


def long_functions(limit: int = LIMIT) -> Tuple[List[Function], List[Function]]:
    """(C++, Python) functions over `limit` lines, longest first."""
    cpp = [f for p in sorted(CPP_ROOT.rglob("*")) if p.suffix in (".cpp", ".h")
           for f in cpp_functions(p) if f.length > limit]
    py = [f for p in sorted(PY_ROOT.rglob("*.py")) if not p.is_symlink()  # sources, not links
          for f in py_functions(p) if f.length > limit]
    key = lambda f: (-f.length, str(f.path), f.line)  # noqa: E731
    return sorted(cpp, key=key), sorted(py, key=key)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=LIMIT, help="longest allowed (lines)")
    parser.add_argument("--count", action="store_true", help="print only the counts")
    args = parser.parse_args(argv)
    cpp, py = long_functions(args.limit)
    for title, found in (("C++ (lib/)", cpp), ("Python (python/relay_mlir)", py)):
        print(f"{title}: {len(found)} functions over {args.limit} lines")
        if not args.count:
            for f in found:
                print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
