"""relay_mlir: TVM's Relay IR as an MLIR dialect, compiled through IREE.

The builder API mirrors ``tvm.relay`` so Relay-building code ports by
changing the import::

    >>> import numpy as np
    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 4))
    >>> w = relay.const(np.ones((2, 4), "float32"))
    >>> f = relay.Function([x], relay.nn.relu(relay.nn.dense(x, w)))
    >>> mod = relay.IRModule.from_expr(f)
    >>> mod = relay.transform.InferType()(mod)
    >>> mod["main"].body.checked_type
    TensorType([1, 2], float32)
    >>> exe = relay.compile(mod, target="llvm-cpu")     # doctest: +SKIP
    >>> exe(np.ones((1, 4), "float32"))                 # doctest: +SKIP
    array([[4., 4.]], dtype=float32)

The MLIR Python bindings live in ``relay_mlir.ir``, ``relay_mlir.passmanager``
and ``relay_mlir.dialects``; they are only imported when a program is
emitted, inferred or compiled.
"""
from __future__ import annotations

import sys as _sys

# Layers, each importing only those before it: ty, errors -> expr ->
# expr_functor, analysis -> interpreter -> op -> emit -> module -> transform -> compiler
# -> executor.
from .ty import (Any, FuncType, GlobalTypeVar, IncompleteType, RefType, TensorType, TupleType,
                 Type, TypeCall, TypeKind, TypeVar, scalar_type)
from .errors import CompileError, Diagnostic, InputShapeError, RelayRuntimeError
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var, const, var)
from . import adt
from .scope_builder import ScopeBuilder
from .adt import (Clause, Constructor, Match, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard, TypeData)
from .expr_functor import ExprFunctor, ExprMutator, ExprVisitor
from . import analysis
from . import loops
from .analysis import free_vars
from . import op
from .op import nn
from . import qnn
from . import quantize
from .op import image
from .op.reduce import (all, any, argmax, argmin, logsumexp, max, mean_std,  # reductions
                        mean_variance, min, prod, std, variance)
from .op.index import (argsort, cumprod, cumsum, gather, gather_nd, one_hot,  # indexing, sorting
                       scatter_elements, scatter_nd, searchsorted, sort, take, topk)
from .op.tensor import (add, concatenate, divide, exp, log, maximum, mean, minimum, multiply,
                        negative, reshape, sigmoid, sqrt, subtract, sum, tanh, transpose)
from .op.tensor import (acosh, asinh, atanh, trunc_divide, trunc_mod)  # elementwise (TVM 0.19's)
from .op.tensor import fixed_point_multiply  # relay.quantize's rescale (TVM 0.19's relay.fixed_point_multiply)
from .op.tensor import (abs, acos, asin, atan, bitwise_and, bitwise_not, bitwise_or,  # elementwise
                        bitwise_xor, cast, cast_like, ceil, clip, copy, cos, cosh, equal, erf,
                        fast_erf, fast_exp, fast_tanh, floor, floor_divide, floor_mod, greater,
                        greater_equal, isfinite, isinf, isnan, left_shift, less, less_equal, log2,
                        log10, logical_and, logical_not, logical_or, logical_xor, mod, not_equal,
                        power, right_shift, round, rsqrt, sign, sin, sinh, tan, trunc, where)
from .op.transform import (arange, argwhere, unique, broadcast_to, broadcast_to_like,  # shape transforms
                           collapse_sum_like, einsum, expand_dims, full, full_like,
                           layout_transform, ndarray_size, ones, ones_like, repeat, reshape_like, slice_like,
                           reverse, shape_of, split, squeeze, stack, strided_slice, strided_set, tile, zeros,
                           zeros_like)
from .op.transform import (collapse_sum_to, invert_permutation, matrix_set_diag,  # TVM 0.19's
                           meshgrid, reinterpret, reverse_reshape, reverse_sequence, sequence_mask,
                           sliding_window, sparse_to_dense, trilu, unravel_index)
