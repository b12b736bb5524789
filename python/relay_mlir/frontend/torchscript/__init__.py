"""``from_torchscript``: a TorchScript module (``torch.jit.trace`` or ``torch.jit.script``)
to Relay, as TVM 0.19's ``relay.frontend.from_pytorch`` imports it.

* The graph is prepared as TVM prepares it (calls inlined, tuples lowered when no
  input is a tuple or list), then walked node by node (``_importer``): ATen
  operators on run-time tensors are converted by this package's converters
  (``_registry``: fused attention kernels, GRU, ops torch.export decomposes) or
  else those of ``relay_mlir.frontend.torch`` (the torch.export importer; one
  converter per op); everything known at import time is evaluated, including a
  scripted module's ``if`` on ``self.training`` or on shapes, and loops with a
  known trip count (unrolled, at most 10000 iterations). In-place writes follow
  TorchScript's aliasing (``_views``: ``acc[i] = x`` changes ``acc``).
* ``main`` takes the inputs named by ``input_infos`` (``[(name, shape)]`` or
  ``[(name, (shape, dtype))]``; as in TVM the traced graph's dtype wins, then the
  given one (TVM's or PyTorch's names: ``"int64"``, ``"long"``), then
  ``default_dtype``; trailing inputs of a scripted ``forward`` with defaults, such
  as ``src_mask=None``, may be left out and take them), then the module's weights
  as TVM orders them: in the order the program first uses them.
* Weights are named as TVM names them (``_names``): ``aten::_convolution_0.weight``
  for a traced conv, ``aten::linear_1.bias``; ``use_parser_friendly_name=True``
  gives ``aten___convolution_0_weight``; ``preserve_pytorch_scopes=True`` names them
  after the module path (``layer1.0.conv1.weight``). Weights a scripted module
  reads through a list attribute (``nn.LSTM``'s ``_flat_weights``) are named by
  their state-dict key. ``export_renamed_c_graph_path`` is a directory where the
  renamed graph is written (``tvm_exported_c_graph_<time>.txt``), as TVM does.
* The second result maps the weights' names to their values (numpy arrays; the
  TVM-shaped ``from_pytorch`` makes them NDArrays), every weight a GetAttr reads,
  in TVM's order.
* Operators without a converter are reported together, as TVM does: ``the
  following operators are not implemented: ['aten::foo', ...]`` (an
  ``UnsupportedError``). An ``if`` on a run-time boolean (``bool(x.sum() > 0)``)
  becomes a Relay ``If`` of both branches (as in TVM); a loop whose trip count or
  condition is known only at run time a Relay loop (a private global function
  ``loop<n>`` calling itself, carrying tensors of a fixed type); a run-time number used
  as a size (``int(x.sum())``) is an ``UnsupportedError`` naming the node.

Differences from TVM 0.19: scripted modules work (TVM 0.19 lacks ``aten::conv2d``,
``aten::dim`` and ``aten::format`` for them); input dims may be ``relay.Any()`` (TVM 0.19
refuses them: "Shape for Tensors must be lists of ints"): the graph is imported with two
example sizes for them and must give the same program (so ``flatten``, ``view(x.size(0),
-1)`` pass, ``view(2, -1)`` or ``torch.zeros(x.shape[0])`` are refused); quantized
models are not supported (``keep_quantized_weight`` is accepted and has no effect on float
models). Weight names TVM would give two
different weights (and so merge them, giving wrong results) are kept apart.

Example::

    >>> import torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval()
    >>> mod, params = from_torchscript(torch.jit.trace(net, torch.zeros(2, 4)), [("x", (2, 4))])
    >>> [p.name_hint for p in mod["main"].params]
    ['x', 'aten::linear_0.weight', 'aten::linear_0.bias']
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ... import expr as E
from ...analysis import free_vars
from ...dataflow_pattern.structural import structural_equal
from ...module import IRModule
from ...ty import Any as AnyDim
from ..common import UnsupportedError
from ..torch_ops._base import _TV
from ._importer import TorchScriptImporter
from ._names import source_names, weight_names

__all__ = ["from_torchscript"]


def _prepare(graph):
    """TVM's ``_run_jit_passes`` on a copy: inline calls; lower tuples unless an input is a
    tuple or list. Where PyTorch cannot lower them (a scripted LSTM's ``prim::TupleIndex``,
    where TVM fails) the tuples stay: the importer handles them."""
    import torch
    graph = graph.copy()
    torch._C._jit_pass_onnx_function_substitution(graph)
    if any(v.type().kind() in ("TupleType", "ListType") for v in graph.inputs()):
        return graph
    lowered = graph.copy()
    try:
        torch._C._jit_pass_lower_all_tuples(lowered)
    except RuntimeError:
        return graph
    return lowered


def _export_graph(graph, directory: str) -> None:
    """TVM's ``export_renamed_c_graph_path``: the renamed graph's text in
    ``<directory>/tvm_exported_c_graph_<time>.txt``."""
    import datetime
    import os
    os.makedirs(directory, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%m_%d_%Y_%H_%M_%S")
    with open(os.path.join(directory, f"tvm_exported_c_graph_{stamp}.txt"), "w") as f:
        f.write(str(graph))


def _defaults(script_module, n: int) -> List[Any]:
    """The default values of the trailing inputs of ``forward`` that have one (scripted)."""
    try:
        args = list(script_module.forward.schema.arguments)[-n:] if n else []
    except AttributeError:
        return []
    out: List[Any] = []
    for a in reversed(args):
        if not a.has_default_value():
            break
        out.insert(0, a.default_value)
    return out


def _input_info(info: Any, graph_input, default_dtype: str) -> Tuple[str, Tuple[Any, ...], str]:
    """(name, shape, dtype) of one ``input_infos`` entry; ``relay.Any()`` dims stay ``Any``."""
    if not isinstance(info, (tuple, list)) or len(info) != 2 or not isinstance(info[0], str):
        raise ValueError(f"from_pytorch: an input_infos entry must be (name, shape) or "
                         f"(name, (shape, dtype)), got {info!r}")
    name, spec = info
    dtype = None
    if isinstance(spec, (tuple, list)) and len(spec) == 2 and isinstance(spec[1], str):
        spec, dtype = spec
    try:
        shape = tuple(d if isinstance(d, AnyDim) else int(d) for d in spec)
    except (TypeError, ValueError):
        raise ValueError(f"from_pytorch: input '{name}' has shape {spec!r}; expected a sequence of ints "
                         "and relay.Any()") from None
    if any(not isinstance(d, AnyDim) and d < 0 for d in shape):
        raise ValueError(f"from_pytorch: input '{name}' has shape {shape}; dims must be >= 0 "
                         "(or relay.Any() for a size known at run time)")
    # TVM 0.19: the graph's own type (a traced input's) wins over the given one
    st = graph_input.type().scalarType() if graph_input.type().kind() == "TensorType" else None
    dtype = st or dtype or default_dtype
    canonical = _DTYPE_NAMES.get(str(dtype).lower().replace("torch.", ""))
    if canonical is None:
        raise ValueError(f"from_pytorch: input '{name}' has dtype {dtype!r}; expected one of "
                         f"{sorted(set(_DTYPE_NAMES.values()))} (or PyTorch's names: float, long, int, ...)")
    return name, shape, canonical


def _standin(shape: Tuple[Any, ...], which: int) -> Tuple[int, ...]:
    """The example size of each ``relay.Any()`` dim for import number ``which`` (0 or 1):
    a batch dim (the first) 2 or 3, any other 33 or 35 (big enough for pooling)."""
    return tuple((_STANDINS[0 if i == 0 else 1][which] if isinstance(d, AnyDim) else d)
                 for i, d in enumerate(shape))


_STANDINS = ((2, 3), (33, 35))


# TVM's _convert_data_type: PyTorch's scalar type names and TVM's
_DTYPE_NAMES = {"double": "float64", "float64": "float64", "float": "float32", "float32": "float32",
                "half": "float16", "float16": "float16", "long": "int64", "int64": "int64",
                "int": "int32", "int32": "int32", "short": "int16", "int16": "int16", "char": "int8",
                "int8": "int8", "byte": "uint8", "uint8": "uint8", "bool": "bool"}


def _result(imp: TorchScriptImporter, value: Any) -> E.Expr:
    """A graph output as a Relay expression (lists and tuples become tuples)."""
    import torch
    if isinstance(value, _TV):
        return value.expr
    if isinstance(value, (list, tuple)):
        return E.Tuple([_result(imp, v) for v in value])
    if isinstance(value, torch.Tensor):
        arr = value.detach().cpu().contiguous().numpy()
        return E.const(arr, arr.dtype.name)
    raise UnsupportedError(f"TorchScript model '{imp.source}': an output is a {type(value).__name__}; "
                           "outputs must be tensors (or tuples/lists of tensors)")


def from_torchscript(script_module, input_infos: Sequence[Any], custom_convert_map=None,
                     default_dtype: str = "float32", use_parser_friendly_name: bool = False,
                     keep_quantized_weight: bool = False, export_renamed_c_graph_path: Optional[str] = None,
                     preserve_pytorch_scopes: bool = False) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """Imports a ``torch.jit.ScriptModule``/``ScriptFunction`` as ``(IRModule, {name: array})``.

    ``relay.Any()`` dims (TVM 0.19 accepts them): the graph is imported twice with
    different example sizes for them (``_standin``); the two programs must be the same
    (``structural_equal`` and the same text), which proves that no example size was
    baked into the program, else an ``UnsupportedError`` says so."""
    import torch
    if not isinstance(script_module, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
        raise TypeError(f"from_pytorch takes a TorchScript module (torch.jit.trace or torch.jit.script), "
                        f"got {type(script_module).__name__}")
    options = dict(custom_convert_map=custom_convert_map, default_dtype=default_dtype,
                   use_parser_friendly_name=use_parser_friendly_name,
                   preserve_pytorch_scopes=preserve_pytorch_scopes)
    mod, arrays, dynamic = _import_once(script_module, input_infos, 0, export_renamed_c_graph_path, **options)
    if dynamic:
        other, _, _ = _import_once(script_module, input_infos, 1, None, **options)
        if not (structural_equal(mod["main"], other["main"]) and mod.astext() == other.astext()):
            raise UnsupportedError(
                f"from_pytorch: the model uses the size of a relay.Any() dim of input(s) "
                f"{', '.join(dynamic)} as a number at import time (e.g. x.view(x.size(0), -1), "
                "torch.zeros(x.shape[0], ...)), so its Relay program would hold one size; give "
                "static shapes, or write the model with size-free operators (torch.flatten(x, 1), "
                "reshape with -1)", "aten::size", None, None)
    return mod, arrays


def _import_once(script_module, input_infos: Sequence[Any], which: int, export_path: Optional[str],
                 custom_convert_map=None,
                 default_dtype: str = "float32", use_parser_friendly_name: bool = False,
                 preserve_pytorch_scopes: bool = False) -> Tuple[IRModule, Dict[str, np.ndarray], List[str]]:
    """One import, ``relay.Any()`` dims given example sizes number ``which`` (``_standin``);
    also returns the names of the inputs with such dims. ``export_path``: see
    ``export_renamed_c_graph_path``."""
    import torch
    is_module = isinstance(script_module, torch.jit.ScriptModule)
    source = getattr(script_module, "original_name", None) or type(script_module).__name__
    graph = _prepare(script_module.graph)
    graph_inputs = list(graph.inputs())[1 if is_module else 0:]
    infos = list(input_infos)
    defaults = _defaults(script_module, len(graph_inputs))
    if not len(graph_inputs) - len(defaults) <= len(infos) <= len(graph_inputs):
        raise ValueError(f"from_pytorch: the model takes {len(graph_inputs)} input(s) "
                         f"({', '.join(v.debugName() for v in graph_inputs)}; the last {len(defaults)} "
                         f"with defaults), input_infos gives {len(infos)}")
    state = {k: v for k, v in script_module.state_dict().items()} if is_module else {}
    sources = source_names(graph, use_parser_friendly_name, preserve_pytorch_scopes)
    by_value, by_name = weight_names(graph, state.keys(), sources, use_parser_friendly_name)
    imp = TorchScriptImporter(source, by_value, {n: state[k] for n, k in by_name.items()},
                              custom_convert_map)
    imp.grad_enabled = torch.is_grad_enabled()
    imp.state_tensors = state
    imp.state_keys = {t.data_ptr(): k for k, t in state.items() if t.numel()}
    if is_module:
        self_value = list(graph.inputs())[0]
        imp.put(self_value, script_module, script_module)
    params: List[E.Var] = []
    dynamic: List[str] = []
    for info, gi in zip(infos, graph_inputs):
        name, shape, dtype = _input_info(info, gi, default_dtype)
        example = _standin(shape, which)
        if example != shape:
            dynamic.append(name)
        v = E.var(name, shape=shape, dtype=dtype)
        params.append(v)
        imp.put(gi, _TV(v, example, dtype), torch.zeros(example, dtype=getattr(torch, dtype)))
    imp.any_dims = bool(dynamic)
    for gi, value in zip(graph_inputs[len(infos):], defaults[len(defaults) - (len(graph_inputs) - len(infos)):]):
        imp.put(gi, value, value)  # an input left out takes its default (a scripted mask=None)
    outs = imp.run_block(graph, [])
    if imp.missing:
        raise UnsupportedError(f"TorchScript model '{source}': the following operators are not implemented: "
                               f"{sorted(imp.missing)} (first at "
                               f"{', '.join('%' + imp.missing[k] for k in sorted(imp.missing))})",
                               sorted(imp.missing)[0], None, None)
    body = _result(imp, outs[0][0]) if len(outs) == 1 else E.Tuple([_result(imp, o[0]) for o in outs])
    weights = [v for v in free_vars(body) if v not in params]
    mod = IRModule.from_expr(E.Function(params + weights, body))
    for gv, fn in imp.loops:
        mod[gv] = fn
    if export_path:
        _export_graph(graph, export_path)
    # TVM's params: every weight a GetAttr reads, in the order TorchScript lists those nodes
    arrays = {n: t.detach().cpu().contiguous().numpy() for n, t in imp.state.items()}
    return mod, arrays, dynamic
