"""Every op is found by its family's name (issue 35, "family names everywhere").

An op's family is the ODS file defining it (``dialect/relay/Relay<Family>Ops.td``).
A newcomer looking for ``nn.batch_norm`` (RelayNormOps.td) must find its
typing rule in ``lib/Relations/Norm*.cpp``, its lowering in
``lib/Conversion/RelayToLinalg/Norm*.cpp``, its gradient rule in
``lib/Gradient/NormGradients.cpp``, its interpreter kernel in
``python/relay_mlir/interpreter_ops/norm.py`` (a module of a package named by the
family: the Qnn kernels are in ``relay_mlir/qnn/``) and its numeric tests in
``test/python/ops/test_norm*.py`` (some test file of the family refers to
the op; others may use it to build inputs). Where each piece lives is found the way
``scripts/gen_status.py`` finds it for docs/status.md (the same functions:
the ``infer*`` definition the op's ``typeRule`` names, the pattern rooted at
the op's C++ class, the ``add*Gradients`` table registering its name; the
kernel's module in ``relay_mlir.interpreter_ops.KERNELS``), so the status page
and this test cannot disagree.

A typing rule shared by ops of several families (``inferIdentity`` types
elementwise ops and ``nn.gelu``, ``reverse``, ...) lives in one of those
families' files: that is allowed. Everything else that is not where the
family name says is listed in ``EXCEPTIONS`` with its reason, or is a miss.
Fast: no compilation (llvm-tblgen reads the ODS files).
"""
from __future__ import annotations

import importlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Set

import pytest
from test_status_page import _gen as load_gen_status

ROOT = Path(__file__).resolve().parents[2]

_AXIS_IDENTITY = ("typed by inferAxisIdentity (an axis attribute checked, the type kept), shared "
                  "by Norm and Transform ops and kept beside the identity rules in "
                  "Relations/Elementwise.cpp")
_SHAPE_VALUES = ("besides its family's lowering, a higher-benefit pattern for shape values "
                 "(the op applied to shape_of's result, kept as index arithmetic so sizes stay "
                 "known) lives with shape_of in RelayToLinalg/Dynamic.cpp")
# (op, piece) -> why it is not (only) in its family's file.
EXCEPTIONS: Dict[tuple, str] = {
    ("relay.strided_set", "relation"):
        "strided_set's begin/end/strides are tensors (run-time data), so it is typed "
        "by the dyn.strided_slice rule in Relations/Dynamic.cpp",
    ("relay.strided_set", "lowering"):
        "lowered with the run-time-index ops in RelayToLinalg/DynamicOps.cpp "
        "(its begin/end/strides are tensors)",
    **{(op, "relation"): _AXIS_IDENTITY
       for op in ("relay.nn.softmax", "relay.nn.log_softmax", "relay.nn.lrn", "relay.reverse")},
    **{(op, "lowering"): _SHAPE_VALUES
       for op in ("relay.take", "relay.concatenate", "relay.reshape", "relay.expand_dims",
                  "relay.squeeze")},
}


@pytest.fixture(scope="module")
def gen_status():
    """scripts/gen_status.py, loaded as test_status_page.py loads it."""
    return load_gen_status()


@pytest.fixture(scope="module")
def ops(gen_status):
    """Every op with its family: the stem of its ODS file, Relay<Family>Ops.td."""
    family_of_title = {title.split(":")[0].split(" (")[0]: file[len("Relay"):-len("Ops.td")]
                       for file, title in gen_status.gen_ops_doc.FAMILIES}
    found = gen_status.read_ops()
    for op in found:
        op.family = family_of_title[op.family]
    return found


def _linked_stems(cell: str, directory: str) -> List[str]:
    """The file stems a status-page cell links to in `directory`."""
    return re.findall(r"\(\.\./" + re.escape(directory) + r"/(\w+)\.cpp\)", cell)


def _named_by(family: str, stem: str) -> bool:
    """`stem` is a file of `family`: Norm.cpp, TransformEinsum.cpp, NormGradients.cpp; test
    files by the family's lower-case name: test_norm.py, test_dynamic_strategies.py; Python
    modules (dotted) by a part of that name: interpreter_ops.norm, qnn.more_kernels."""
    if "." in stem:
        return any(part == family.lower() or part.startswith(family.lower() + "_")
                   for part in stem.split("."))
    if stem.startswith("test_"):
        family, stem = family.lower(), stem[len("test_"):]
        return stem == family or stem.startswith(family + "_")
    return stem == family or stem.startswith(family) and stem[len(family)].isupper()


