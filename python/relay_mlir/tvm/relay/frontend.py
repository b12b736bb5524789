"""``tvm.relay.frontend``: ``from_onnx`` and ``from_pytorch`` with TVM 0.19's signatures.

Both return ``(mod, params)`` as TVM does: ``mod`` an ``IRModule`` whose ``main``
takes the model's inputs (then its weights, when they are parameters), ``params`` a
dict from weight names to ``tvm.nd.NDArray``. The importers behind them are
relay-mlir's own: ``relay_mlir.frontend.onnx`` and the TorchScript importer
``relay_mlir.frontend.torchscript``.

TVM 0.19 behaviour mirrored (measured in the side venv on small models):

* ``from_onnx(model, shape=None, dtype="float32", opset=None, freeze_params=True,
  convert_config=None, export_node_renamed_model_path=None)``: with
  ``freeze_params=True`` (the default) initializers are constants and ``params`` is
  ``{}``; with ``False`` ``main`` takes the graph inputs, then one Var per initializer
  the program uses, named after it, in the graph's initializer order, and ``params``
  holds every initializer (also one consumed at import time, such as a Reshape's
  shape). ``shape`` maps input names to shapes that replace the model's (a name not
  among the graph inputs is an error); dims without a value (``relay.Any()``, ``None``,
  ``-1``, ``"?"``) and the model's symbolic dims are ``?``. A string ``dtype`` is
  ignored (TVM 0.19 keeps the model's input types); a dict replaces the types of the
  inputs it names. ``opset`` replaces the model's default-domain opset;
  ``convert_config`` (TVM's converter options) does not change results here.
  ``export_node_renamed_model_path`` is a directory where the model is saved with
  its unnamed nodes named ``<op_type>_<n>`` (TVM's ``tvm_exported_model_<time>.onnx``).
* ``from_pytorch(script_module, input_infos, custom_convert_map=None,
  default_dtype="float32", use_parser_friendly_name=False, keep_quantized_weight=False,
  export_renamed_c_graph_path=None, preserve_pytorch_scopes=False)``: see
  ``relay_mlir.frontend.torchscript.from_torchscript`` for the names TVM gives the
  weights (``aten::_convolution_0.weight``) and the order of ``main``'s parameters.

Example::

    >>> import numpy as np, onnx
    >>> from onnx import helper, numpy_helper, TensorProto
    >>> w = numpy_helper.from_array(np.ones((2, 3), "float32"), "w")
    >>> g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
    ...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2])],
    ...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])], [w])
    >>> m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    >>> mod, params = from_onnx(m, freeze_params=False)
    >>> [p.name_hint for p in mod["main"].params], params["w"].shape
    (['x', 'w'], (2, 3))
"""
from __future__ import annotations

import copy
import os
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

__all__ = ["from_onnx", "from_pytorch", "from_tflite"]


def _as_ndarrays(params: Mapping[str, np.ndarray]) -> Dict[str, Any]:
    from ..runtime.ndarray import array
    return {name: array(np.asarray(v)) for name, v in params.items()}


def _onnx_dims(name: str, dims: Sequence[object]) -> list:
    """A shape from ``from_onnx``'s ``shape`` dict as the ONNX importer's dims."""
    if isinstance(dims, (int, np.integer)) or isinstance(dims, str):
        raise ValueError(f"from_onnx: shape['{name}'] must be a sequence of dims, got {dims!r}")
    out = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)):
            raise ValueError(f"from_onnx: shape['{name}'] has a bool dim {d!r}; expected ints")
        if isinstance(d, (int, np.integer)):
            out.append(None if int(d) == -1 else int(d))
        elif d is None or type(d).__name__ == "Any" or d == "?":
            out.append(None)
        elif isinstance(d, str):
            out.append(d)
        else:
            raise ValueError(f"from_onnx: shape['{name}'] has dim {d!r}; expected ints, relay.Any() or None")
    return out


def _with_opset(model, opset: int):
    """``model`` converted as opset ``opset`` (TVM warns when that is below the model's)."""
    import warnings
    m = copy.deepcopy(model)
    for imp in m.opset_import:
        if imp.domain in ("", "ai.onnx"):
            if int(opset) < imp.version:
                warnings.warn(f"You are overwritting original opset ver = {imp.version} by lower ver = "
                              f"{opset}. That might cause model conversion errors.")
            imp.version = int(opset)
    return m


