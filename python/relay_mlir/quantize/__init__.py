"""Automatic quantization, as TVM 0.19's ``tvm.relay.quantize``.

``qconfig(...)`` (a context manager) and ``current_qconfig()`` hold the settings;
``quantize(mod, params, dataset)`` turns a float ``main`` into int8 convolutions and dense
layers with int32 accumulation, shifts or fixed-point multiplications between layers, and
float where TVM keeps float; ``prerequisite_optimize`` runs its preparatory passes. The
stages are ``partition``, ``annotate``, ``calibrate`` and ``realize`` (functions on a
``main``: TVM's passes, ``calibrate(dataset)`` a module-pass function). See
docs/quantization.md.
"""
from ..expr import Call, Op
from .calibration import collect_stats
from .config import QAnnotateKind, QConfig, current_qconfig, qconfig
from .forward_rewrite import post_order
from .kl_divergence import find_threshold_by_kl
from .passes import annotate, calibrate, partition, realize
from .pipeline import prerequisite_optimize, quantize

__all__ = ["QAnnotateKind", "QConfig", "annotate", "calibrate", "calls", "collect_stats",
           "current_qconfig", "find_threshold_by_kl", "partition", "prerequisite_optimize",
           "qconfig", "quantize", "realize"]


def calls(fn):
    """The operator calls of ``fn``'s body, operands first."""
    return [e for e in post_order(fn.body) if isinstance(e, Call) and isinstance(e.op, Op)]
