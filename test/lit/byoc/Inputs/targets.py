"""Targets for the BYOC lit tests (`relay-mlir transform --load`), as test_byoc_programs.py
registers them: ext_a takes add, multiply, nn.relu and exp; ext_b takes add and subtract."""
from relay_mlir.op import register_op_attr

for _op in ("add", "multiply", "nn.relu", "exp"):
    register_op_attr(_op, "target.ext_a", lambda call: True)
for _op in ("add", "subtract"):
    register_op_attr(_op, "target.ext_b", lambda call: True)