def _export_renamed(model, directory: str) -> None:
    """Saves ``model`` with its unnamed nodes named ``<op_type>_<n>`` as TVM 0.19 does."""
    import datetime
    import onnx
    m = copy.deepcopy(model)
    counts: Dict[str, int] = {}
    for node in m.graph.node:
        if not node.name:
            counts[node.op_type] = counts.get(node.op_type, -1) + 1
            node.name = f"{node.op_type}_{counts[node.op_type]}"
    os.makedirs(directory, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%m_%d_%Y_%H_%M_%S")
    onnx.save(m, os.path.join(directory, f"tvm_exported_model_{stamp}.onnx"))


def from_onnx(model, shape: Optional[Mapping[str, Sequence[object]]] = None, dtype="float32",
              opset: Optional[int] = None, freeze_params: bool = True,
              convert_config: Optional[Mapping[str, object]] = None,
              export_node_renamed_model_path: Optional[str] = None) -> Tuple[Any, Dict[str, Any]]:
    """Imports an ONNX ``ModelProto`` as ``(mod, params)`` (see the module docstring)."""
    import onnx
    from ...frontend import onnx as onnx_frontend
    if not isinstance(model, onnx.ModelProto):
        raise TypeError(f"from_onnx takes an onnx.ModelProto, got {type(model).__name__}")
    inputs = {vi.name for vi in model.graph.input} - {t.name for t in model.graph.initializer}
    shapes = {}
    for name, dims in (shape or {}).items():
        if name not in inputs:
            raise ValueError(f"from_onnx: shape given for '{name}', which is not a graph input "
                             f"(inputs: {sorted(inputs)})")
        shapes[name] = _onnx_dims(name, dims)
    if convert_config is not None and not isinstance(convert_config, Mapping):
        raise TypeError(f"from_onnx: convert_config must be a dict, got {type(convert_config).__name__}")
    dtypes = None
    if isinstance(dtype, Mapping):
        unknown = sorted(set(dtype) - inputs)
        if unknown:
            raise ValueError(f"from_onnx: dtype given for {unknown}, which are not graph inputs "
                             f"(inputs: {sorted(inputs)})")
        dtypes = {k: str(v) for k, v in dtype.items()}
    elif not isinstance(dtype, str):
        raise TypeError(f"from_onnx: dtype must be a string or a dict, got {type(dtype).__name__}")
    if opset is not None:
        model = _with_opset(model, opset)
    if export_node_renamed_model_path:
        _export_renamed(model, export_node_renamed_model_path)
    if freeze_params:
        return onnx_frontend.from_onnx(model, shapes, dtypes), {}
    mod, params = onnx_frontend.import_with_params(model, shapes, dtypes)
    return mod, _as_ndarrays(params)


def from_pytorch(script_module, input_infos, custom_convert_map=None, default_dtype: str = "float32",
                 use_parser_friendly_name: bool = False, keep_quantized_weight: bool = False,
                 export_renamed_c_graph_path: Optional[str] = None,
                 preserve_pytorch_scopes: bool = False) -> Tuple[Any, Dict[str, Any]]:
    """Imports a TorchScript module (``torch.jit.trace`` or ``torch.jit.script``) as
    ``(mod, params)``: ``main`` takes the inputs named in ``input_infos`` (``[(name,
    shape)]`` or ``[(name, (shape, dtype))]``), then the module's weights; ``params`` maps
    the weights' TVM names to NDArrays. See ``relay_mlir.frontend.torchscript``."""
    from ...frontend.torchscript import from_torchscript
    mod, params = from_torchscript(
        script_module, input_infos, custom_convert_map=custom_convert_map, default_dtype=default_dtype,
        use_parser_friendly_name=use_parser_friendly_name, keep_quantized_weight=keep_quantized_weight,
        export_renamed_c_graph_path=export_renamed_c_graph_path,
        preserve_pytorch_scopes=preserve_pytorch_scopes)
    return mod, _as_ndarrays(params)


def from_tflite(model, shape_dict=None, dtype_dict=None, op_converter=None) -> Tuple[Any, Dict[str, Any]]:
    """TVM 0.19's ``relay.frontend.from_tflite``: ``model`` a ``tflite.Model`` (also
    accepted here: the ``.tflite`` bytes or path); ``shape_dict`` / ``dtype_dict`` by input
    tensor name. Weights are constants, so ``params`` is ``{}`` (TVM returns them as
    ``_param_N``; its ``op_converter`` hook is not supported). See
    ``relay_mlir.frontend.tflite``."""
    from ...frontend.tflite import from_tflite as _from_tflite
    if op_converter is not None:
        raise NotImplementedError("from_tflite: a custom op_converter is not supported")
    mod, params = _from_tflite(model, shape_dict, dtype_dict)
    return mod, _as_ndarrays(params)
