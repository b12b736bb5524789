"""Building a codegen's C source into an object IREE's llvm-cpu backend links statically.

IREE links objects into its *embedded ELF* executables (``hal.executable.objects``; IREE's
samples/custom_dispatch/cpu/embedded): they run on IREE's own loader, so the code must be
freestanding, position independent, with no libc calls, no thread-local storage, no
writable globals and no stack protector. ``compile_c`` finds the system C compiler at run
time (``$CC``, else ``cc``, ``gcc``, ``clang``) and builds with flags that ensure that;
a compile error is a ``CompileError`` with the compiler's located diagnostics as notes.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from typing import List, Optional, Sequence

from ..errors import CompileError, Diagnostic

__all__ = ["find_c_compiler", "compile_c", "FREESTANDING_FLAGS"]

#: what every object for IREE's embedded ELF loader is built with
FREESTANDING_FLAGS = [
    "-O2", "-std=c11", "-fPIC", "-ffreestanding", "-fno-builtin", "-fno-stack-protector",
    "-fvisibility=hidden", "-fno-asynchronous-unwind-tables", "-fcf-protection=none",
]
# gcc turns copy/fill loops into memcpy/memset calls, which the embedded loader lacks
_GCC_ONLY = ["-fno-tree-loop-distribute-patterns"]


def find_c_compiler() -> Optional[str]:
    """The path of the C compiler to use (``$CC`` first), or None if there is none."""
    for name in [os.environ.get("CC"), "cc", "gcc", "clang"]:
        if name:
            path = shutil.which(name)
            if path:
                return path
    return None


def _is_gcc(cc: str) -> bool:
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out or os.path.basename(cc).startswith("gcc")


def _diagnostics(stderr: str, code: str) -> List[Diagnostic]:
    """The compiler's ``file:line:col: error: ...`` lines, each with its source line (the
    file is gone by the time they are read)."""
    lines = code.splitlines()
    out = []
    for f, line, col, msg in re.findall(r"^(.+?):(\d+):(\d+): error: (.*)$", stderr, re.M):
        n = int(line)
        text = lines[n - 1].strip() if 0 < n <= len(lines) else ""
        out.append(Diagnostic("error", f"{msg} (in `{text}`)" if text else msg,
                              os.path.basename(f), n, int(col)))
    return out


def compile_c(code: str, name: str, what: str, where: Optional[Diagnostic] = None,
              flags: Sequence[str] = ()) -> bytes:
    """Compiles C ``code`` (as ``<name>.c``) to an object for IREE's embedded ELF linker and
    returns its bytes.

    ``what`` names it in errors ("codegen 'x' for function 'f'"); ``where`` locates them.
    """
    cc = find_c_compiler()
    if cc is None:
        raise CompileError(f"{what} returned C source, but no C compiler was found: set CC or "
                           "install gcc or clang", [where] if where else [])
    with tempfile.TemporaryDirectory(prefix="relay_mlir_c_") as tmp:
        src, obj = os.path.join(tmp, name + ".c"), os.path.join(tmp, name + ".o")
        with open(src, "w") as f:
            f.write(code)
        cmd = [cc, *FREESTANDING_FLAGS, *(_GCC_ONLY if _is_gcc(cc) else []), *flags, "-c", src, "-o", obj]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            diags = ([where] if where else []) + _diagnostics(r.stderr, code)
            first = next((ln for ln in r.stderr.splitlines() if "error" in ln), r.stderr.strip()[:300])
            raise CompileError(f"{what}: its C source does not compile with {os.path.basename(cc)}: "
                               f"{first}", diags)
        with open(obj, "rb") as f:
            return f.read()