PIECES = ("relation", "lowering", "gradient", "kernel", "numeric")


def _misses(ops, piece: str, where) -> Dict[str, str]:
    """op name -> where its `piece` is, for the ops whose `piece` is found outside their
    family's files: any file holding a rule, lowering or gradient; every test file referring
    to the op but the family's."""
    misses = {}
    for op in ops:
        stems, allowed = where(op)
        found = any if piece == "numeric" else all
        if stems and not found(any(_named_by(f, s) for f in allowed) for s in stems):
            misses[op.name] = f"{op.name} ({op.family}): {piece} in {', '.join(stems)}"
    return misses


@pytest.fixture(scope="module")
def where(gen_status, ops):
    """piece -> (op -> (file stems holding the op's piece, families allowed to hold it))."""
    relations = gen_status._texts(gen_status.RELATIONS.glob("*.cpp"))
    lowering = gen_status._texts(gen_status.LOWERING.glob("*.cpp"))
    gradients = gen_status.gradient_table()
    importlib.import_module("relay_mlir")  # registers the kernels defined outside interpreter_ops (qnn)
    kernels = importlib.import_module("relay_mlir.interpreter_ops").KERNELS
    families_of_rule: Dict[str, Set[str]] = defaultdict(set)
    for op in ops:
        if op.rule:
            families_of_rule[op.rule].add(op.family)

    def relation(op):
        cell, _ = gen_status.typing_cell(op, relations)
        allowed = families_of_rule[op.rule] if op.rule else {op.family}
        return _linked_stems(cell, "lib/Relations"), allowed

    def lowered(op):
        cell, _ = gen_status.lowering_cell(op, lowering)
        return _linked_stems(cell, "lib/Conversion/RelayToLinalg"), {op.family}

    def gradient(op):
        path = gradients.get(op.name)
        return ([path.stem] if path else []), {op.family}

    def kernel(op):
        k = None if op.language else kernels.get(op.short)
        return ([k.__module__[len("relay_mlir."):]] if k else []), {op.family}

    def numeric(op):
        pattern = gen_status.numeric_op_re(op.name)
        stems = [p.stem for p, text in numeric_texts.items() if pattern.search(text)]
        return ([] if op.language else stems), {op.family}

    numeric_texts = gen_status._texts(gen_status.NUMERIC_FILES)
    return {"relation": relation, "lowering": lowered, "gradient": gradient, "kernel": kernel,
            "numeric": numeric}


@pytest.fixture(scope="module")
def misses(ops, where):
    """piece -> its misses, exceptions included (each op's pieces looked up once)."""
    return {piece: _misses(ops, piece, where[piece]) for piece in PIECES}


@pytest.mark.parametrize("piece", PIECES)
def test_piece_is_in_its_family_file(misses, piece) -> None:
    left = [text for op, text in misses[piece].items() if (op, piece) not in EXCEPTIONS]
    assert not left, "\n".join(left)


def test_each_gradient_file_registers_its_family(gen_status) -> None:
    """<Family>Gradients.cpp holds add<Family>Gradients, the family's rule table."""
    files = set(gen_status.gradient_table().values())
    assert len(files) >= 9, files
    for path in files:
        family = path.stem[: -len("Gradients")]
        assert f"void gradient::add{family}Gradients(" in path.read_text(), path


def test_every_family_names_a_lowering_file(ops) -> None:
    families = {op.family for op in ops}
    lowering = {p.stem for p in (ROOT / "lib" / "Conversion" / "RelayToLinalg").glob("*.cpp")}
    assert {f for f in families if not any(_named_by(f, s) for s in lowering)} == set()


def test_kernel_modules_are_named_by_their_family() -> None:
    """A kernel in another family's module, or in a module no family names, is a miss."""
    assert _named_by("Norm", "interpreter_ops.norm") and _named_by("Qnn", "qnn.more_kernels")
    assert not _named_by("Norm", "interpreter_ops.nn") and not _named_by("NN", "interpreter_ops.norm")
    assert not _named_by("Elementwise", "interpreter_ops")


def test_exceptions_are_still_needed(misses) -> None:
    """An exception whose op now sits in its family's file must be removed."""
    for op_name, piece in EXCEPTIONS:
        assert op_name in misses[piece], \
            f"{op_name}'s {piece} is in its family file now: drop its exception"
