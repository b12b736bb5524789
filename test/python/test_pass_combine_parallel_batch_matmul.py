"""relay.transform.CombineParallelBatchMatmul (relay-combine-parallel-batch-matmul;
docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``
and that the reference interpreter gives the same outputs before and after. ``TVM`` holds the
operator counts TVM 0.19's CombineParallelBatchMatmul leaves for the same programs
(relay.analysis.post_order_visit over main, counting Op calls), measured in the side venv.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay

from pass_checks import assert_same_outputs, function_pass_counts, mod_of as _mod, node_counts


def _programs():
    x = relay.var("x", shape=(2, 3, 4))
    y = [relay.var(f"y{i}", shape=(2, n, 4)) for i, n in enumerate((2, 3, 5, 2))]
    b = [relay.var(f"b{i}", shape=(n,)) for i, n in enumerate((2, 3, 5))]
    bmm = relay.nn.batch_matmul
    return {
        "three": relay.Tuple([bmm(x, yi) for yi in y[:3]]),
        "two": relay.Tuple([bmm(x, yi) for yi in y[:2]]),
        "four": relay.Tuple([bmm(x, yi) for yi in y]),
        "bias_relu": relay.Tuple([relay.nn.relu(relay.add(bmm(x, yi), bi)) for yi, bi in zip(y, b)]),
        "batch_differs": relay.Tuple([bmm(x, y[0]), bmm(x, y[1]), bmm(x, relay.var("z", shape=(1, 5, 4)))]),
        "transposed": relay.Tuple([bmm(x, relay.var(f"t{i}", shape=(2, 4, 3)), transpose_b=False)
                                   for i in range(3)]),
        "diverging": relay.Tuple([relay.nn.relu(bmm(x, y[0])), relay.exp(bmm(x, y[1])),
                                  relay.nn.relu(bmm(x, y[2]))]),
    }


TVM = {
    "three": {"concatenate": 1, "nn.batch_matmul": 1, "strided_slice": 3},
    "two": {"nn.batch_matmul": 2},
    "four": {"concatenate": 1, "nn.batch_matmul": 1, "strided_slice": 4},
    "bias_relu": {"add": 1, "concatenate": 2, "nn.batch_matmul": 1, "nn.relu": 1, "strided_slice": 3},
    "batch_differs": {"nn.batch_matmul": 3},
    "transposed": {"nn.batch_matmul": 3},   # TVM: only transpose_a=False, transpose_b=True
    "diverging": {"concatenate": 1, "exp": 1, "nn.batch_matmul": 1, "nn.relu": 2, "strided_slice": 3},
}
TVM_MIN2 = {"concatenate": 1, "nn.batch_matmul": 1, "strided_slice": 2}      # min_num_branches=2


@pytest.mark.parametrize("name", sorted(TVM))
def test_combined_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CombineParallelBatchMatmul()(mod)
    assert node_counts(out) == TVM[name]
    assert_same_outputs(mod, out)


def test_pass_info_and_opt_level():
    p = relay.transform.CombineParallelBatchMatmul()
    # TVM 0.19: FunctionPass "CombineParallelBatchMatmul", opt level 4, requires InferType.
    skipped, run = function_pass_counts(p, _mod(_programs()["three"]), "CombineParallelBatchMatmul", 4)
    assert (skipped, run) == ({"nn.batch_matmul": 3}, TVM["three"])
    assert node_counts(relay.transform.CombineParallelBatchMatmul(2)(_mod(_programs()["two"]))) == TVM_MIN2
