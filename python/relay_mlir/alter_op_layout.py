"""TVM 0.19's AlterOpLayout on its x86 (``llvm``) targets: NCHW convolutions blocked as NCHW{n}c.

What TVM does (measured in the side venv, untuned: AutoTVM's fallback configuration;
python/tvm/topi/x86/conv2d_alter_op.py and the ``_fallback_schedule`` of
conv2d_avx_common.py / depthwise_conv2d.py):

- With no current ``tvm.target.Target``, or one that is not a CPU, nothing changes.
- Each ``nn.conv2d`` with ``NCHW`` data and an ``OIHW`` kernel, ``groups`` 1 or depthwise
  (groups = input channels = output channels), becomes ``nn.contrib_conv2d_NCHWc``
  (depthwise: ``nn.contrib_depthwise_conv2d_NCHWc``) with data ``NCHW{ic}c``, kernel
  ``OIHW{ic}i{oc}o`` (depthwise ``OIHW1i{oc}o``) and result ``NCHW{oc}c``: ``oc`` is the
  largest divisor of the output channels not above the target's 32-bit SIMD lanes
  (relay_mlir.x86_target), ``ic`` the largest divisor of the input channels not above ``oc``.
  Grouped (not depthwise) convolutions, a depthwise channel multiplier above 1 and NHWC
  convolutions stay ``nn.conv2d``.
- ``layout_transform``s go at the edges: the data into the blocked layout (from a blocked
  producer with another block: ``NCHW{a}c -> NCHW{b}c``), each kernel into its layout, and a
  blocked value back to NCHW where an operator needs NCHW (and for the function's result).
- Elementwise operators run blocked, and so do binary broadcast operators whose other
  operand is a scalar, an NCHW tensor of the same channels (``layout_transform`` of it) or a
  ``[C, 1, 1]`` tensor (CanonicalizeOps' bias: ``expand_dims(axis=0)``, then
  ``layout_transform``), and ``concatenate`` on the channel axis of fields all blocked
  alike (otherwise each field goes back to NCHW, as in TVM).

- Pools of a blocked value run blocked: ``nn.max_pool2d`` / ``avg_pool2d`` /
  ``global_avg_pool2d`` / ``global_max_pool2d`` / ``adaptive_avg_pool2d`` /
  ``adaptive_max_pool2d`` with ``layout="NCHW{n}c"``; so do ``sum`` / ``mean`` / ``max`` /
  ``min`` / ``prod`` with an axis: N, H, W keep their positions,
  reducing C reduces its block too (``axis=[1, 4]``; ``exclude`` alike); with ``keepdims``
  the result stays blocked (``NCHW1c`` once C is reduced), without it the result is brought
  back to its primal layout at once (``NC{n}c -> NC``; none needed once C is reduced).
  Without an axis a reduction gets the NCHW value, as in TVM.

Not done here (TVM also runs these blocked; here they get the NCHW value): ``argmax`` /
``argmin`` (blocked after a blocked conv, the module failed in iree-compile: a linalg.yield
count error, not investigated yet), an elementwise op after a reduction without keepdims
(TVM keeps ``NC{n}c``), ``nn.bias_add`` without
CanonicalizeOps first; TVM's int8
``OIHW{n}i{m}o4i`` kernels of VNNI targets (int8 convolutions on a target with more than 4
lanes stay ``nn.conv2d``).

Why a Python pass: it was written so when it needed the current Target; qnn Legalize now
hands the Target's answer to a C++ pass as an option (``relay-qnn-legalize{fast-int8=..}``),
and the SIMD lanes could be handed here the same way (not done yet). ``compile()`` never runs
it (the layouts for IREE are chosen in relay-to-iree-input, docs/optimizer.md). Its blocked
convolutions are dialect operators (``relay.nn.contrib_conv2d_NCHWc``, lowered as
``layout_transform`` + ``nn.conv2d`` + ``layout_transform``), so its result compiles and
survives MLIR passes as it is.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from .expr import Call, Expr, Op
from .expr_functor import ExprMutator
from .op.nn import contrib_conv2d_nchwc, contrib_depthwise_conv2d_nchwc
from .op.op_attr import OpPattern, get_op_attr
from .op.tensor import concatenate
from .op.transform import expand_dims, layout_transform

__all__ = ["conv_blocks", "alter_op_layout"]

Block = Optional[int]  # the c-block of an NCHW{n}c value, None for a value in its own layout


def _largest_divisor(n: int, limit: int) -> int:
    return next(b for b in range(limit, 0, -1) if n % b == 0)


def conv_blocks(in_channels: int, out_channels: int, lanes: int) -> Tuple[int, int]:
    """TVM's fallback tiles (ic, oc): oc the largest divisor of the output channels up to
    ``lanes``, ic the largest divisor of the input channels up to oc."""
    oc = _largest_divisor(out_channels, lanes)
    return _largest_divisor(in_channels, oc), oc


def _shape(e: Expr):
    """``e``'s static shape and dtype (ValueError for another type)."""
    t = e.checked_type
    shape = getattr(t, "shape", None)
    if shape is None or not all(isinstance(d, int) or str(d).isdigit() for d in shape):
        raise ValueError(f"not a tensor of static shape: {t}")
    return [int(d) for d in shape], str(t.dtype)


