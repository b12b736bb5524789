"""QDQ models become integer ops: DequantizeLinear → Conv / MatMul / Gemm / Add / Mul →
QuantizeLinear groups are rewritten into QLinearConv, QLinearMatMul and
``com.microsoft`` QGemm / QLinearAdd / QLinearMul before import — the fusion onnxruntime's
graph optimizer applies to such models on the CPU, so the integer results are
onnxruntime's.

A group is fused when the quantization parameters of its DequantizeLinear and
QuantizeLinear nodes are initializers (zero points given), the float op's output
feeds only that QuantizeLinear (and is not a graph output), the weight of a Conv
is per tensor or per output channel (``axis`` 0), the B of a MatMul per tensor or
per column (its last axis; a B computed at run time per tensor), the B of a Gemm (an
initializer; ``beta`` 1) per tensor or per output column (axis 0 when ``transB``, else 1),
and a Conv's or Gemm's bias, if any, is the DequantizeLinear of an int32 initializer with
zero point 0 and the scale the contraction's products have (A's scale times B's, per
channel, to float32 rounding: another scale would not be the int32 sum's). The DequantizeLinear nodes stay (unused
ones import to nothing a caller sees); other nodes are untouched.

    >>> from onnx import helper
    >>> g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [], [])
    >>> fuse_qdq(helper.make_model(g)) is None   # nothing to fuse
    True
"""
from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

__all__ = ["fuse_qdq"]

_FUSED = {"Conv": ("", "QLinearConv"), "MatMul": ("", "QLinearMatMul"), "Gemm": ("com.microsoft", "QGemm"),
          "Add": ("com.microsoft", "QLinearAdd"), "Mul": ("com.microsoft", "QLinearMul")}


class _Graph:
    def __init__(self, graph) -> None:
        from onnx import numpy_helper
        self.inits = {t.name: t for t in graph.initializer}
        self.array = lambda name: numpy_helper.to_array(self.inits[name])
        self.producer: Dict[str, object] = {o: n for n in graph.node for o in n.output}
        self.consumers: Dict[str, List[object]] = {}
        for n in graph.node:
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
        self.outputs = {o.name for o in graph.output}

    def is_init(self, name: str) -> bool:
        return name in self.inits

    def dq(self, name: str):
        """The DequantizeLinear producing ``name`` with initializer scale and zero point."""
        n = self.producer.get(name)
        if n is None or n.op_type != "DequantizeLinear" or n.domain not in ("", "ai.onnx") \
                or len(n.input) < 3 or not all(self.is_init(i) for i in n.input[1:3]):
            return None
        return n

    def axis(self, dq) -> int:
        return int(self.attr(dq, "axis", 1))

    @staticmethod
    def attr(node, name: str, default):
        from onnx import helper
        for a in node.attribute:
            if a.name == name:
                return helper.get_attribute_value(a)
        return default


def _per_tensor(g: _Graph, dq) -> bool:
    return g.array(dq.input[1]).size == 1


def _weight_ok(g: _Graph, node, dq, rank: int) -> bool:
    if _per_tensor(g, dq):
        return True
    axis = g.axis(dq)
    axis = axis + rank if axis < 0 else axis
    op = node.op_type
    if op == "Gemm":
        return axis == (0 if g.attr(node, "transB", 0) else 1)
    return (op == "Conv" and axis == 0) or (op == "MatMul" and axis == rank - 1)


def _bias(g: _Graph, name: str, a, b) -> Optional[str]:
    """The int32 initializer a bias is the DequantizeLinear of, when it adds to the int32
    products of ``a`` (per tensor) and ``b`` exactly: zero point 0, scale a's x b's."""
    dq = g.dq(name)
    if dq is None or not g.is_init(dq.input[0]) or g.array(dq.input[0]).dtype != np.int32 \
            or np.any(g.array(dq.input[2])):
        return None
    products = (g.array(a.input[1]).astype(np.float32) * g.array(b.input[1]).astype(np.float32)).reshape(-1)
    scale = g.array(dq.input[1]).astype(np.float32).reshape(-1)
    if scale.size not in (1, products.size) or not np.allclose(scale, products, rtol=1e-6, atol=0):
        return None
    return dq.input[0]


_DROP_QDQ = {"MaxPool", "Flatten", "Reshape", "Transpose", "Squeeze", "Unsqueeze"}


