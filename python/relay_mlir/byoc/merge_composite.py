"""``MergeComposite(pattern_table)``: each match of a pattern becomes a composite function.

TVM 0.19: for each function of the module (not external ones) and each ``(name, pattern)``
or ``(name, pattern, check)`` of the table in order, ``pattern.partition(body,
{"Composite": name}, check)``: a match becomes a function literal with
``Composite=name`` and ``PartitionedFromPattern`` called in place; later patterns do not
look into earlier composites. ``AnnotateTarget`` sends a composite named ``"<target>.<...>"``
to ``<target>``.

>>> import relay_mlir as relay
>>> from relay_mlir.dataflow_pattern import is_op, wildcard
>>> x = relay.var("x", shape=(2,))
>>> mod = relay.IRModule.from_expr(relay.nn.relu(relay.exp(x)))
>>> table = [("ext.exp_relu", is_op("nn.relu")(is_op("exp")(wildcard())))]
>>> MergeComposite(table)(mod)["main"].body.op.attrs["Composite"]
'ext.exp_relu'
"""
from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

from ..dataflow_pattern import DFPattern, partition
from ..errors import CompileError
from ..expr import Expr, Function
from ..op.contrib.register import registered_pattern_tables
from ..pass_infra import _shallow_copy
from .module_pass import FunctionMapPass, type_if_possible, with_body

__all__ = ["MergeComposite"]


def _always(_: Expr) -> bool:
    return True


def _entries(pattern_table: object) -> List[Tuple[str, DFPattern, Callable[[Expr], bool]]]:
    if pattern_table is None:
        known = ", ".join(registered_pattern_tables()) or "none"
        raise ValueError("MergeComposite: the pattern table is None; get_pattern_table(name) "
                         f"returns None for a compiler with no registered table (registered: {known})")
    if not isinstance(pattern_table, (list, tuple)):
        raise TypeError("MergeComposite expects a list of (name, pattern) or (name, pattern, "
                        f"check) entries, got {pattern_table!r}")
    out = []
    for i, entry in enumerate(pattern_table):
        if not isinstance(entry, (list, tuple)) or len(entry) not in (2, 3):
            raise TypeError(f"MergeComposite: pattern table entry {i} must be (name, pattern) or "
                            f"(name, pattern, check), got {entry!r}")
        name, pattern = entry[0], entry[1]
        check = entry[2] if len(entry) == 3 else _always
        if not isinstance(name, str) or not isinstance(pattern, DFPattern) or not callable(check):
            raise TypeError(f"MergeComposite: pattern table entry {i} ({name!r}) needs a string "
                            "name, a dataflow pattern and a callable check")
        out.append((name, pattern, check))
    return out


class MergeComposite(FunctionMapPass):
    """``relay.transform.MergeComposite(pattern_table)`` (PassInfo "MergeComposite", level 0)."""

    def __init__(self, pattern_table: Sequence) -> None:
        super().__init__("MergeComposite", typed_first=True)  # checks may read checked_type
        self.entries = _entries(pattern_table)

    def transform(self, fn: Function, name: str) -> Function:
        body = fn.body
        for comp_name, pattern, check in self.entries:
            new = partition(pattern, body, {"Composite": comp_name}, self._typed_check(comp_name, check))
            if new is not body:  # typed again, as TVM does, for the next entry's checks
                self._type(with_body(fn, new), name)
            body = new
        return with_body(fn, body)

    def _typed_check(self, comp_name: str, check: Callable[[Expr], bool]) -> Callable[[Expr], bool]:
        """``check``, whose failure on a module that does not type-check is that type error
        (TVM's MergeComposite types the module first and stops at its type error)."""
        def run(root: Expr) -> bool:
            try:
                return check(root)
            except ValueError as e:
                if self.type_error is None:
                    raise
                msg = getattr(self.type_error, "message", str(self.type_error))
                raise CompileError(f"MergeComposite: the check of pattern '{comp_name}' failed ({e}); "
                                   f"the module does not type-check: {msg}",
                                   list(getattr(self.type_error, "diagnostics", None) or [])) from None
        return run

    def _type(self, fn: Function, name: str) -> None:
        mod = _shallow_copy(self.module)
        mod[name] = fn
        type_if_possible(mod)