# binary broadcast ops that TVM runs blocked (2 operands, no attributes)
_NOT_BLOCKED_BINARY = frozenset({"broadcast_to_like", "nn.bias_add", "nn.prelu"})
# pools that run blocked with layout="NCHW{n}c", and reductions blocked over H/W
_POOLS = frozenset({"nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d",
                    "nn.global_max_pool2d", "nn.adaptive_avg_pool2d", "nn.adaptive_max_pool2d"})
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod"})


class _Blocker(ExprMutator):
    """Rewrites calls; ``visit`` of a call returns its value in its own layout, and
    ``blocked`` keeps the blocked form of each call that has one."""

    def __init__(self, lanes: int) -> None:
        super().__init__()
        self.lanes = lanes
        self.blocked: Dict[Expr, Tuple[Expr, int]] = {}
        self.transforms: Dict[Tuple[Expr, str, str], Expr] = {}

    def _transform(self, e: Expr, src: str, dst: str) -> Expr:
        """``layout_transform(e, src, dst)``, one node per value and layouts (TVM shares it
        between the consumers)."""
        key = (e, src, dst)
        if key not in self.transforms:
            self.transforms[key] = layout_transform(e, src, dst)
        return self.transforms[key]

    def _to_block(self, e: Expr, have: Block, want: int) -> Expr:
        if have == want:
            return e
        return self._transform(e, "NCHW" if have is None else f"NCHW{have}c", f"NCHW{want}c")

    def _arg(self, e: Expr) -> Tuple[Expr, Block]:
        v = self.visit(e)
        return self.blocked.get(e, (v, None))

    def visit_call(self, call: Call) -> Expr:
        got = None
        if isinstance(call.op, Op):
            name = call.op.name
            if name == "nn.conv2d":
                got = self._conv2d(call)
            elif len(call.args) == 1 and get_op_attr(name, "TOpPattern") == OpPattern.ELEMWISE:
                got = self._elementwise(call)
            elif len(call.args) == 2 and not call.attrs and name not in _NOT_BLOCKED_BINARY \
                    and get_op_attr(name, "TOpPattern") == OpPattern.BROADCAST:
                got = self._binary(call)
            elif name == "concatenate":  # its operands are the fields
                got = self._concatenate(call)
            elif name in _POOLS:
                got = self._pool(call)
            elif name in _REDUCTIONS:
                reduced = self._reduce(call)
                if isinstance(reduced, Expr):  # no keepdims: back to the primal layout
                    return reduced
                got = reduced
        if got is None:
            return super().visit_call(call)
        self.blocked[call] = got
        return self._transform(got[0], f"NCHW{got[1]}c", "NCHW")

    def _conv2d(self, call: Call) -> Optional[Tuple[Expr, int]]:
        a = call.attrs
        if a.get("data_layout", "NCHW") != "NCHW" or a.get("kernel_layout", "OIHW") != "OIHW" \
                or a.get("out_layout", "") not in ("", "NCHW"):
            return None
        try:
            (_, c, _, _), dtype = _shape(call.args[0])
            (o, i, _, _), _ = _shape(call.args[1])
        except ValueError:
            return None  # dynamic shapes: TVM's x86 schedules need static ones
        groups = int(a.get("groups", 1))
        depthwise = groups > 1 and groups == c == o and i == 1
        if (groups != 1 and not depthwise) or (dtype in ("int8", "uint8") and self.lanes > 4):
            return None
        ic, oc = conv_blocks(c, o, self.lanes)
        data, have = self._arg(call.args[0])
        weight = self.visit(call.args[1])
        kernel_layout = f"OIHW1i{oc}o" if depthwise else f"OIHW{ic}i{oc}o"
        make = contrib_depthwise_conv2d_nchwc if depthwise else contrib_conv2d_nchwc
        out = make(self._to_block(data, have, ic), self._transform(weight, "OIHW", kernel_layout),
                   strides=a["strides"], padding=a["padding"], dilation=a["dilation"],
                   groups=groups, channels=o, kernel_size=a.get("kernel_size"),
                   data_layout=f"NCHW{ic}c", kernel_layout=kernel_layout,
                   out_layout=f"NCHW{oc}c", out_dtype=a.get("out_dtype") or "")
        return out, oc

    def _elementwise(self, call: Call) -> Optional[Tuple[Expr, int]]:
        x, block = self._arg(call.args[0])
        if block is None:
            return None
        return Call(call.op, [x], dict(call.attrs)), block

    def _binary(self, call: Call) -> Optional[Tuple[Expr, int]]:
        (x, bx), (y, by) = self._arg(call.args[0]), self._arg(call.args[1])
        if bx is None and by is None:
            return None
        block = bx if bx is not None else by
        channels = _shape(call.args[0] if bx is not None else call.args[1])[0][1]
        if bx is not None and by is not None and _shape(call.args[1])[0][1] != channels:
            return None  # one broadcasts over the channels: in NCHW
        args = []
        for e, orig, b in ((x, call.args[0], bx), (y, call.args[1], by)):
            args.append(self._to_block(e, b, block) if b is not None else
                        self._broadcast_operand(e, _shape(orig)[0], channels, block))
        if any(a is None for a in args):
            return None
        return Call(call.op, args, dict(call.attrs)), block

    def _concatenate(self, call: Call) -> Optional[Tuple[Expr, int]]:
        """On the channel axis of fields all blocked alike, blocked (TVM: otherwise every
        field goes back to NCHW)."""
        fields = [self._arg(f) for f in call.args]
        blocks = {b for _, b in fields}
        if len(blocks) != 1 or None in blocks or int(call.attrs["axis"]) not in (1, -3):
            return None
        return concatenate([e for e, _ in fields], axis=1), blocks.pop()

    def _pool(self, call: Call) -> Optional[Tuple[Expr, int]]:
        x, block = self._arg(call.args[0])
        attrs = dict(call.attrs)
        if block is None or (attrs.get("layout") or "NCHW") != "NCHW":
            return None
        attrs["layout"] = f"NCHW{block}c"
        if attrs.get("out_layout"):
            attrs["out_layout"] = attrs["layout"]
        return Call(call.op, [x], attrs), block

    def _reduce(self, call: Call):
        """A reduction (with an axis) of a blocked value, blocked as TVM's
        ReduceInferCorrectLayout: the axes of NCHW keep their positions and reducing C
        reduces its block too (axis 4). Returns (expr, block) for a blocked result (keepdims:
        the block, or 1 once C is reduced), an Expr for a result in its primal layout (no
        keepdims: NC{n}c -> NC at once; C reduced: plain already), None: in NCHW."""
        x, block = self._arg(call.args[0])
        attrs = dict(call.attrs)
        axis = attrs.get("axis")
        if block is None or not axis:
            return None
        given = sorted({int(a) % 4 for a in axis})
        reduced = set(range(4)) - set(given) if attrs.get("exclude") else set(given)
        attrs["axis"] = given + ([4] if 1 in given else [])
        out = Call(call.op, [x], attrs)
        if attrs.get("keepdims"):
            return out, (1 if 1 in reduced else block)
        if 1 in reduced:
            return out
        primal = "".join(c for i, c in enumerate("NCHW") if i not in reduced)
        return self._transform(out, f"{primal}{block}c", primal)

    def _broadcast_operand(self, e: Expr, shape, channels: int, block: int) -> Optional[Expr]:
        """An NCHW-side operand of a blocked binary op, in the blocked layout (None: it
        cannot be: the op then runs in NCHW)."""
        if not shape:
            return e  # a scalar broadcasts in any layout
        if len(shape) == 3 and shape[0] == channels and shape[1:] == [1, 1]:
            e, shape = expand_dims(e, axis=0), [1] + shape
        if len(shape) == 4 and shape[1] == channels:
            return self._transform(e, "NCHW", f"NCHW{block}c")
        return None


def alter_op_layout(fn, lanes: int):
    """``fn`` (typed) with its NCHW convolutions blocked for ``lanes`` 32-bit SIMD lanes."""
    return _Blocker(lanes).visit(fn)
