"""``relay.quantize.quantize``: TVM 0.19's automatic quantization pipeline.

``prerequisite_optimize(mod, params)`` binds ``params`` (by parameter name) into ``main`` and
runs ``Sequential([SimplifyInference, FoldConstant, FoldScaleAxis, CanonicalizeOps,
FoldConstant])`` in the current ``PassContext`` (TVM's default context is opt level 2, so
FoldScaleAxis and CanonicalizeOps — opt level 3 — do not run unless the caller raises it:
``nn.bias_add`` then stays, and stays float, as in TVM).
``quantize(mod, params=None, dataset=None)`` then partitions, annotates, calibrates (on
``dataset``: a list of ``{input name: array}``) and realizes ``main`` under the current
``qconfig``, and folds constants: TVM's Sequential of passes, in a PassContext of opt
level 3 that requires them. ``do_simulation=True`` stops before realize: the result
computes in float32 with the quantization error simulated.
"""
from __future__ import annotations

from typing import Dict, Mapping, Optional

import numpy as np

from ..expr import Expr, Function, Var, const
from ..module import IRModule
from ..pass_infra import PassContext, Sequential, module_pass
from ..transform import (CanonicalizeOps, FoldConstant, FoldScaleAxis, InferType,
                         SimplifyInference)
from .config import current_qconfig
from .forward_rewrite import forward_rewrite
from .passes import annotate, calibrate, partition, realize_or_simulate

__all__ = ["prerequisite_optimize", "quantize"]


def _bind_params(fn: Function, params: Mapping[str, object]) -> Function:
    by_name: Dict[str, Optional[Var]] = {}
    for p in fn.params:
        by_name[p.name_hint] = None if p.name_hint in by_name else p
    binding: Dict[Var, Expr] = {}
    for name, value in params.items():
        if name not in by_name:
            continue
        if by_name[name] is None:
            raise ValueError(f"relay.quantize: several parameters of main are named '{name}'")
        binding[by_name[name]] = const(np.asarray(getattr(value, "numpy", lambda: value)()))
    bound = forward_rewrite(fn, {}, leaf=lambda e: binding.get(e, e))
    return Function([p for p in fn.params if p not in binding], bound.body, fn.ret_type,
                    fn.type_params, fn.attrs)


def prerequisite_optimize(mod: IRModule, params: Optional[Mapping[str, object]] = None) -> IRModule:
    """``mod`` with ``params`` bound and TVM's pre-quantization passes run."""
    optimize = Sequential([SimplifyInference(), FoldConstant(), FoldScaleAxis(),
                           CanonicalizeOps(), FoldConstant()])
    if params:
        mod = IRModule.from_expr(_bind_params(mod["main"], params))
    return optimize(mod)


def quantize(mod: IRModule, params: Optional[Mapping[str, object]] = None,
             dataset: object = None) -> IRModule:
    """``mod`` quantized under ``current_qconfig()`` (see the module docstring).

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 4))
    >>> w = relay.const(np.eye(3, 4, dtype="float32"))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.dense(x, w)))
    >>> with relay.quantize.qconfig(skip_dense_layer=False):
    ...     q = relay.quantize.quantize(mod)
    >>> sorted({c.op.name for c in relay.quantize.calls(q["main"])})
    ['cast', 'clip', 'multiply', 'nn.dense', 'round']
    """
    if current_qconfig().partition_conversions != "disabled":
        raise NotImplementedError(
            "relay.quantize: partition_conversions="
            f"{current_qconfig().partition_conversions!r} (TVM's prefix/middle/suffix split) is "
            "not supported yet; use 'disabled'")
    mod = prerequisite_optimize(mod, params)
    calibrate_pass = module_pass(calibrate(dataset), opt_level=1, name="QuantizeCalibrate")
    stages = Sequential([partition(), annotate(), calibrate_pass, realize_or_simulate(),
                         FoldConstant()])
    with PassContext(opt_level=3, required_pass=["QuantizeAnnotate", "QuantizeCalibrate",
                                                 "QuantizeRealize"]):
        mod = stages(mod)
    return InferType()(mod)
