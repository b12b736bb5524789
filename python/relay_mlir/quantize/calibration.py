"""Calibrate: give every simulated quantization its scale and clip bounds (TVM 0.19's
``calibrate``, _calibrate.py).

Weights (constants): ``weight_scale="power2"`` takes max|w| rounded up to a power of two
(1.0 for an all-zero tensor), ``"max"`` max|w|. Other values by ``calibrate_mode``:
``"global_scale"`` uses ``global_scale`` for all; ``"kl_divergence"`` and ``"percentile"``
run the float graph on the calibration ``dataset`` (a list of ``{input name: array}``) and
take, per quantization point over all batches, the KL-minimising threshold or the 0.99999
quantile of |x|. A point of ``nbit`` bits gets ``dom_scale = scale / 2^(nbit-1)`` and clips
to ±(2^(nbit-1) − 1) (float32 scalars).
"""
from __future__ import annotations

import math
from typing import Dict, List, Mapping

import numpy as np

from ..expr import Call, Constant, Expr, Function, Tuple, Var, const
from ..executor import create_executor
from ..module import IRModule
from ..ty import TensorType
from .config import QAnnotateKind, current_qconfig
from .forward_rewrite import forward_rewrite, post_order
from .hints import HINT_RULES, SIMULATED_QUANTIZE, is_simulated_quantize
from .kl_divergence import find_threshold_by_kl

__all__ = ["calibrate", "collect_stats", "check_dataset"]


def _power2_scale(w: np.ndarray) -> float:
    top = float(np.max(np.abs(w)))
    return 2.0 ** math.ceil(math.log(top, 2)) if top > 0 else 1.0


def _max_scale(w: np.ndarray) -> float:
    return float(np.max(np.abs(w)))


def _percentile(values: np.ndarray, percentile: float = 0.99999) -> float:
    x = np.abs(values)
    k = int(x.size * percentile)
    return float(np.partition(x, k)[k])


def check_dataset(fn: Function, dataset: object) -> List[List[np.ndarray]]:
    """The batches as argument lists in ``fn``'s parameter order; a clear error for a batch
    that is not a mapping, lacks an input, or has a wrong shape or dtype."""
    if dataset is None:
        raise ValueError(f"relay.quantize: calibrate_mode {current_qconfig().calibrate_mode!r} "
                         "needs a dataset: a list of {input name: array} batches")
    batches = []
    for n, batch in enumerate(dataset):  # type: ignore[union-attr]
        if not isinstance(batch, Mapping):
            raise TypeError(f"relay.quantize: calibration batch {n} must be a dict "
                            f"{{input name: array}}, got {type(batch).__name__}")
        args = []
        for p in fn.params:
            args.append(_checked_input(n, p, batch))
        batches.append(args)
    if not batches:
        raise ValueError("relay.quantize: the calibration dataset is empty")
    return batches


def _checked_input(n: int, p: Var, batch: Mapping) -> np.ndarray:
    if p.name_hint not in batch:
        raise ValueError(f"relay.quantize: calibration batch {n} has no input '{p.name_hint}' "
                         f"(it has: {', '.join(map(str, batch)) or 'none'})")
    value = batch[p.name_hint]
    value = np.asarray(value.numpy() if hasattr(value, "numpy") else value)  # NDArray or numpy
    t = p.type_annotation if p.type_annotation is not None else p._checked_type
    if not isinstance(t, TensorType):
        return value  # an untyped input: the float graph's run checks it
    dims = tuple(d if isinstance(d, int) else None for d in t.shape)  # None: a dynamic dim
    fits = value.ndim == len(dims) and all(d is None or d == g for d, g in zip(dims, value.shape))
    if not fits or value.dtype != np.dtype(t.dtype):
        shape = str(tuple(dims)).replace("None", "?")
        raise ValueError(f"relay.quantize: calibration batch {n}, input '{p.name_hint}': "
                         f"expected a {t.dtype} array of shape {shape}, got {value.dtype} "
                         f"{value.shape}")
    return value


def collect_stats(fn: Function, dataset: object) -> List[np.ndarray]:
    """The values reaching each non-weight quantization point (post order), flattened and
    concatenated over the dataset's batches, from the float graph (TVM's stats collector)."""
    points: List[Expr] = []

    def identity(call: Call, args):
        if call.attrs["kind"] != QAnnotateKind.WEIGHT:
            points.append(args[0])
        return args[0]

    forward_rewrite(fn, {**HINT_RULES, SIMULATED_QUANTIZE: identity})
    batches = check_dataset(fn, dataset)
    if not points:
        return []
    profile = Function(list(fn.params), Tuple(points))
    run = create_executor("debug", IRModule.from_expr(profile)).evaluate()
    outputs = [run(*args) for args in batches]
    return [np.concatenate([np.asarray(o[i]).reshape(-1) for o in outputs])
            for i in range(len(points))]


def _weight(e: Expr) -> np.ndarray:
    if not isinstance(e, Constant):
        raise ValueError("relay.quantize: a quantized weight must be a constant after "
                         f"prerequisite_optimize (bind it through params=...), got {e!r}")
    return e.data


def _input_scales(fn: Function, dataset: object) -> List[float]:
    mode = current_qconfig().calibrate_mode
    if mode == "global_scale":
        return []
    find = find_threshold_by_kl if mode == "kl_divergence" else _percentile
    return [find(values) for values in collect_stats(fn, dataset)]


def calibrate(fn: Function, dataset: object = None) -> Function:
    """``fn`` (annotated) with its quantization points' scale and clip variables bound."""
    cfg = current_qconfig()
    weight_scale = _power2_scale if cfg.weight_scale == "power2" else _max_scale
    measured = iter(_input_scales(fn, dataset))
    binding: Dict[Var, Expr] = {}
    for e in post_order(fn.body):
        if not is_simulated_quantize(e):
            continue
        kind = e.attrs["kind"]
        if kind == QAnnotateKind.WEIGHT:
            scale = weight_scale(_weight(e.args[0]))
        elif cfg.calibrate_mode == "global_scale":
            scale = cfg.global_scale
        else:
            scale = next(measured)
        valid_range = 2 ** (cfg.get_nbit_by_kind(kind) - int(e.attrs["sign"]))
        for v, value in zip(e.args[1:], (scale / valid_range, -(valid_range - 1), valid_range - 1)):
            binding[v] = const(np.float32(value))
    return _bind(fn, binding)


def _bind(fn: Function, binding: Dict[Var, Expr]) -> Function:
    def visit(e: Expr):
        return binding.get(e, e) if isinstance(e, Var) else e

    return forward_rewrite(fn, {}, leaf=visit)