def _same_params(g: _Graph, dq, q) -> bool:
    return all(np.array_equal(g.array(a), g.array(b)) and g.array(a).dtype == g.array(b).dtype
               for a, b in zip(dq.input[1:3], q.input[1:3]))


def _integer_node(g: _Graph, node, q, onnx_helper):
    """``node`` reading the DequantizeLinear's integer input and writing the QuantizeLinear's
    output (same scale and zero point on both sides), or None."""
    dq = g.dq(node.input[0]) if node.input else None
    if dq is None or len(node.output) != 1 or not _per_tensor(g, dq) or not _same_params(g, dq, q):
        return None
    attrs = {at.name: onnx_helper.get_attribute_value(at) for at in node.attribute}
    return onnx_helper.make_node(node.op_type, [dq.input[0], *node.input[1:]], [q.output[0]], name=node.name,
                                 **attrs)


def _fused_node(g: _Graph, node, onnx_helper):
    """The QLinear node replacing ``node`` and the QuantizeLinear after it, or None."""
    if (node.op_type not in _FUSED and node.op_type not in _DROP_QDQ) or node.domain not in ("", "ai.onnx") \
            or node.output[0] in g.outputs:
        return None, None
    users = g.consumers.get(node.output[0], [])
    if len(users) != 1 or users[0].op_type != "QuantizeLinear" or len(users[0].input) < 3 \
            or not all(g.is_init(i) for i in users[0].input[1:3]):
        return None, None
    q = users[0]
    if not _per_tensor(g, q):
        return None, None
    if node.op_type in _DROP_QDQ:
        fused = _integer_node(g, node, q, onnx_helper)
        return (fused, q) if fused is not None else (None, None)
    a, b = g.dq(node.input[0]), g.dq(node.input[1]) if len(node.input) > 1 else None
    if a is None or b is None or not _per_tensor(g, a):
        return None, None
    domain, fused = _FUSED[node.op_type]
    if node.op_type in ("Add", "Mul"):
        if not _per_tensor(g, b):
            return None, None
        inputs = list(a.input[:3]) + list(b.input[:3]) + list(q.input[1:3])
        return onnx_helper.make_node(fused, inputs, [q.output[0]], name=node.name, domain=domain), q
    if not g.is_init(b.input[0]):
        # a MatMul of two activations (attention's Q·Kᵀ): per-tensor B, as onnxruntime fuses it
        if node.op_type != "MatMul" or not _per_tensor(g, b):
            return None, None
    elif not _weight_ok(g, node, b, g.array(b.input[0]).ndim):
        return None, None
    inputs = list(a.input[:3]) + list(b.input[:3]) + list(q.input[1:3])
    attrs = {}
    if node.op_type in ("Conv", "Gemm"):
        bias = ""
        if len(node.input) > 2 and node.input[2]:
            bias = _bias(g, node.input[2], a, b)
            if bias is None:
                return None, None
        attrs = {at.name: onnx_helper.get_attribute_value(at) for at in node.attribute}
        if node.op_type == "Conv":
            inputs += [bias] if bias else []
        else:
            # QGemm: A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp; no beta
            if not g.is_init(b.input[0]) or float(attrs.pop("beta", 1.0)) != 1.0:
                return None, None
            inputs = inputs[:6] + [bias] + inputs[6:]
    return onnx_helper.make_node(fused, inputs, [q.output[0]], name=node.name, domain=domain, **attrs), q


def fuse_qdq(model):
    """A copy of ``model`` with its QDQ groups fused into QLinear ops, or None if it has none."""
    from onnx import helper
    replaced, dropped = {}, set()
    try:
        g = _Graph(model.graph)
        for node in model.graph.node:
            fused, q = _fused_node(g, node, helper)
            if fused is not None:
                replaced[id(node)] = fused
                dropped.add(id(q))
    except Exception:  # a malformed initializer or attribute: the importer reports it
        return None
    if not replaced:
        return None
    out = type(model)()
    out.CopyFrom(model)
    nodes = [replaced.get(id(n), n) for n in model.graph.node if id(n) not in dropped]
    del out.graph.node[:]
    out.graph.node.extend(nodes)
    if any(n.domain == "com.microsoft" for n in nodes) and \
            not any(o.domain == "com.microsoft" for o in out.opset_import):
        out.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return out
