"""``from_torch``: a PyTorch ``nn.Module`` to a Relay ``IRModule`` through ``torch.export``.

* the module is exported with ``torch.export.export`` in eval mode (dropout
  is the identity, batch norm uses its running statistics) and, with
  ``decompose=True``, lowered further to core ATen by
  ``run_decompositions()``; both op sets are converted;
* tensor inputs of ``forward`` become parameters of ``main`` (named after
  ``forward``'s arguments; the example inputs fix shapes and dtypes), and
  parameters, buffers and tensor constants become constants;
* each ATen op is converted to Relay ops by the converter registered for it
  in ``torch_ops/<family>.py`` (``supported_ops()`` lists them); ops whose tensor inputs are all constants
  (``arange``, ``zeros``, a permuted weight, ...) are evaluated by PyTorch
  at import time;
* ``nn.LSTM`` (``aten.lstm``) is unrolled over its fixed sequence length into
  ``dense``/``split``/``sigmoid``/``tanh``;
* every Relay expression built for a node carries the node's place in the
  model's Python source (from ``torch.export``'s stack trace) as its
  location, so diagnostics point at the ``forward`` line;
* an ATen op without a converter, or an argument form that cannot be
  converted exactly, raises ``UnsupportedError`` naming the op (e.g.
  ``aten.grid_sampler.default``) and the FX node.

Example::

    >>> import torch
    >>> from relay_mlir.frontend import from_torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU())
    >>> mod = from_torch(net, (torch.zeros(2, 4),))
    >>> mod["main"].params[0].type_annotation
    TensorType([2, 4], float32)
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from .common import ImportError_, UnsupportedError
from .torch_ops import supported_ops
from .torch_ops._base import (_CONVERTERS, _Ctx, _TV, _dtype_name, _has_tv, _normalize, _op_name,
                              _packet)

__all__ = ["from_torch", "from_exported_program", "supported_ops"]


class _Importer:
    def __init__(self, ep, source: str) -> None:
        import torch
        self.torch = torch
        self.ep = ep
        self.source = source
        self.env: Dict[Any, Any] = {}
        self.spanned: set = set()

    # -- errors and types ------------------------------------------------------------
    def where(self, node) -> str:
        span = self.span_of(node, 0)
        return f"{span.filename}:{span.line}" if span.line else span.filename

    def unsupported(self, node, why: str) -> UnsupportedError:
        name = _op_name(node.target)
        return UnsupportedError(f"PyTorch {name} (node '{node.name}', at {self.where(node)}): {why}",
                                name, node.name, None)

    def tensor_type(self, val, node) -> Tuple[Tuple[int, ...], str]:
        torch = self.torch
        if not isinstance(val, torch.Tensor):
            raise self.unsupported(node, f"expected a tensor value, found {type(val).__name__}")
        shape = []
        for d in val.shape:
            if not isinstance(d, int):
                raise self.unsupported(node, f"dynamic (symbolic) shapes are not supported (dim {d}); "
                                             "export with static shapes")
            shape.append(d)
        try:
            dtype = _dtype_name(val.dtype)
        except ValueError:
            raise self.unsupported(node, f"dtype {val.dtype} is not supported") from None
        return tuple(shape), dtype

    def as_tv(self, v: Any, dtype: Optional[str], node) -> _TV:
        torch = self.torch
        if isinstance(v, _TV):
            if dtype is not None and v.dtype != dtype:
                return _TV(op.cast(v.expr, dtype), v.shape, dtype)
            return v
        if isinstance(v, torch.Tensor):
            arr = v.detach().cpu().contiguous().numpy()
            if dtype is not None:
                arr = arr.astype(dtype)
            return _TV(E.const(arr, arr.dtype.name), arr.shape, arr.dtype.name)
        if isinstance(v, (bool, int, float, np.number)):
            dt = dtype or ("bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float32")
            return _TV(E.const(np.array(v, dt), dt), (), dt)
        raise self.unsupported(node, f"expected a tensor operand, found {type(v).__name__}")

    # -- locations -------------------------------------------------------------------------
    def span_of(self, node, idx: int) -> E.Span:
        trace = node.meta.get("stack_trace") or ""
        frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
        frames = [f for f in frames if "/torch/" not in f[0]] or frames
        if frames:
            f, line = frames[-1]
            return E.Span(f, int(line), 1)
        return E.Span(f"{self.source}:{node.name}", idx + 1, 1)

    def set_span(self, root: Any, span: E.Span) -> None:
        stack = [root]
        while stack:
            e = stack.pop()
            if isinstance(e, _TV):
                e = e.expr
            if isinstance(e, (list, tuple)):
                stack.extend(e)
                continue
            if isinstance(e, E.TupleWrapper):
                e = e.astuple()
            if not isinstance(e, E.Expr) or id(e) in self.spanned or isinstance(e, (E.Var, E.Op)):
                continue
            self.spanned.add(id(e))
            e.span = span
            if isinstance(e, E.Call):
                stack.extend(e.args)
            elif isinstance(e, E.Tuple):
                stack.extend(e.fields)
            elif isinstance(e, E.TupleGetItem):
                stack.append(e.tuple_value)

    # -- graph ---------------------------------------------------------------------------------
    def lookup(self, a: Any) -> Any:
        import torch.fx as fx
        if isinstance(a, fx.Node):
            return self.env[a]
        if isinstance(a, tuple):
            return tuple(self.lookup(x) for x in a)
        if isinstance(a, list):
            return [self.lookup(x) for x in a]
        if isinstance(a, dict):
            return {k: self.lookup(v) for k, v in a.items()}
        return a

    def run(self) -> IRModule:
        from torch.export.graph_signature import InputKind, OutputKind
        ep, torch = self.ep, self.torch
        sig = ep.graph_signature
        specs = {s.arg.name: s for s in sig.input_specs}
        params: List[E.Var] = []
        graph = ep.graph_module.graph
        for idx, node in enumerate(graph.nodes):
            if node.op == "placeholder":
                spec = specs.get(node.name)
                kind = spec.kind if spec is not None else InputKind.USER_INPUT
                if kind == InputKind.USER_INPUT:
                    val = node.meta.get("val")
                    if not isinstance(val, torch.Tensor):
                        raise UnsupportedError(
                            f"PyTorch model '{self.source}': input '{node.name}' is not a tensor "
                            f"({type(val).__name__}); only tensor inputs are supported", None, node.name)
                    shape, dtype = self.tensor_type(val, node)
                    v = E.var(node.name, shape=shape, dtype=dtype)
                    v.span = self.span_of(node, idx)
                    params.append(v)
                    self.env[node] = _TV(v, shape, dtype)
                elif kind in (InputKind.PARAMETER, InputKind.BUFFER):
                    t = ep.state_dict[spec.target] if spec.target in ep.state_dict else ep.constants[spec.target]
                    self.env[node] = t.detach()
                elif kind == InputKind.CONSTANT_TENSOR:
                    self.env[node] = ep.constants[spec.target].detach()
                else:
                    raise UnsupportedError(f"PyTorch model '{self.source}': input '{node.name}' of kind "
                                           f"{kind.name} is not supported", None, node.name)
            elif node.op == "call_function":
                self.convert(idx, node)
            elif node.op == "output":
                outs = node.args[0]
                kinds = [s.kind for s in sig.output_specs]
                results = []
                for o, k in zip(outs, kinds):
                    if k != OutputKind.USER_OUTPUT:
                        raise UnsupportedError(f"PyTorch model '{self.source}': the model mutates "
                                               f"state ({k.name} output '{o}'); export it in eval mode",
                                               None, str(o))
                    v = self.lookup(o)
                    if v is None or not isinstance(v, (_TV, torch.Tensor)):
                        raise UnsupportedError(f"PyTorch model '{self.source}': output '{o}' is not a "
                                               "tensor", None, str(o))
                    results.append(self.as_tv(v, None, node).expr)
                body = results[0] if len(results) == 1 else E.Tuple(results)
                fn = E.Function(params, body)
                fn.span = E.Span(self.source, 0, 0)
                return IRModule.from_expr(fn)
            else:  # get_attr etc.
                raise UnsupportedError(f"PyTorch model '{self.source}': graph node '{node.name}' "
                                       f"({node.op}) is not supported", None, node.name)
        raise ImportError_(f"PyTorch model '{self.source}': the graph has no output")

    def convert(self, idx: int, node) -> None:
        import operator
        torch = self.torch
        target = node.target
        if target is operator.getitem:
            seq, i = self.lookup(node.args[0]), node.args[1]
            self.env[node] = seq[i]
            return
        if not hasattr(target, "_schema"):
            raise self.unsupported(node, "only ATen operators are supported")
        packet, overload = _packet(target)
        args = self.lookup(list(node.args))
        kwargs = self.lookup(dict(node.kwargs))
        # fold: every tensor input is a constant -> run the op in PyTorch
        if packet not in _NO_FOLD and not _has_tv(args) and not _has_tv(kwargs):
            with torch.no_grad():
                try:
                    self.env[node] = target(*args, **kwargs)
                    return
                except Exception:
                    pass  # e.g. an op PyTorch cannot run on CPU: convert it
        conv = _CONVERTERS.get(f"{packet}.{overload}") or _CONVERTERS.get(packet)
        if conv is None:
            raise self.unsupported(node, "no converter for this operator")
        a = _normalize(target, args, kwargs)
        result = conv(_Ctx(self, node, a))
        self.set_span(result, self.span_of(node, idx))
        self.env[node] = result


_NO_FOLD = {"dropout", "native_dropout", "rand", "randn", "rand_like", "randn_like", "randint",
            "bernoulli", "normal", "uniform", "empty", "empty_like"}


# ---------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------
def from_exported_program(ep, source: Optional[str] = None) -> IRModule:
    """Converts a ``torch.export.ExportedProgram`` (see ``from_torch``)."""
    return _Importer(ep, source or "exported_program").run()


def from_torch(module, example_args: Sequence[Any], example_kwargs: Optional[Mapping[str, Any]] = None,
               decompose: bool = False) -> IRModule:
    """Imports a PyTorch ``nn.Module`` (or an ``ExportedProgram``) as an ``IRModule``.

    Args:
      module: an ``nn.Module``; it is exported in eval mode (its training
        flag is restored afterwards). An ``ExportedProgram`` is converted as is.
      example_args: the inputs of ``forward`` (a tuple of tensors); their
        shapes and dtypes become those of ``main``'s parameters.
      example_kwargs: keyword inputs of ``forward``.
      decompose: lower to core ATen (``run_decompositions()``) before
        converting; the default keeps the higher-level ops (``linear``,
        ``conv2d``, ``layer_norm``, ``lstm``, ...) that map to single Relay ops.

    Raises ``UnsupportedError`` (a ``CompileError``) naming the ATen op and FX
    node of anything that cannot be converted exactly.
    """
    import torch
    if isinstance(module, torch.export.ExportedProgram):
        ep = module
        name = "exported_program"
    else:
        if not isinstance(module, torch.nn.Module):
            raise TypeError(f"from_torch takes a torch.nn.Module or an ExportedProgram, got "
                            f"{type(module).__name__}")
        name = type(module).__name__
        was_training = module.training
        module.eval()
        try:
            with torch.no_grad():
                ep = torch.export.export(module, tuple(example_args), dict(example_kwargs or {}))
        finally:
            module.train(was_training)
    if decompose:
        ep = ep.run_decompositions()
    return from_exported_program(ep, name)
