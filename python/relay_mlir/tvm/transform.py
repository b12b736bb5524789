"""``tvm.transform``: TVM 0.19's pass infrastructure (``PassContext`` default opt_level 2,
``Sequential(passes, opt_level=0, name="sequential", required=None)``, ``module_pass``,
``PassInfo``), which relay-mlir implements in ``relay_mlir.pass_infra``.

    >>> import relay_mlir.tvm as tvm, relay_mlir.pass_infra as pi
    >>> tvm.transform.PassContext is pi.PassContext, tvm.transform.PassContext.current().opt_level
    (True, 2)
"""
from __future__ import annotations

from ..pass_infra import TRANSFORM as __all__  # noqa: F401
from ..pass_infra import ModulePass, Pass, PassContext, PassInfo, Sequential, module_pass  # noqa: F401
