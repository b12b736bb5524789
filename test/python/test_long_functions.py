"""No function over 100 lines in lib/ and python/relay_mlir (issue 35): long bodies are split
by strategy or phase into named functions or patterns. Counted by scripts/long_functions.py
(C++: a brace scanner over comment- and literal-free text; Python: the ast's line numbers).

Run ``python scripts/long_functions.py`` to list the offenders.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("long_functions", ROOT / "scripts" / "long_functions.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks itself up there)
    spec.loader.exec_module(module)
    return module


def test_no_function_over_100_lines() -> None:
    lf = _script()
    cpp, py = lf.long_functions(100)
    assert not cpp and not py, "\n".join(str(f) for f in cpp + py)


def test_the_counter_sees_long_functions(tmp_path: Path) -> None:
    """The scanner finds a 101-line C++ method (braces in strings and comments ignored) and a
    101-line nested Python function (in a 103-line method), and counts a 100-line one as
    short."""
    lf = _script()
    body = "\n".join(f'  x += {i}; // {{ "}}"' for i in range(99))
    cpp = tmp_path / "long.cpp"
    cpp.write_text("namespace {\nstruct S {\n  int f(int x) const {\n" + body + "\n  }\n};\n}\n"
                   "int g() {\n" + "\n".join("  ;" for _ in range(98)) + "\n}\n")
    found = {f.name: f.length for f in lf.cpp_functions(cpp)}
    assert found == {"S::f": 101, "g": 100}, found
    py = tmp_path / "long.py"
    py.write_text("class C:\n    def outer(self):\n        def inner():\n"
                  + "\n".join(f"            y = {i}" for i in range(100)) + "\n        return inner\n")
    found = {f.name: f.length for f in lf.py_functions(py)}
    assert found == {"C.outer": 103, "C.outer.inner": 101}, found
