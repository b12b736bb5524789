"""The names TVM 0.19's ``from_pytorch`` gives a TorchScript graph's nodes and weights.

TVM renames every node (but ``prim::GetAttr``) ``<kind>_<n>``, ``n`` counting that
kind from 0 in graph order (the nodes of an ``If``/``Loop`` block before the node
that holds them; nodes without outputs are skipped); with
``use_parser_friendly_name`` the ``:`` and ``.`` of those names become ``_``. A
weight reached by a chain of ``prim::GetAttr`` is named after the first user of the
chain's last node and the attribute: ``aten::_convolution_0.weight``; friendly names
join with ``_`` and keep only what follows the attribute's last ``_``
(``running_mean`` -> ``aten__batch_norm_0_mean``); an attribute path ending in a
number (a ``ParameterList`` entry) keeps its last two parts (``weights.1``). A weight
read again (by another GetAttr) is the same parameter. Where TVM would give two
different weights one name (and so one parameter: wrong results), the second keeps
its whole attribute path (``aten::_transformer_encoder_layer_fwd_0.linear2.weight``).
"""
from __future__ import annotations

import re
from typing import Dict, List, Tuple

_BLOCK_KINDS = ("prim::If", "prim::Loop")


def source_names(graph, friendly: bool, scopes: bool = False) -> Dict[int, str]:
    """``id`` of each node's first output (``Value.unique()``) -> the node's TVM source name;
    the outputs are renamed as TVM renames them (``aten::linear_0_0``: source name, output
    index). With ``scopes`` (``preserve_pytorch_scopes``) the source name is the module
    path of the node's scope (``layer1.0.conv1``) and outputs get a count per path."""
    counts: Dict[str, int] = {}
    names: Dict[int, str] = {}

    def count(key: str) -> int:
        counts[key] = counts.get(key, -1) + 1
        return counts[key]

    def walk(nodes) -> None:
        for node in nodes:
            if node.outputsSize() == 0:
                continue
            if node.kind() in _BLOCK_KINDS:
                for block in node.blocks():
                    walk(block.nodes())
            if node.kind() == "prim::GetAttr":
                continue
            if scopes:
                name = ".".join(p for p in (part.split("::")[-1] for part in node.scopeName().split("/")) if p)
                outs = f"{name}_{count(name)}"
            else:
                name = outs = f"{node.kind()}_{count(node.kind())}"
            for i, v in enumerate(node.outputs()):
                v.setDebugName(f"{outs}_{i}")
            names[node.outputsAt(0).unique()] = re.sub(r":|\.", "_", name) if friendly else name
    walk(graph.nodes())
    return names


def attr_path(node) -> List[str]:
    """The attribute names from the module (``self``) to ``node``'s output: a chain of GetAttr."""
    path: List[str] = []
    while node.kind() == "prim::GetAttr":
        path.append(node.s("name"))
        node = node.inputsAt(0).node()
    return path[::-1]


def weight_names(graph, state_dict_keys, sources: Dict[int, str],
                 friendly: bool) -> Tuple[Dict[int, str], Dict[str, str]]:
    """(GetAttr output id -> TVM weight name, TVM weight name -> state_dict key) for each
    GetAttr that reads a tensor of the module's state dict (in TVM's order); ``sources``
    are the nodes' source names (``source_names``)."""
    sep = "_" if friendly else "."
    keys = {k.replace(".", sep): k for k in state_dict_keys}
    by_value: Dict[int, str] = {}
    by_name: Dict[str, str] = {}
    seen: set = set()
    for root in graph.findAllNodes("prim::GetAttr", True):
        if root.outputsAt(0).unique() in seen:
            continue
        for node in _chain_ends(root, seen):
            _name_weight(node, sep, keys, sources, by_value, by_name)
    return by_value, by_name


def _chain_ends(root, seen: set) -> List[object]:
    """The last GetAttr of each chain of GetAttrs from ``root``, in the order TVM visits them
    (depth first over each value's uses, as TorchScript lists them)."""
    ends, stack = [], [root]
    while stack:
        node = stack.pop()
        seen.add(node.outputsAt(0).unique())
        users = [u.user for u in node.outputsAt(0).uses()]
        nxt = [u for u in users if u.kind() == "prim::GetAttr"]
        if not nxt:
            ends.append(node)
        stack.extend(reversed(nxt))
    return ends


def _name_weight(node, sep: str, keys: Dict[str, str], sources: Dict[int, str],
                 by_value: Dict[int, str], by_name: Dict[str, str]) -> None:
    """Names the weight ``node`` (the end of a GetAttr chain) reads, if it is in the state dict."""
    full = sep.join(attr_path(node))
    uses = node.outputsAt(0).uses()
    if full not in keys or not uses:
        return
    user = uses[0].user
    if user.outputsSize() == 0 or user.outputsAt(0).unique() not in sources:
        return
    parts = full.split(sep)
    attr = parts[-2:] if re.search(re.escape(sep) + r"\d+$", full) else parts[-1:]
    name = sep.join([sources[user.outputsAt(0).unique()]] + attr)
    if by_name.get(name, keys[full]) != keys[full]:
        # another weight has this name (one node reading several modules' weights, e.g. the
        # fused aten::_transformer_encoder_layer_fwd): TVM 0.19 would make them one parameter,
        # giving wrong results; this one keeps its whole attribute path
        name = sep.join([sources[user.outputsAt(0).unique()], full])
    by_value[node.outputsAt(0).unique()] = name
    by_name.setdefault(name, keys[full])
