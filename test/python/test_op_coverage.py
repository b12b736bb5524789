"""Every relay operator (outside the language and ADT sections) has a
lowering lit test and a numeric test.

The op list comes from docs/ops.md (generated from the ODS files; test_docs
checks it is current). For each op:

* (a) some test/lit/conversion/*.mlir uses ``relay.<name>`` as an op (a word
  boundary after the name, so ``relay.ones`` is not satisfied by
  ``relay.ones_like``, and a ``relay.<name>.`` prefix of a longer op name
  such as ``relay.nn`` does not count);
* (b) some numeric test (test/python/ops/test_*.py, test/python/test_ops.py;
  helper modules such as ops/_nn_common.py do not count) references it:
  ``relay.<name>``, ``nn.<short>`` / ``image.<short>`` etc. (the dotted
  tail of the op name), or the op name in a string.

One parametrized case per op, so a failure names the op.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPS_MD = ROOT / "docs" / "ops.md"
LIT_DIR = ROOT / "test" / "lit" / "conversion"
NUMERIC_FILES = sorted((ROOT / "test" / "python" / "ops").glob("test_*.py")) + [
    ROOT / "test" / "python" / "test_ops.py"
]

# Sections whose ops are language constructs, not operators with numerics.
EXCLUDED_SECTIONS = ("Language", "Algebraic data types")

SECTION_RE = re.compile(r"^## (?P<title>.+?) \((?P<count>\d+)\)\s*$")
ROW_RE = re.compile(r"^\| `(?P<op>relay\.[A-Za-z0-9_.]+)` \|")


def parse_ops_md(text: str) -> Dict[str, List[str]]:
    """Section title -> the op names listed in it (``relay.xxx``)."""
    sections: Dict[str, List[str]] = {}
    current = None
    for line in text.splitlines():
        m = SECTION_RE.match(line)
        if m:
            current = m.group("title")
            sections[current] = []
            continue
        m = ROW_RE.match(line)
        if m and current is not None:
            sections[current].append(m.group("op"))
    return sections


def _sections() -> Dict[str, List[str]]:
    return parse_ops_md(OPS_MD.read_text())


def _covered_ops() -> List[str]:
    ops = []
    for title, names in _sections().items():
        if title.startswith(EXCLUDED_SECTIONS):
            continue
        ops.extend(names)
    return sorted(ops)


COVERED_OPS = _covered_ops()


def _read_all(paths) -> str:
    return "\n".join(p.read_text() for p in paths)


_LIT_TEXT = None
_NUMERIC_TEXT = None


def lit_text() -> str:
    global _LIT_TEXT
    if _LIT_TEXT is None:
        # Drop comment lines (CHECK lines mention ops too) so only real uses count.
        lines = _read_all(sorted(LIT_DIR.glob("*.mlir"))).splitlines()
        _LIT_TEXT = "\n".join(l for l in lines if not l.lstrip().startswith("//"))
    return _LIT_TEXT


def numeric_text() -> str:
    global _NUMERIC_TEXT
    if _NUMERIC_TEXT is None:
        _NUMERIC_TEXT = _read_all(NUMERIC_FILES)
    return _NUMERIC_TEXT


def lit_op_re(op: str) -> re.Pattern:
    # An op use: `relay.nn.prelu %x ...` / `relay.zeros {` / `"relay.x"(...)`.
    # Neither an identifier character nor a `.` may follow the name.
    return re.compile(r"(?<![\w.])" + re.escape(op) + r"(?![\w.])")


def numeric_op_re(op: str) -> re.Pattern:
    short = op[len("relay."):]           # e.g. "nn.prelu", "zeros", "image.resize2d"
    leaf = short.rsplit(".", 1)[-1]      # e.g. "prelu"
    alts = [
        r"\brelay\." + re.escape(short) + r"\b",       # relay.nn.prelu / relay.zeros
        r"(?<![\w])" + re.escape(short) + r"\b(?!\.)" if "." in short else None,  # nn.prelu
        r"""["']""" + re.escape(op) + r"""["']""",     # "relay.nn.prelu"
        r"""["']""" + re.escape(short) + r"""["']""",  # "nn.prelu" / "zeros"
    ]
    if "." not in short:
        alts.append(r"""["']""" + re.escape(leaf) + r"""["']""")
    return re.compile("|".join(a for a in alts if a))


def test_ops_md_parses():
    sections = _sections()
    assert sections, "no `## Family (N)` sections found in docs/ops.md"
    for title, names in sections.items():
        assert names, f"section {title!r} lists no ops"
    # The section header counts agree with the rows.
    for line in OPS_MD.read_text().splitlines():
        m = SECTION_RE.match(line)
        if m:
            assert len(sections[m.group("title")]) == int(m.group("count")), m.group("title")
    assert any(t.startswith(EXCLUDED_SECTIONS[0]) for t in sections)
    assert any(t.startswith(EXCLUDED_SECTIONS[1]) for t in sections)
    assert len(COVERED_OPS) > 100


def test_lit_op_regex_word_boundary():
    pat = lit_op_re("relay.ones")
    assert not pat.search("%y = relay.ones_like %x : (tensor<2xf32>) -> tensor<2xf32>")
    assert pat.search("%y = relay.ones {shape = array<i64: 2>, dtype = f32} : () -> tensor<2xf32>")
    assert not lit_op_re("relay.nn").search("%y = relay.nn.relu %x")


@pytest.mark.parametrize("op", COVERED_OPS)
def test_op_has_lowering_lit_test(op):
    assert lit_op_re(op).search(lit_text()), (
        f"{op} has no lowering test in test/lit/conversion/*.mlir")


@pytest.mark.parametrize("op", COVERED_OPS)
def test_op_has_numeric_test(op):
    assert numeric_op_re(op).search(numeric_text()), (
        f"{op} is not referenced by test/python/ops/test_*.py or test/python/test_ops.py")
