"""refacc's code generator: one C function per external function (route (b), ``CSource``).

``refacc_codegen(func)`` gets an external function made by ``PartitionGraph`` whose body
calls refacc's composites (``patterns.pattern_table``) on its parameters, constants (bound
inside by ``PartitionGraph``) and each other's results, and returns C source defining

    void <global_symbol>(const float *in0, ..., float *out0, ..., unsigned char *ws)

that calls the kernel library (``kernels.KERNELS``) once per composite, in dataflow order.
Constants become ``static const`` arrays; results used only inside the function live in the
workspace ``ws`` (``workspace_bytes``, 64-byte aligned slots) that IREE allocates per call.
"""
from __future__ import annotations

from typing import Dict, List

import numpy as np

from ...expr import Call, Constant, Expr, Function, Tuple
from ..codegen import CSource
from ..signature import signature
from .kernels import KERNELS

__all__ = ["refacc_codegen"]

_ALIGN = 64


def _shape(e: Expr) -> List[int]:
    return [int(d) for d in e.checked_type.shape]


def _size(e: Expr) -> int:
    return int(np.prod(_shape(e), dtype=np.int64))


def _c_float(v: float) -> str:
    if np.isnan(v):
        return "__builtin_nanf(\"\")"
    if np.isinf(v):
        return "__builtin_inff()" if v > 0 else "-__builtin_inff()"
    return float(v).hex() + "f"  # exact


def _padding(p: List[int]) -> List[int]:
    """Relay's 1, 2 or 4 padding entries as ``[top, left, bottom, right]``."""
    return p * 4 if len(p) == 1 else p * 2 if len(p) == 2 else list(p)


class _Emitter:
    """Names a C buffer for each value of the body and emits one kernel call per composite."""

    def __init__(self, func: Function) -> None:
        self.names: Dict[int, str] = {id(p): f"in{i}" for i, p in enumerate(func.params)}
        self.globals: List[str] = []  # constants
        self.lines: List[str] = []    # the entry's body
        self.workspace = 0

    def value(self, e: Expr) -> str:
        """The C name of ``e``'s buffer, emitting the code computing it first."""
        if id(e) not in self.names:
            if isinstance(e, Constant):
                name = f"c{len(self.globals)}"
                vals = ", ".join(_c_float(v) for v in np.asarray(e.data, "float32").reshape(-1))
                self.globals.append(f"static const float {name}[{max(_size(e), 1)}] = {{{vals}}};")
                self.names[id(e)] = name
            elif isinstance(e, Call) and isinstance(e.op, Function) and "Composite" in e.op.attrs:
                self.composite(e, self.scratch(e))
            else:
                raise ValueError(f"refacc cannot compute a {type(e).__name__} "
                                 f"({getattr(e, 'op', '')}): only its composites")
        return self.names[id(e)]

    def scratch(self, e: Expr) -> str:
        offset = self.workspace
        self.workspace += -(-_size(e) * 4 // _ALIGN) * _ALIGN
        return f"(float *)(ws + {offset})"

    def composite(self, call: Call, out: str) -> None:
        """Emits the kernel call computing composite ``call`` into buffer ``out``."""
        fn = call.op
        arg = {id(p): self.value(a) for p, a in zip(fn.params, call.args)}  # params -> buffers
        kind = fn.attrs["Composite"]
        if kind == "refacc.conv2d_bias_relu":
            bias_add = fn.body.args[0]
            conv = bias_add.args[0]
            x, w = conv.args
            (n, c, h, wd), (o, _, kh, kw) = _shape(x), _shape(w)
            oh, ow = _shape(conv)[2:]
            a = conv.attrs
            pt, pl, _, _ = _padding(list(a["padding"]))
            dims = [n, c, h, wd, o, kh, kw, *a["strides"], pt, pl, *a["dilation"], oh, ow]
            self.call("refacc_conv2d_bias_relu", [arg[id(x)], arg[id(w)], arg[id(bias_add.args[1])], out],
                      dims)
        elif kind == "refacc.dense":
            x, w = fn.body.args
            k = _shape(x)[-1]
            self.call("refacc_dense", [arg[id(x)], arg[id(w)], out], [_size(x) // k, k, _shape(w)[0]])
        elif kind == "refacc.add":
            a, b = fn.body.args
            self.call("refacc_add", [arg[id(a)], arg[id(b)], out], [_size(call)])
        else:
            raise ValueError(f"refacc has no kernel for composite '{kind}'")
        self.names[id(call)] = out

    def call(self, kernel: str, buffers: List[str], dims: List[int]) -> None:
        self.lines.append(f"  {kernel}({', '.join(buffers + [str(int(d)) for d in dims])});")

    def output(self, e: Expr, out: str) -> None:
        """Makes output buffer ``out`` hold ``e``: computed there, or copied."""
        if isinstance(e, Call) and id(e) not in self.names and isinstance(e.op, Function):
            self.composite(e, out)
        else:
            self.lines.append(f"  refacc_copy({self.value(e)}, {out}, {_size(e)});")


def refacc_codegen(func: Function) -> CSource:
    """refacc's codegen (registered as ``"refacc"``): the C source of external function
    ``func``, as ``CSource`` with its workspace size."""
    sig = signature(func)
    em = _Emitter(func)
    outputs = list(func.body.fields) if isinstance(func.body, Tuple) else [func.body]
    for j, e in enumerate(outputs):
        em.output(e, f"out{j}")
    params = ([f"const float *in{i}" for i in range(len(sig.params))]
              + [f"float *out{j}" for j in range(len(sig.results))]
              + (["unsigned char *ws"] if em.workspace else []))
    code = "\n".join([KERNELS, *em.globals, "",
                      f"void {sig.symbol}({', '.join(params)}) {{", *em.lines, "}", ""])
    return CSource(code, entry=sig.symbol, workspace_bytes=em.workspace)
