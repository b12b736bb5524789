"""Relay's dataflow pattern language: ``relay_mlir.dataflow_pattern`` (``tvm.relay.dataflow_pattern``).

Patterns describe pieces of dataflow (``is_op``, ``wildcard``, ``is_constant``, ``has_attr``,
``dominates``, ...); ``pattern.match(expr)`` tests one expression, ``pattern.partition(expr)``
wraps every match in a function literal, and ``rewrite(callbacks, expr)`` replaces matches
with what ``DFPatternCallback.callback`` returns. The semantics are TVM 0.19's (docs/byoc.md);
matching is Python over the expression tree (docs/design.md says why).

>>> import relay_mlir as relay
>>> from relay_mlir.dataflow_pattern import *
>>> x, w, b = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3)), relay.var("b", shape=(4,))
>>> e = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1)), b))
>>> conv = is_op("nn.conv2d")(wildcard(), wildcard()).has_attr({"padding": [1, 1, 1, 1]})
>>> is_op("nn.relu")(is_op("nn.bias_add")(conv, wildcard())).match(e)
True
"""
from .pattern import *  # noqa: F401,F403
from .pattern import __all__ as _pattern_all
from .matcher import DFPatternMatcher, match
from .partition import partition
from .rewrite import DFPatternCallback, rewrite
from .visitor import DFPatternVisitor
from .structural import structural_equal

__all__ = list(_pattern_all) + ["match", "partition", "rewrite", "DFPatternCallback",
                                "DFPatternVisitor", "DFPatternMatcher", "structural_equal"]
