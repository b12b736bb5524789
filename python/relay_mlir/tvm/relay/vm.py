"""``relay.vm``: ``compile(mod, target=None, target_host=None, params=None)`` -> a
``tvm.runtime.vm.Executable`` for ``VirtualMachine`` (TVM 0.19's signature; params bound
as ``relay.build`` binds them, inside the current ``PassContext``). ``main`` may take
and return tuples and ADTs, and ``relay.Any()`` dims run at any size.
"""
from __future__ import annotations

from ...compiler import compile as _compile
from ...pass_infra import PassContext
from ..runtime.vm import Executable, VirtualMachine
from .build_module import prepare

__all__ = ["compile", "Executable", "VirtualMachine"]


def compile(mod, target=None, target_host=None, params=None) -> Executable:  # noqa: A001
    """Compiles ``mod``'s ``main`` for the VM."""
    mod, tgt, bound = prepare(mod, target, params)
    exe = _compile(mod, target=tgt.iree_target, params=bound or None,
                   opt_level=PassContext.current().opt_level)
    free = [p.name_hint for p in mod["main"].params if p.name_hint not in bound]
    return Executable(exe, free, exe.target)
