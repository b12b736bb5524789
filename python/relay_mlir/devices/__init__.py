"""Heterogeneous devices (issue 34 §3; docs/byoc.md section 7): which device runs what, as
TVM 0.19's PlanDevices, and one ``.vmfb`` for several IREE devices.

- ``config``: ``make_compilation_config(ctx, targets)`` → ``CompilationConfig`` (devices and
  their targets, the default device); reachable as ``relay.target.make_compilation_config``.
- ``plan``: ``PlanDevices(config)`` places every expression and inserts ``device_copy``.
- ``inline_lets``, ``stages``: a planned ``main`` cut into single-device stages.
- ``build``: ``compile(mod, target={...})`` → ``executable.MultiDeviceExecutable``.
- ``offload``: ``offload_calls`` sends calls of chosen globals to a device (BYOC route (c)).

The annotations themselves are ``relay_mlir.annotation.on_device`` / ``device_copy``.
"""
from .config import CompilationConfig, make_compilation_config
from .plan import PlanDevices, plan_devices

__all__ = ["CompilationConfig", "make_compilation_config", "PlanDevices", "plan_devices"]
