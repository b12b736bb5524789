"""``AnnotateTarget(targets, include_non_call_ops=True)``: which compiler takes each operation.

TVM 0.19's pass, in post order over each function (not external ones, not inside composite
functions): an operator call goes to the first target in ``targets`` whose
``"target.<name>"`` operator attribute (``register_op_attr``) accepts the call, a call of a
composite function named ``"<target>.<...>"`` to that target if it is in ``targets``, and
anything else to ``"default"`` (relay-mlir's own lowering). Every argument then gets
``compiler_end[<its producer's target>]`` (if it was produced by an annotated operation) and
``compiler_begin[<this call's target>]``. With ``include_non_call_ops`` tuples, projections
and reference operations are annotated too (with their arguments' common target, else
``"default"``); without, they only close their arguments' regions. The function's result gets
a ``compiler_end``. Running it again keeps the non-default annotations already there. A
``concatenate``/``stack``/``einsum`` has one tuple operand in TVM and its fields as arguments
here: the fields' tuple is annotated as TVM annotates that operand, and the call reads the
fields of its one annotated operand, so the regions are TVM's.

>>> import relay_mlir as relay
>>> from relay_mlir.op import register_op_attr
>>> _ = register_op_attr("exp", "target.doc_acc", lambda call: True)
>>> x = relay.var("x", shape=(2,))
>>> mod = AnnotateTarget(["doc_acc"])(relay.IRModule.from_expr(relay.exp(x)))
>>> body = mod["main"].body
>>> body.op.name, body.attrs["compiler"], body.args[0].args[0].attrs["compiler"]
('annotation.compiler_end', 'doc_acc', 'doc_acc')
>>> from relay_mlir.op.op_attr import reset_op_attr; reset_op_attr("exp", "target.doc_acc")
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple as PyTuple, Union

from ..expr import (Call, Expr, Function, If, Let, Op, RefCreate, RefRead, RefWrite, Tuple,
                    TupleGetItem, Var)
from ..expr_functor import ExprMutator
from ..op.op_attr import get_op_attr
from .annotations import (DEFAULT_TARGET, annotation_target, compiler_begin, compiler_end,
                          is_compiler_begin, is_compiler_end)
from .module_pass import FunctionMapPass

__all__ = ["AnnotateTarget"]

_NON_CALL = (RefWrite, RefCreate, RefRead, Tuple, TupleGetItem)
# operators whose operand is one tuple in TVM's Relay; relay-mlir's calls have its fields
_TUPLE_OPERAND = ("concatenate", "stack", "einsum")


def _supports(fn: object, call: Call, target: str) -> bool:
    if not callable(fn):
        return bool(fn)
    try:
        return bool(fn(call))
    except Exception as err:
        raise RuntimeError(f"AnnotateTarget: the 'target.{target}' function registered for "
                           f"{call.op.name} raised {type(err).__name__}: {err}") from err


class _Annotator(ExprMutator):
    iterative_scopes = True

    def __init__(self, targets: List[str], include_non_call_ops: bool) -> None:
        super().__init__()
        self.targets, self.non_call = targets, include_non_call_ops
        self.target_of: Dict[Expr, str] = {}

    # -- TVM's AnnotateArgs / InsertCompilerEndAndPropogateTarget -------------------------------
    def annotate_args(self, args: List[Expr], target: str = "") -> PyTuple[str, List[Expr]]:
        ref, begins, ends = "", [], []
        for arg in args:
            arg_target = DEFAULT_TARGET
            if is_compiler_begin(arg):
                if annotation_target(arg) != DEFAULT_TARGET:
                    begins.append(arg)
                else:
                    ends.append(arg.args[0])
                if is_compiler_end(arg.args[0]):
                    arg_target = annotation_target(arg.args[0])
            elif arg in self.target_of:
                arg_target = self.target_of[arg]
                no_args = isinstance(arg, Call) and not arg.args
                ends.append(arg if no_args else compiler_end(arg, arg_target))
            else:
                ends.append(arg)
            ref = arg_target if ref == "" else (ref if ref == arg_target else DEFAULT_TARGET)
        op_target = ref if target == "" else target
        if ref == "":
            return op_target, list(args)
        return op_target, begins + [compiler_begin(e, op_target) for e in ends]

    def close(self, e: Expr) -> Expr:
        """``e`` followed by a ``compiler_end`` of its target (if it has one)."""
        if e in self.target_of:
            if isinstance(e, _NON_CALL) or (isinstance(e, Call) and e.args):
                t = self.target_of[e]
                e = compiler_end(e, t)
                self.target_of[e] = t
        elif is_compiler_end(e) and annotation_target(e) == DEFAULT_TARGET:
            inner = e.args[0]
            t = self.target_of.get(inner, "")
            e = compiler_end(inner, t)
            self.target_of[e] = t
        return e

    def call_target(self, pre: Call) -> str:
        if isinstance(pre.op, Op):
            for t in self.targets:
                fn = get_op_attr(pre.op.name, "target." + t)
                if fn is not None and _supports(fn, pre, t):
                    return t
        elif isinstance(pre.op, Function):
            comp = pre.op.attrs.get("Composite")
            if isinstance(comp, str) and "." in comp and comp.split(".", 1)[0] in self.targets:
                return comp.split(".", 1)[0]
        return DEFAULT_TARGET

    # -- the rewrites, post order -------------------------------------------------------------
    def visit_call(self, pre: Call) -> Expr:
        post = super().visit_call(pre)
        if is_compiler_begin(pre):
            return post
        if is_compiler_end(pre):
            self.target_of.setdefault(post.args[0], annotation_target(post))
            return post
        if pre.args and is_compiler_begin(pre.args[0]) \
                and annotation_target(pre.args[0]) != DEFAULT_TARGET:
            return post
        target = self.call_target(pre)
        if isinstance(pre.op, Var) and not self.non_call:
            return Call(post.op, [self.close(a) for a in post.args], post.attrs)
        if isinstance(pre.op, Op) and pre.op.name in _TUPLE_OPERAND and post.args:
            args = self.tuple_operand(post.args, target)
        else:
            _, args = self.annotate_args(post.args, target)
        new = Call(post.op, args, post.attrs)
        new._checked_type = pre._checked_type
        new.span = pre.span
        self.target_of[new] = target
        return new

    def tuple_operand(self, fields: List[Expr], target: str) -> List[Expr]:
        """The arguments of a call whose one operand is a tuple in TVM's Relay (relay-mlir's
        call has the fields as arguments): the fields' tuple is annotated as TVM annotates that
        tuple, and the call reads the fields of its one annotated operand."""
        src = fields[0].tuple_value if isinstance(fields[0], TupleGetItem) else None
        if src is not None and all(isinstance(f, TupleGetItem) and f.tuple_value is src
                                   and f.index == i for i, f in enumerate(fields)):
            tup = src  # the fields of a tuple value (concatenate(%t) in Relay's text)
        elif self.non_call:
            tup = self._grouped(None, fields, Tuple)
        else:
            tup = Tuple([self.close(f) for f in fields])
        _, (arg,) = self.annotate_args([tup], target)
        return [TupleGetItem(arg, i) for i in range(len(fields))]

    def _grouped(self, post: Expr, args: List[Expr], make) -> Expr:
        target, new_args = self.annotate_args(args)
        new = make(new_args)
        self.target_of[new] = target
        return new

    def visit_tuple(self, pre: Tuple) -> Expr:
        post = super().visit_tuple(pre)
        if not self.non_call:
            return Tuple([self.close(f) for f in post.fields])
        return self._grouped(post, post.fields, Tuple)

    def visit_tuple_getitem(self, pre: TupleGetItem) -> Expr:
        post = super().visit_tuple_getitem(pre)
        if not self.non_call:
            return TupleGetItem(self.close(post.tuple_value), post.index)
        return self._grouped(post, [post.tuple_value], lambda a: TupleGetItem(a[0], post.index))

    def visit_ref_create(self, pre: RefCreate) -> Expr:
        post = super().visit_ref_create(pre)
        if not self.non_call:
            return RefCreate(self.close(post.value))
        return self._grouped(post, [post.value], lambda a: RefCreate(a[0]))

    def visit_ref_read(self, pre: RefRead) -> Expr:
        post = super().visit_ref_read(pre)
        if not self.non_call:
            return RefRead(self.close(post.ref))
        return self._grouped(post, [post.ref], lambda a: RefRead(a[0]))

    def visit_ref_write(self, pre: RefWrite) -> Expr:
        post = super().visit_ref_write(pre)
        if not self.non_call:
            return RefWrite(self.close(post.ref), self.close(post.value))
        return self._grouped(post, [post.ref, post.value], lambda a: RefWrite(a[0], a[1]))

    def visit_function(self, pre: Function) -> Expr:
        if "Composite" in pre.attrs:
            return pre  # composite functions are not looked into
        post = super().visit_function(pre)
        return Function(post.params, self.close(post.body), post.ret_type, post.type_params,
                        post.attrs)

    def visit_let(self, pre: Let) -> Expr:
        post = super().visit_let(pre)
        body = self.close(post.body)
        if isinstance(post.value, Function):
            return Let(post.var, post.value, body)
        _, args = self.annotate_args([post.value])
        return Let(post.var, args[0], body)

    def visit_if(self, pre: If) -> Expr:
        post = super().visit_if(pre)
        return If(self.close(post.cond), self.close(post.true_branch), self.close(post.false_branch))


def _target_list(targets: object) -> List[str]:
    if isinstance(targets, str):
        targets = [targets]
    if not isinstance(targets, (list, tuple)) or not targets or \
            not all(isinstance(t, str) and t for t in targets):
        raise TypeError(f"AnnotateTarget expects a target name or a non-empty list of target "
                        f"names, got {targets!r}")
    return list(targets)


class AnnotateTarget(FunctionMapPass):
    """``relay.transform.AnnotateTarget(targets, include_non_call_ops=True)`` (PassInfo
    "AnnotateTarget", level 0). The input is typed first (the ``target.<name>`` functions may
    read ``checked_type``), and so is the result."""

    def __init__(self, targets: Union[str, Sequence[str]], include_non_call_ops: bool = True) -> None:
        super().__init__("AnnotateTarget", typed_first=True)
        self.targets = _target_list(targets)
        self.include_non_call_ops = bool(include_non_call_ops)

    def transform(self, fn: Function, name: str) -> Function:
        return _Annotator(self.targets, self.include_non_call_ops).visit(fn)
