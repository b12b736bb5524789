"""relay.transform.CombineParallelDense (relay-combine-parallel-dense; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``
and that the reference interpreter gives the same outputs before and after. ``TVM_BATCH`` and
``TVM_DENSE`` hold the operator counts TVM 0.19's CombineParallelDense leaves for the same
programs with ``to_batch=True`` (the default) and ``False`` (relay.analysis.post_order_visit over
main, counting Op calls), measured in the side venv.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay

from pass_checks import assert_same_outputs, function_pass_counts, mod_of as _mod, node_counts


def _programs():
    x = relay.var("x", shape=(2, 4))
    w = [relay.var(f"w{i}", shape=(3, 4)) for i in range(4)]
    wu = [relay.var(f"u{i}", shape=(u, 4)) for i, u in enumerate((2, 3, 5))]
    b = [relay.var(f"b{i}", shape=(3,)) for i in range(3)]
    bu = [relay.var(f"c{i}", shape=(u,)) for i, u in enumerate((2, 3, 5))]
    one = relay.var("one", shape=(2, 1))
    dense = relay.nn.dense
    return {
        "three": relay.Tuple([dense(x, wi) for wi in w[:3]]),
        "two": relay.Tuple([dense(x, wi) for wi in w[:2]]),
        "four": relay.Tuple([dense(x, wi) for wi in w]),
        "bias_relu": relay.Tuple([relay.nn.relu(relay.add(dense(x, wi), bi)) for wi, bi in zip(w, b)]),
        "units_differ": relay.Tuple([dense(x, wi) for wi in wu]),
        "units_differ_bias": relay.Tuple([relay.add(dense(x, wi), bi) for wi, bi in zip(wu, bu)]),
        "column_arg": relay.Tuple([relay.multiply(dense(x, wi), one) for wi in wu]),
        "diverging": relay.Tuple([relay.nn.relu(dense(x, w[0])), relay.exp(dense(x, w[1])),
                                  relay.nn.relu(dense(x, w[2]))]),
        "sum_after": relay.add(relay.add(dense(x, w[0]), dense(x, w[1])), dense(x, w[2])),
    }


TVM_BATCH = {
    "three": {"nn.batch_matmul": 1, "split": 1, "squeeze": 3, "stack": 2},
    "two": {"nn.dense": 2},
    "four": {"nn.batch_matmul": 1, "split": 1, "squeeze": 4, "stack": 2},
    "bias_relu": {"add": 1, "expand_dims": 3, "nn.batch_matmul": 1, "nn.relu": 1, "split": 1, "squeeze": 3,
                  "stack": 3},
    "units_differ": {"nn.dense": 3},
    "units_differ_bias": {"add": 3, "nn.dense": 3},
    "column_arg": {"multiply": 3, "nn.dense": 3},
    "diverging": {"exp": 1, "nn.batch_matmul": 1, "nn.relu": 2, "split": 1, "squeeze": 3, "stack": 2},
    "sum_after": {"add": 2, "nn.batch_matmul": 1, "split": 1, "squeeze": 3, "stack": 2},
}
TVM_DENSE = {
    "three": {"concatenate": 1, "nn.dense": 1, "strided_slice": 3},
    "two": {"nn.dense": 2},
    "four": {"concatenate": 1, "nn.dense": 1, "strided_slice": 4},
    "bias_relu": {"add": 1, "concatenate": 2, "nn.dense": 1, "nn.relu": 1, "strided_slice": 3},
    "units_differ": {"concatenate": 1, "nn.dense": 1, "strided_slice": 3},
    "units_differ_bias": {"add": 1, "concatenate": 2, "nn.dense": 1, "strided_slice": 3},
    "column_arg": {"concatenate": 2, "multiply": 1, "nn.dense": 1, "repeat": 3, "strided_slice": 3},
    "diverging": {"concatenate": 1, "exp": 1, "nn.dense": 1, "nn.relu": 2, "strided_slice": 3},
    "sum_after": {"add": 2, "concatenate": 1, "nn.dense": 1, "strided_slice": 3},
}
TVM_MIN2 = {"nn.batch_matmul": 1, "split": 1, "squeeze": 2, "stack": 2}      # min_num_branches=2


@pytest.mark.parametrize("name", sorted(TVM_BATCH))
def test_to_batch_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CombineParallelDense()(mod)
    assert node_counts(out) == TVM_BATCH[name]
    assert_same_outputs(mod, out)


@pytest.mark.parametrize("name", sorted(TVM_DENSE))
def test_to_dense_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CombineParallelDense(to_batch=False)(mod)
    assert node_counts(out) == TVM_DENSE[name]
    assert_same_outputs(mod, out)


def test_pass_info_and_opt_level():
    p = relay.transform.CombineParallelDense()
    # TVM 0.19: FunctionPass "CombineParallelDense", opt level 4, requires InferType.
    skipped, run = function_pass_counts(p, _mod(_programs()["three"]), "CombineParallelDense", 4)
    assert (skipped, run) == ({"nn.dense": 3}, TVM_BATCH["three"])
    assert node_counts(relay.transform.CombineParallelDense(min_num_branches=2)(_mod(_programs()["two"]))) \
        == TVM_MIN2
