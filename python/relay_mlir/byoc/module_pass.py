"""The pass shape the BYOC passes share: map the module's functions (not external ones).

TVM 0.19 runs ``MergeComposite``, ``AnnotateTarget`` and ``MergeCompilerRegions`` as
function passes, which leave functions with a ``Compiler`` attribute alone; the input module
is not changed.
"""
from __future__ import annotations

from typing import Optional

from ..errors import CompileError
from ..expr import Function
from ..ty import IncompleteType
from ..module import IRModule
from ..pass_infra import ModulePass, PassContext, PassInfo, _shallow_copy

__all__ = ["FunctionMapPass"]


def type_if_possible(mod: IRModule) -> Optional[Exception]:
    """Types ``mod``'s expressions in place if it type-checks; else returns the type error."""
    try:
        mod._emitted = mod.to_mlir(infer=True)
    except (CompileError, ValueError, TypeError) as e:
        mod._emitted = None
        return e
    return None


class FunctionMapPass(ModulePass):
    """A module pass applying ``self.transform(fn, gv_name)`` to each non-external function;
    with ``typed_first`` the module is typed first (TVM's pass requires InferType), so
    functions it calls can read ``checked_type``. The result is typed when it type-checks
    (the region annotations are typed as their value)."""

    def __init__(self, name: str, typed_first: bool = False) -> None:
        self._info = PassInfo(0, name)
        self.typed_first = typed_first

    def transform(self, fn: Function, name: str) -> Function:
        raise NotImplementedError

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        out = _shallow_copy(mod)
        self.type_error = type_if_possible(out) if self.typed_first else None
        self.module = out  # the module being transformed, for passes that type as they go
        for gv, fn in list(out.functions.items()):
            if isinstance(fn, Function) and fn.attrs.get("Compiler") is None:
                out.functions[gv] = self.transform(fn, gv.name_hint)
        type_if_possible(out)  # TVM's passes leave the module typed
        return out


def with_body(fn: Function, body) -> Function:
    """``fn`` with another body (params, types and attributes kept)."""
    if body is fn.body:
        return fn
    new = Function(fn.params, body, fn.ret_type, fn.type_params, fn.attrs)
    new.span = fn.span
    return new




def with_return_types(mod: IRModule) -> None:
    """Gives each of ``mod``'s typed functions without a ``ret_type`` its body's type (a copy
    of the function), as TVM 0.19's passes that end with InferType leave them."""
    for gv, fn in list(mod.functions.items()):
        t = getattr(fn.body, "_checked_type", None) if isinstance(fn, Function) else None
        if t is None or fn.ret_type is not None or isinstance(t, IncompleteType):
            continue
        new = Function(fn.params, fn.body, t, fn.type_params, fn.attrs)
        new.span, new._checked_type = fn.span, fn._checked_type
        mod.functions[gv] = new
