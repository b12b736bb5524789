"""Walks a TorchScript graph and builds Relay, reusing the torch.export converters.

Every TorchScript value is held as a pair (value, example):

* value: a Python value known at import time (an int, a list, None, a constant
  tensor, a submodule) or a ``_TV`` (a Relay expression with its shape and dtype)
  for a tensor known only at run time (an input, a weight that is a parameter,
  anything computed from them), or a list/tuple holding some;
* example: a concrete stand-in (a tensor of the right shape and dtype for each
  ``_TV``), on which each node is also run in PyTorch. Its results give the
  converters the output types they read (``node.meta["val"]`` in torch.export),
  and they answer the metadata operators (``aten::size``, ``prim::dtype``, ...).

A node with no run-time input is evaluated (``_eval.evaluate``), so a scripted
module's ``if`` on ``self.training`` or on a shape takes its branch at import time;
an ATen operator on run-time tensors goes to its converter: this package's
(``_registry``: fused kernels, ops torch.export decomposes), else the one
``frontend.torch`` registered for its name (an in-place ``aten::relu_`` to that of
``relu``, and its input is the result from then on). ``custom_convert_map`` entries
are called as TVM calls them: ``fn(inputs, input_types)`` -> a Relay expression.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ... import expr as E
from ..common import UnsupportedError
from ..torch import _Importer as _ExportImporter
from ..torch_ops._base import _CONVERTERS, _Ctx, _TV, _has_tv, _packet
from . import _eval, _views
from . import _activations, _embedding, _recurrent, _tensor, _transformer  # noqa: F401 - they register converters
from ._prim import RULES, container
from ._registry import CONVERTERS as OWN

_NO_FOLD = {"aten::dropout", "aten::feature_dropout", "aten::alpha_dropout", "aten::rand",
            "aten::randn", "aten::rand_like", "aten::randn_like", "aten::bernoulli", "aten::normal"}


class _Node:
    """What a converter of ``frontend.torch`` reads of its node: target, name, meta["val"]."""

    def __init__(self, target, name: str, val: Any, kind: str) -> None:
        self.target, self.name, self.meta, self.kind = target, name, {"val": val}, kind


def _converter(target):
    """The converter of an OpOverload: this package's (``_registry``), else frontend.torch's."""
    packet, ov = _packet(target)
    return OWN.get(packet) or _CONVERTERS.get(f"{packet}.{ov}") or _CONVERTERS.get(packet)


def _functional(target):
    """``aten.relu_.default`` -> ``aten.relu.default`` (the converter of the pure op)."""
    import torch
    packet, ov = _packet(target)
    if not packet.endswith("_") or packet.endswith("__"):
        return None
    try:
        return getattr(getattr(torch.ops.aten, packet[:-1]), ov)
    except (AttributeError, RuntimeError):
        return None


class TorchScriptImporter(_ExportImporter):
    """Converts one TorchScript graph; see the module docstring."""

    def __init__(self, source: str, weight_names: Dict[int, str], state: Dict[str, Any],
                 custom_convert_map: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(None, source)
        self.weight_names = weight_names  # GetAttr output id -> TVM name
        self.state = state                # TVM name -> torch tensor
        self.weights: Dict[str, E.Var] = {}
        self.custom = dict(custom_convert_map or {})
        self.vals: Dict[int, Tuple[Any, Any]] = {}
        self.missing: Dict[str, str] = {}  # op -> where it was first met
        self.grad_enabled = True
        self.any_dims = False  # an input has relay.Any() dims (size-free reshapes: _tensor)
        self.jit_node = None   # the TorchScript node being converted (its outputs' uses)
        self.loops: List[Tuple[E.GlobalVar, E.Function]] = []  # run-time loops (_prim)
        self.views = _views.Views()
        self.state_tensors: Dict[str, Any] = {}  # state-dict key -> tensor
        self.state_keys: Dict[int, str] = {}     # data_ptr -> state-dict key

    # -- errors and locations ----------------------------------------------------------
    def where(self, node) -> str:
        return getattr(node, "name", "?")

    def span_of(self, node, idx: int) -> E.Span:
        return E.Span(f"{self.source}:{getattr(node, 'name', '')}", idx + 1, 1)

    def unsupported(self, node, why: str) -> UnsupportedError:
        kind = getattr(node, "kind", None)
        kind = kind() if callable(kind) else kind
        name = node.name if isinstance(getattr(node, "name", None), str) else _label(node)
        return UnsupportedError(f"TorchScript {kind} (value '%{name}' of '{self.source}'): {why}",
                                kind, name, None)

    def weight_var(self, name: str, t) -> _TV:
        """The parameter ``name`` of ``main`` holding the module tensor ``t`` (made once)."""
        var = self.weights.get(name)
        if var is None:
            self.state.setdefault(name, t)
            var = self.weights[name] = E.var(name, shape=tuple(t.shape), dtype=str(t.dtype).replace("torch.", ""))
        return _TV(var, tuple(t.shape), var.type_annotation.dtype)

    # -- values ------------------------------------------------------------------------
    def get(self, v) -> Tuple[Any, Any]:
        if v.unique() in self.views.of:
            self.views.current(self, v)
        return self.vals[v.unique()]

    def put(self, v, value: Any, example: Any) -> None:
        self.vals[v.unique()] = (value, example)

    def run_block(self, block, args: Sequence[Tuple[Any, Any]]) -> List[Tuple[Any, Any]]:
        for v, pair in zip(block.inputs(), args):
            self.put(v, *pair)
        for idx, node in enumerate(block.nodes()):
            self.run_node(idx, node)
        return [self.get(o) for o in block.outputs()]

    def run_node(self, idx: int, node) -> None:
        handler = RULES.get(node.kind())
        if handler is not None:
            handler(self, node)
            return
        self.run_node_default(node, idx)

    def run_node_default(self, node, idx: int = 0) -> None:
        """``run_node`` without the ``prim::`` rules (a rule hands back what it does not take)."""
        import torch
        kind = node.kind()
        builtin = _eval.container_builtin(node)
        if builtin is not None:
            return container(self, node, builtin)
        ins = [self.get(v) for v in node.inputs()]
        values = [p[0] for p in ins]
        examples = [p[1] for p in ins]
        if kind in self.custom:
            return self.run_custom(node, values, examples)
        if kind in _eval.METADATA_OPS:  # shapes, dtypes, devices: the examples have them
            return self.put_outputs(node, [(o, o) for o in self.evaluate(node, examples)])
        if not _has_tv(values) and kind not in _NO_FOLD:
            outs = self.evaluate(node, values)
            self.put_outputs(node, [(o, o) for o in outs])
            target = _eval.overload(node)
            if target is not None and isinstance(values[0] if values else None, torch.Tensor) \
                    and (_views.returns_view(target) or _views.returns_views(target)):
                self.views.record(node, target, values, tuple(values[0].shape))
            return
        self.convert(idx, node, values, examples)

    def evaluate(self, node, values: Sequence[Any]) -> List[Any]:
        import torch
        try:
            with torch.no_grad():
                out = _eval.evaluate(node, values)
        except LookupError:
            raise self.unsupported(node, "cannot be evaluated at import time") from None
        except Exception as e:  # noqa: BLE001 - PyTorch's own error on these values
            raise self.unsupported(node, f"PyTorch raised {type(e).__name__}: {str(e)[:300]}") from None
        n = node.outputsSize()
        if n == 0:
            return []
        if n == 1:
            return [out]
        if node.kind() == "prim::Uninitialized":  # a tuple placeholder, lowered to n values
            return [None] * n
        if not isinstance(out, (list, tuple)) or len(out) != n:
            raise self.unsupported(node, f"evaluated to {type(out).__name__}, expected {n} values")
        return list(out)

    def put_outputs(self, node, pairs: Sequence[Tuple[Any, Any]]) -> None:
        for v, pair in zip(node.outputs(), pairs):
            self.put(v, *pair)

    # -- ATen operators on run-time tensors ------------------------------------------------
    def convert(self, idx: int, node, values: List[Any], examples: List[Any]) -> None:
        import torch
        kind = node.kind()
        target = _eval.overload(node)
        if target is None:
            return self.missing_op(node, "no schema")
        name = _label(node)
        args, kwargs = _eval.call_args(target, [_clone(e) for e in examples])
        try:
            with torch.no_grad():
                out_example = target(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            raise self.unsupported(node, f"PyTorch raised {type(e).__name__} on tensors of the given "
                                         f"shapes: {str(e)[:300]}") from None
        conv_target, conv = target, _converter(target)
        if conv is None and _functional(target) is not None:
            conv_target = _functional(target)
            conv = _converter(conv_target)
        fake = _Node(conv_target, name, out_example, kind)
        if conv is None:
            return self.missing_op(node, "no converter", fake)
        a = {arg.name: v for arg, v in zip(target._schema.arguments, values)}
        self.jit_node = node
        result = conv(_Ctx(self, fake, a))
        self.set_span(result, self.span_of(fake, idx))
        outs = [(result, out_example)] if node.outputsSize() == 1 else list(zip(result, out_example))
        self.put_outputs(node, outs)
        first = values[0] if values else None
        if not isinstance(first, (_TV, torch.Tensor)):
            return
        if _views.writes_self(target) and isinstance(result, _TV):
            self.views.write(self, node, result, out_example)  # the input (and its base) is the result now
        elif _views.returns_view(target) or _views.returns_views(target):
            self.views.record(node, target, examples, tuple(first.shape))

    def run_custom(self, node, values: List[Any], examples: List[Any]) -> None:
        """A ``custom_convert_map`` entry, called as TVM calls it: ``fn(inputs, input_types)``."""
        import torch
        target = _eval.overload(node)
        if target is None:
            raise self.unsupported(node, "a custom converter needs an operator with a schema")
        args, kwargs = _eval.call_args(target, [_clone(e) for e in examples])
        with torch.no_grad():
            out_example = target(*args, **kwargs)
        inputs = [v.expr if isinstance(v, _TV) else v for v in values]
        types = [v.dtype if isinstance(v, _TV) else type(v).__name__ for v in values]
        expr = self.custom[node.kind()](inputs, types)
        if not isinstance(out_example, torch.Tensor) or not isinstance(expr, E.Expr):
            raise self.unsupported(node, "a custom converter must return one Relay expression for "
                                         "an operator with one tensor result")
        shape, dtype = self.tensor_type(out_example, _Node(target, _label(node), out_example, node.kind()))
        self.put_outputs(node, [(_TV(expr, shape, dtype), out_example)])

    def missing_op(self, node, why: str, fake=None) -> None:
        """Records an operator without a converter; conversion goes on with a stand-in so that
        every missing operator is reported at once (as TVM 0.19 does)."""
        import torch
        self.missing.setdefault(node.kind(), _label(node))
        for v in node.outputs():
            val = fake.meta["val"] if fake is not None and node.outputsSize() == 1 else None
            if isinstance(val, torch.Tensor):
                shape, dtype = tuple(val.shape), str(val.dtype).replace("torch.", "")
                self.put(v, _TV(E.var("missing", shape=shape, dtype=dtype), shape, dtype), val)
            else:
                self.put(v, None, None)


def _label(node) -> str:
    return node.outputsAt(0).debugName() if node.outputsSize() else node.kind()


def _clone(e: Any) -> Any:
    """Examples are cloned before an operator runs on them (in-place operators)."""
    import torch
    if isinstance(e, torch.Tensor):
        return e.detach().clone()
    if isinstance(e, list):
        return [_clone(x) for x in e]
    if isinstance(e, tuple):
        return tuple(_clone(x) for x in e)
    return e

