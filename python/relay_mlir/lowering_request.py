"""What a lowering request asks of the worker (``_worker.lower_module``), read by both sides.

``lowering_pipeline`` spells the pass pipeline ``compile`` runs (Relay's optimizer, then
relay-to-iree-input, typing the module only if the caller has not); ``main_layout`` reads
``main``'s relay signature (``ResultLayout``) from a parsed module, inferring types first
only where the layout needs them. ``compiler`` builds requests with them and ``_worker``
answers them, so they live below both.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from .adt_value import ResultLayout, adt_defs_from_mlir
from .emit import run_passes
from .ty import IncompleteType, RefType, TupleType, Type, TypeCall, from_mlir

__all__ = ["PIPELINE", "lowering_pipeline", "main_layout", "with_cpu_kernels"]

# what compile() lowers with (tests may swap compiler.PIPELINE for another pipeline)
PIPELINE = "builtin.module(relay-to-iree-input)"


def with_cpu_kernels(lowering: str, kernels: str) -> str:
    """``lowering`` with relay-to-iree-input's ``cpu-kernels`` option set to ``kernels``
    (``cpu_kernels.for_target``); a pipeline without relay-to-iree-input is returned as is.

    >>> with_cpu_kernels(PIPELINE, "avx512vnni")
    'builtin.module(relay-to-iree-input{cpu-kernels=avx512vnni})'
    >>> with_cpu_kernels("builtin.module(relay-to-iree-input{convert-layout=false})", "none")
    'builtin.module(relay-to-iree-input{convert-layout=false})'
    """
    name = "relay-to-iree-input"
    at = lowering.find(name)
    if kernels == "none" or at < 0:
        return lowering
    end = at + len(name)
    if lowering[end:end + 1] == "{":
        close = lowering.index("}", end)
        return f"{lowering[:close]} cpu-kernels={kernels}{lowering[close:]}"
    return f"{lowering[:end]}{{cpu-kernels={kernels}}}{lowering[end:]}"


def lowering_pipeline(lowering: str, passes: Sequence[str], typed: bool) -> str:
    """The pipeline ``compile`` runs: Relay's optimizer ``passes`` (pipeline elements, each
    ``relay-infer-type,<pass>``: a pass's input re-typed, as TVM's pass infrastructure does),
    then ``lowering`` (``PIPELINE``, ``builtin.module(relay-to-iree-input...)``). A module
    the caller has ``typed`` is not typed again first: the first optimizer pass's
    ``relay-infer-type`` is dropped, or with no optimizer pass, relay-to-iree-input's own
    (``infer-type=false``).

    >>> lowering_pipeline(PIPELINE, [], typed=True)
    'builtin.module(relay-to-iree-input{infer-type=false})'
    >>> lowering_pipeline(PIPELINE, ["relay-infer-type,relay-fold-constants"], typed=True)
    'builtin.module(relay-fold-constants,relay-to-iree-input)'
    """
    head, infer = "builtin.module(", "relay-infer-type,"
    assert lowering.startswith(head) and lowering.endswith(")"), lowering
    inner = lowering[len(head):-1]
    passes = list(passes)
    if typed and passes and passes[0].startswith(infer):
        passes[0] = passes[0][len(infer):]
    elif typed and not passes and inner.startswith("relay-to-iree-input"):
        if inner.endswith("}"):
            inner = inner[:-1] + " infer-type=false}"
        else:
            inner += "{infer-type=false}"
    return head + ",".join([*passes, inner]) + ")"


def _has(t: Type, kinds) -> bool:
    """True if ``t`` is or contains (in tuples, ADT arguments, references) one of ``kinds``."""
    if isinstance(t, kinds):
        return True
    parts = (t.fields if isinstance(t, TupleType) else t.args if isinstance(t, TypeCall)
             else [t.value] if isinstance(t, RefType) else [])
    return any(_has(p, kinds) for p in parts)


def main_layout(ctx, op, inferred: bool) -> Tuple[Optional[ResultLayout], bool]:
    """``(layout, typed)``: ``main``'s relay parameter and result types (to nest tuple results,
    give them their relay dtypes and decode ADT values and references), and whether the
    module's types are inferred (``inferred``, or inferred here).

    A ``main`` whose signature is left to inference in a module with ADTs or
    references is inferred here (in process, as ``IRModule.to_mlir`` does),
    so the executable knows which constructor each returned tag names.
    """
    from . import ir

    def signature():
        with ctx:
            for o in op.regions[0].blocks[0].operations:
                o = o.operation
                if o.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == "main":
                    ftype = ir.FunctionType(ir.TypeAttr(o.attributes["function_type"]).value)
                    res = [from_mlir(t) for t in ftype.results]
                    return ([from_mlir(t) for t in ftype.inputs],
                            res[0] if len(res) == 1 else TupleType(res))
        return None

    sig = signature()
    if sig is None:
        return None, inferred
    kinds = (TypeCall, RefType)
    if not any(_has(t, kinds) for t in [*sig[0], sig[1]]):
        if inferred or not any(_has(t, IncompleteType) for t in [*sig[0], sig[1]]):
            # tensors and tuples only: the layout nests tuple results and gives
            # each result its relay dtype
            return ResultLayout(sig[0], sig[1], {}), inferred
        found = []

        def look(o):
            if o.name in ("relay.adt", "relay.ref_new"):
                found.append(o)
                return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        with ctx:
            op.walk(look, ir.WalkOrder.PRE_ORDER)
        if not found:
            return None, inferred
        run_passes(ctx, op, "builtin.module(relay-infer-type)", "type inference")
        inferred = True
        sig = signature()
        if not any(_has(t, kinds) for t in [*sig[0], sig[1]]):
            return None, inferred
    with ctx:
        adts = adt_defs_from_mlir(op)
    return ResultLayout(sig[0], sig[1], adts), inferred
