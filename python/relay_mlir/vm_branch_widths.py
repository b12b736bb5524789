"""Branches IREE 3.13's VM moves wrongly, fixed in its VM module: one register width per
branch, and one register per ref passed.

IREE's VM keeps 32-bit values (i32, f32) in single registers and 64-bit ones
(i64, f64) in aligned register pairs. When a branch passes its arguments, the
bytecode emitter orders the register moves so that no move overwrites a
source still to be read, breaking cycles with a scratch register -- but it
compares registers by ordinal and width, so it misses that the pair
``i54+55`` overlaps ``i54``. A branch passing both widths can then copy a
64-bit value over a 32-bit one before that one is read: the Relay paper's
loop counter took the low word of another loop variable (issue 29, finding
L3: ``remap i50+51->i54+55, i54->i50``). Blocks with such mixed arguments
come from IREE itself (tails after each yielding wait are merged, their
differing operands become block arguments) as well as from our loops, so
the fix is made on IREE's VM module, after all of IREE's rewrites and before
registers are allocated: every block whose arguments mix 32- and 64-bit
values takes its 32-bit ones as i64 (each predecessor sign-extends what it
passes, an f32 by its bits; the block truncates back), so every branch moves
one width and the emitter's ordering is right.

The emitter's moves of refs have a kin: a branch passing one ref to two
arguments of a block, when one of them lives in the ref's own register (no
move needed) and the other takes it by a move, moves the ref out from under
the first: "ref is null" in the next ``hal.buffer_view.create`` (the loop
fuzzer's 336:56: IREE merged loop tails into a block taking three buffers,
and one branch passed the same buffer twice). ``distinct_branch_refs`` gives
each further occurrence its own SSA value (``vm.select.ref`` of the ref on
its own non-nullness, which is the same ref), so each is retained or moved
from its own register.

``compiler._compile_via_vm`` runs iree-compile to the VM phase, applies both,
and finishes from there, for programs with host control flow.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

_NARROW = ("i32", "f32")
_WIDE = ("i64", "f64")


def _successor_operands(op) -> Optional[Dict[int, List[Tuple[int, object]]]]:
    """{successor index: [(operand index, value)]} for the VM's branch ops;
    None for other ops with successors (the yielding calls, which pass their
    results to their continuation block, not operands)."""
    name = op.name
    operands = list(op.operands)
    if name == "vm.br":
        return {0: list(enumerate(operands))}
    if name not in ("vm.cond_br", "vm.br_table"):
        return None
    seg = list(op.attributes["operandSegmentSizes"])
    if name == "vm.cond_br":
        sizes = [seg[1], seg[2]]
    else:
        sizes = [seg[1], *list(op.attributes["case_operand_segments"])]
    out, start = {}, seg[0]
    for i, n in enumerate(sizes):
        out[i] = [(k, operands[k]) for k in range(start, start + n)]
        start += n
    return out


def _mixed(block) -> bool:
    types = [str(a.type) for a in block.arguments]
    return any(t in _NARROW for t in types) and any(t in _WIDE for t in types)


def _widen_block(ir, block) -> Optional[bool]:
    """Retypes the 32-bit arguments of `block` to i64 (True). None: no branch
    enters it (only yielding calls, whose results are not moved); False
    (nothing changed): branches and other ops both enter it."""
    preds, seen, others = [], [], 0
    for pred_block in block.predecessors:
        if any(pred_block == b for b in seen):
            continue
        seen.append(pred_block)
        ops_list = list(pred_block.operations)
        pred = ops_list[-1].operation
        ops = _successor_operands(pred)
        if ops is None:
            others += 1
            continue
        edges = [i for i, s in enumerate(pred.successors) if s == block]
        preds.append((pred, [ops[i] for i in edges]))
    if not preds:
        return None
    if others:
        return False
    i32, i64, f32 = (ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64),
                     ir.F32Type.get())
    narrow = [i for i, a in enumerate(block.arguments) if str(a.type) in _NARROW]
    for pred, edge_lists in preds:
        with ir.InsertionPoint(pred), pred.location:
            for edge in edge_lists:
                for pos in narrow:
                    index, value = edge[pos]
                    if str(value.type) == "f32":
                        value = ir.Operation.create("vm.bitcast.f32.i32", results=[i32],
                                                    operands=[value]).result
                    wide = ir.Operation.create("vm.ext.i32.i64.s", results=[i64],
                                               operands=[value]).result
                    pred.operands[index] = wide
    first = block.operations[0] if len(block.operations) else None
    for pos in narrow:
        arg = block.arguments[pos]
        was_float = str(arg.type) == "f32"
        arg.set_type(i64)
        point = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(block)
        with point, arg.location:
            back = ir.Operation.create("vm.trunc.i64.i32", results=[i32], operands=[arg])
            value = back.result
            if was_float:
                value = ir.Operation.create("vm.bitcast.i32.f32", results=[f32],
                                            operands=[value]).result
        arg.replace_all_uses_except(value, back)
    return True


def uniform_branch_widths(module) -> Tuple[int, int]:
    """Widens every mixed-width block of `module` (an ``iree.compiler.ir``
    module in the VM dialect) that branches enter. Returns (blocks widened,
    mixed blocks left because other ops enter them too)."""
    from iree.compiler import ir

    widened = left = 0
    mixed = []

    def visit(op):
        for region in op.regions:
            for i, block in enumerate(region.blocks):
                if i > 0 and _mixed(block):
                    mixed.append(block)
                for inner in block.operations:
                    visit(inner.operation)

    visit(module.operation)
    with module.context:
        for block in mixed:
            done = _widen_block(ir, block)
            widened += done is True
            left += done is False
    return widened, left


def distinct_branch_refs(module) -> int:
    """Every ref a branch passes more than once to one successor: each
    further occurrence becomes its own value (the same ref). Returns how many
    operands were replaced."""
    from iree.compiler import ir

    branches = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner.operation)
        if _successor_operands(op) is not None:
            branches.append(op)

    visit(module.operation)
    replaced = 0
    with module.context:
        i32 = ir.IntegerType.get_signless(32)
        for br in branches:
            for edge in _successor_operands(br).values():
                seen: List[object] = []
                for index, value in edge:
                    if not str(value.type).startswith("!vm.ref"):
                        continue
                    if not any(value == s for s in seen):
                        seen.append(value)
                        continue
                    with ir.InsertionPoint(br), br.location:
                        nonnull = ir.Operation.create("vm.cmp.nz.ref", results=[i32],
                                                      operands=[value]).result
                        null = ir.Operation.create("vm.const.ref.zero", results=[value.type]).result
                        same = ir.Operation.create("vm.select.ref", results=[value.type],
                                                   operands=[nonnull, value, null]).result
                    br.operands[index] = same
                    replaced += 1
    return replaced


def fix_vm_module(vm_module: bytes) -> Tuple[bytes, int, int]:
    """`vm_module` (iree-compile's ``--compile-to=vm`` output, MLIR bytecode
    or text) with one register width per branch and one register per ref a
    branch passes; also the counts of ``uniform_branch_widths``."""
    import io

    from iree.compiler import ir

    with ir.Context() as ctx:
        module = ir.Module.parse(vm_module, ctx)
        distinct = distinct_branch_refs(module)
        widened, left = uniform_branch_widths(module)
        if not widened and not distinct:
            return vm_module, widened, left
        out = io.BytesIO()
        module.operation.write_bytecode(out)
        return out.getvalue(), widened, left
