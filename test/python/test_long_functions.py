"""scripts/long_functions.py measures functions as issue 35 counts them.

The scanner is checked on small sources written here (lengths known by
construction), not on the repository, whose numbers change.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("long_functions", ROOT / "scripts" / "long_functions.py")
long_functions = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = long_functions
_spec.loader.exec_module(long_functions)


def _body(n: int) -> str:
    return "".join(f"  x += {i}; // a {{ in a comment\n" for i in range(n))


CPP = (
    "namespace {\n"                                   # 1
    "struct Pattern : Base<Op> {\n"                   # 2
    "  LogicalResult\n"                               # 3
    "  matchAndRewrite(Op op) const override {\n"     # 4
    + _body(3) +                                      # 5-7
    "    auto f = [&](int a) { return a; };\n"        # 8: a lambda, not a function
    "    if (x) {\n      x = 1;\n    }\n"             # 9-11: a block
    '    const char *s = "}";\n'                      # 12: a brace in a string
    "    return success();\n"                         # 13
    "  }\n"                                           # 14
    "};\n"                                            # 15
    "int helper(int a,\n"                             # 16: signature on two lines
    "           int b) {\n"                           # 17
    + _body(100) +                                    # 18-117
    "}\n"                                             # 118
    "} // namespace\n"
)

PY = (
    "class C:\n"
    "    def method(self):\n"
    "        def inner():\n"
    "            return 1\n"
    "        return inner()\n"
)


def test_cpp_functions_methods_and_lengths(tmp_path: Path) -> None:
    path = tmp_path / "x.cpp"
    path.write_text(CPP)
    found = {f.name: (f.line, f.length) for f in long_functions.cpp_functions(path)}
    assert found == {"Pattern::matchAndRewrite": (3, 12), "helper": (16, 103)}


def test_python_functions_nested_named_by_their_owner(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    path.write_text(PY)
    found = {f.name: (f.line, f.length) for f in long_functions.py_functions(path)}
    assert found == {"C.method": (2, 4), "C.method.inner": (3, 2)}
