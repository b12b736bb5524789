"""Heterogeneous devices (issue 34 §3): which device runs what, as TVM 0.19's PlanDevices.

- ``config``: ``make_compilation_config(ctx, targets)`` → ``CompilationConfig`` (devices and
  their targets, the default device); reachable as ``relay.target.make_compilation_config``.
- ``plan``: ``PlanDevices(config)`` places every expression and inserts ``device_copy``;
  ``device_of`` reads the placement back.

The annotations themselves are ``relay_mlir.annotation.on_device`` / ``device_copy``.
"""
from .config import CompilationConfig, make_compilation_config
from .plan import PlanDevices, plan_devices

__all__ = ["CompilationConfig", "make_compilation_config", "PlanDevices", "plan_devices"]