from . import emit
from .module import IRModule, Module
from . import transform
from .transform import SpanCheck  # TVM's relay.SpanCheck
from .compiler import Target, compile, lower_to_iree_input
from .parser import fromtext, parse, parse_expr
from . import prelude
from .prelude import Prelude
from .expr_api import astext, bind, pretty_print
from .runtime import Executable
from . import interpreter
from .executor import create_executor
from . import dataflow_pattern
from .byoc.codegen import register_codegen  # BYOC external codegens (docs/byoc.md)
from . import annotation  # devices (issue 34 section 3)
from .annotation import device_copy
from .devices import config as target

_sys.modules.setdefault(__name__ + ".nn", nn)
_sys.modules.setdefault(__name__ + ".image", image)


__all__ = [
    "CompileError", "Diagnostic", "InputShapeError", "RelayRuntimeError", "create_executor", "interpreter",
    "Call", "Constant", "Expr", "Function", "GlobalVar", "If", "Let", "Op", "Tuple", "TupleGetItem",
    "TupleWrapper", "Var", "const", "var", "RefCreate", "RefRead", "RefWrite",
    "adt", "Clause", "Constructor", "Match", "PatternConstructor", "PatternTuple", "PatternVar",
    "PatternWildcard", "TypeData", "ScopeBuilder", "scalar_type",
    "ExprFunctor", "ExprMutator", "ExprVisitor", "analysis", "emit",
    "IRModule", "Module", "free_vars", "nn", "op", "transform", "Prelude", "astext", "bind",
    "pretty_print",
    "add", "subtract", "multiply", "divide", "maximum", "minimum", "negative", "exp", "log",
    "sqrt", "tanh", "sigmoid", "reshape", "transpose", "concatenate", "sum", "mean",
    # elementwise
    "abs", "acos", "asin", "atan", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor",
    "cast", "cast_like", "ceil", "clip", "copy", "cos", "cosh", "equal", "erf", "fast_erf",
    "fast_exp", "fast_tanh", "floor", "floor_divide", "floor_mod", "greater", "greater_equal",
    "isfinite", "isinf", "isnan", "left_shift", "less", "less_equal", "log2", "log10",
    "logical_and", "logical_not", "logical_or", "logical_xor", "mod", "not_equal", "power",
    "right_shift", "round", "rsqrt", "sign", "sin", "sinh", "tan", "trunc", "where",
    "acosh", "asinh", "atanh", "trunc_divide", "trunc_mod", "fixed_point_multiply",
    # shape transforms
    "arange", "broadcast_to", "broadcast_to_like", "collapse_sum_like", "einsum", "expand_dims",
    "full", "full_like", "layout_transform", "ones", "ones_like", "repeat", "reshape_like", "slice_like",
    "reverse", "split", "squeeze", "stack", "strided_slice", "strided_set", "tile", "zeros", "zeros_like",
    "shape_of", "ndarray_size", "argwhere", "unique",
    "collapse_sum_to", "invert_permutation", "matrix_set_diag", "meshgrid", "reinterpret",
    "reverse_reshape", "reverse_sequence", "sequence_mask", "sliding_window", "sparse_to_dense",
    "trilu", "unravel_index",
    # reductions, indexing, scans, sorting, image
    "all", "any", "argmax", "argmin", "logsumexp", "max", "mean_std", "mean_variance", "min",
    "prod", "std", "variance", "argsort", "cumprod", "cumsum", "gather", "gather_nd", "one_hot",
    "scatter_elements", "scatter_nd", "searchsorted", "sort", "take", "topk", "image",
    "Any", "FuncType", "GlobalTypeVar", "IncompleteType", "RefType", "TensorType", "TupleType",
    "Type", "TypeCall", "TypeKind", "TypeVar",
    "Target", "compile", "lower_to_iree_input", "Executable", "fromtext", "parse", "parse_expr", "SpanCheck",
    "prelude", "register_codegen",
    "loops", "qnn", "quantize", "dataflow_pattern", "annotation", "device_copy", "target",
]
