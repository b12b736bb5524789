"""Relay's optimizer as ``relay.build`` runs it: the passes, their order and opt levels.

TVM 0.19's ``relay.build`` optimizes a module with one pass sequence before lowering it
(recorded with a ``PassInstrument`` in the side venv, opt levels 0-4):

    RemoveUnusedFunctions, ToBasicBlockNormalForm, qnn.Legalize, Legalize, SimplifyInference,
    EliminateCommonSubexpr, CombineParallelConv2d, CombineParallelDense,
    CombineParallelBatchMatmul, FoldConstant, FoldScaleAxis, SimplifyExpr, CanonicalizeCast,
    CanonicalizeOps, FlattenAtrousConv, AlterOpLayout, SimplifyExprPostAlterOp, FastMath,
    FoldConstant

(then SplitArgs, PlanDevices and FuseOps, which prepare TVM's own code generation). Each runs
under the current ``PassContext`` as in a ``Sequential``: its opt level against the context's,
``required_pass``, ``disabled_pass``. ``optimizer()`` is that sequence with the passes
relay-mlir has (the others are listed in ``MISSING``; qnn.Legalize rewrites only under a CPU
``tvm.target.Target``, as in TVM; RemoveUnusedFunctions keeps every
public function as well as main, since an executable exports them all);
``compile(..., opt_level=3)`` runs it
inside the lowering pipeline (``pipeline_elements``: the MLIR passes of the passes the context
lets run), or, when the context has instruments that must see each pass, as a ``Sequential``
on the module first. ``relay-mlir-opt``'s ``relay-opt-pipeline{opt-level=N}`` is the same
sequence in C++ (test_optimizer.py checks they agree).
"""
from __future__ import annotations

from typing import List, Optional

from .pass_infra import Pass, PassContext, Sequential, _required_pass

# relay.build's passes compile() does not run (issue 31), in TVM's order: ToBasicBlockNormalForm
# is a form of the expressions (MLIR regions are in it already); AlterOpLayout (TVM's x86
# NCHW{n}c blocking, the MLIR pass relay-alter-op-layout) is left out of compile() on purpose
# (docs/optimizer.md: the layouts for IREE are chosen in relay-to-iree-input; measured, the
# blocked convolutions ran no faster on llvm-cpu).
MISSING = ("ToBasicBlockNormalForm", "AlterOpLayout")


def _qnn_legalize() -> Sequential:
    """relay.build's qnn.Legalize: a Sequential (opt level 0) around TVM's QnnLegalize (opt
    level 1; its QnnCanonicalize is relay-mlir's lowering of the qnn ops). The rewrite is TVM's
    x86 one (relay-qnn-legalize) under a current CPU ``tvm.target.Target`` and nothing without
    one, as relay.build's target decides in TVM; ``compile``'s own target is IREE's and implies
    none. It changes no value: qnn.conv2d / qnn.dense compile to the same int32 results, bit for
    bit, with and without it (and to TVM 0.19's on ``llvm``), measured for int8/uint8 operand
    pairs under ``llvm`` and ``llvm -mcpu=skylake-avx512``."""
    from .pass_infra import PassInfo
    from .qnn.transform import Legalize

    member = Legalize()
    member._info = PassInfo(1, "QnnLegalize", ["InferType"])
    return Sequential([member], opt_level=0, name="qnn.Legalize")


def optimizer() -> Sequential:
    """relay.build's optimization sequence, the passes relay-mlir has, in TVM 0.19's order."""
    from . import transform as t

    return Sequential([t.RemoveUnusedFunctions._exported(), _qnn_legalize(), t.Legalize(),
                       t.SimplifyInference(),
                       t.EliminateCommonSubexpr(), t.CombineParallelConv2D(3),
                       t.CombineParallelDense(3),
                       t.CombineParallelBatchMatmul(3), t.FoldConstant(), t.FoldScaleAxis(),
                       t.SimplifyExpr(), t.CanonicalizeCast(), t.CanonicalizeOps(),
                       t.FlattenAtrousConv(), t.SimplifyExprPostAlterOp(), t.FastMath(),
                       t.FoldConstant()], name="RelayOptimizer")


def mlir_passes(p: Pass) -> str:
    """The relay-mlir-opt pass(es) ``p`` runs (``relay-infer-type`` first where it needs types)."""
    from . import transform as t

    if isinstance(p, t.InferType):
        return "relay-infer-type"
    if isinstance(p, t.EliminateCommonSubexpr) and p.fskip is None:
        return "relay-eliminate-common-subexpr"
    if isinstance(p, t._CPUTargetPass):
        return p.target_passes()  # "" without a CPU tvm Target: nothing runs
    passes = getattr(p, "passes", None)
    if isinstance(passes, str) and passes:
        return passes
    raise ValueError(f"pass '{p.info.name}' has no MLIR form to run inside compile()")


def pipeline_elements(ctx: PassContext, seq: Optional[Sequential] = None) -> List[str]:
    """The MLIR passes of the optimizer's passes ``ctx`` lets run, in order (a Sequential's
    members are filtered again, its required passes run first, as ``Sequential`` does)."""
    out: List[str] = []

    def walk(s: Sequential) -> None:
        for p in s.passes:
            if not ctx._pass_enabled(p.info):
                continue
            for name in p.info.required:
                req = _required_pass(name, p.info.name)
                out.append(mlir_passes(req))
            if isinstance(p, Sequential):
                walk(p)
            else:
                out.append(mlir_passes(p))

    walk(seq if seq is not None else optimizer())
    # types inferred again before each pass, as running the pass on its own does
    return [f"relay-infer-type,{e}" for e in out if e and e != "relay-infer-type"]


DEFAULT_OPT_LEVEL = 3


def context_for(opt_level: Optional[int]) -> PassContext:
    """The context ``compile`` optimizes under: the current one, at ``opt_level`` if given;
    outside any ``with PassContext(...)``, at DEFAULT_OPT_LEVEL (as ``relay.build`` is used:
    inside ``PassContext(opt_level=3)``). Required/disabled passes and config are kept."""
    from .pass_infra import _STATE

    cur = PassContext.current()
    if opt_level is None:
        opt_level = cur.opt_level if _STATE.stack else DEFAULT_OPT_LEVEL
    if opt_level == cur.opt_level:
        return cur
    return PassContext(opt_level=opt_level, required_pass=cur.required_pass,
                       disabled_pass=cur.disabled_pass, config=dict(cur.config))


def optimize(mod, opt_level: Optional[int] = None):
    """``mod`` after Relay's optimizer as ``compile`` runs it at ``opt_level`` (TVM's
    ``relay.optimize`` without its target and params): the module IREE's lowering starts
    from, as expressions."""
    from .autodiff import _run_passes

    elements = pipeline_elements(context_for(opt_level))
    if not elements:
        return mod
    return _run_passes(mod.to_mlir(infer=True).text(debug_info=True), ",".join(elements), "RelayOptimizer",
                       types_of=mod)
