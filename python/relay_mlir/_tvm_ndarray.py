"""TVM's binary NDArray format and metadata section, for the Relay text format.

``#[metadata]`` in TVM's text holds a JSON object graph (``tvm.ir.save_json``)
whose root maps ``"relay.Constant"`` to the constants that the text refers to
as ``meta[relay.Constant][i]``; each constant's tensor is a base64 blob in
``"b64ndarrays"``, in TVM's ``NDArray::Save`` layout::

    u64 magic 0xDD5E40F096B4A13F, u64 reserved,
    i32 device_type, i32 device_id, i32 ndim,
    u8 type code (0 int, 1 uint, 2 float, 4 bfloat), u8 bits, u16 lanes,
    i64 shape[ndim], i64 byte size, data (little endian, row major)

Example::

    >>> import numpy as np
    >>> a = np.arange(6, dtype="float32").reshape(2, 3)
    >>> np.array_equal(decode_ndarray(encode_ndarray(a)), a)
    True
"""
from __future__ import annotations

import base64
import json
import struct
from typing import Dict, List, Tuple

import numpy as np

__all__ = ["encode_ndarray", "decode_ndarray", "ndarray_to_bytes", "ndarray_from_bytes", "parse_metadata",
           "write_metadata"]

_MAGIC = 0xDD5E40F096B4A13F
_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat"}


def decode_ndarray(b64: str) -> np.ndarray:
    """The numpy array of a base64 TVM NDArray blob; raises ValueError on a malformed one."""
    try:
        raw = base64.b64decode(b64, validate=False)
    except Exception as e:  # binascii.Error
        raise ValueError(f"metadata tensor is not valid base64: {e}") from None
    return ndarray_from_bytes(raw)[0]


def ndarray_from_bytes(raw: bytes, offset: int = 0) -> Tuple[np.ndarray, int]:
    """``(array, end offset)`` of the TVM NDArray blob at ``offset`` of ``raw`` (``NDArray::Save``
    layout); raises ValueError on a malformed one."""
    try:
        magic, _reserved, _dev_type, _dev_id, ndim = struct.unpack_from("<QQiii", raw, offset)
        if magic != _MAGIC:
            raise ValueError("metadata tensor has a wrong magic number")
        if not 0 <= ndim <= 32:
            raise ValueError(f"metadata tensor has rank {ndim}")
        code, bits, lanes = struct.unpack_from("<BBH", raw, offset + 28)
        shape = struct.unpack_from(f"<{ndim}q", raw, offset + 32)
        off = offset + 32 + 8 * ndim
        (nbytes,) = struct.unpack_from("<q", raw, off)
        off += 8
    except struct.error:
        raise ValueError("metadata tensor is truncated") from None
    if lanes != 1 or code not in _CODES:
        raise ValueError(f"metadata tensor has an unsupported dtype (code {code}, lanes {lanes})")
    if any(d < 0 for d in shape):
        raise ValueError(f"metadata tensor has a negative dim: {shape}")
    if code == 1 and bits == 1:
        dtype = np.dtype("bool")
    elif code == 4:
        raise ValueError("bfloat16 metadata tensors are not supported")
    else:
        dtype = np.dtype(f"{_CODES[code][0] if code != 1 else 'u'}{bits // 8}")
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if nbytes != count * dtype.itemsize or off + nbytes > len(raw):
        raise ValueError(f"metadata tensor of shape {list(shape)} and dtype {dtype} claims {nbytes} "
                         f"bytes, holds {max(0, len(raw) - off)}")
    arr = np.frombuffer(raw, dtype=dtype.newbyteorder("<"), count=count, offset=off)
    return arr.astype(dtype).reshape(shape), off + nbytes


def encode_ndarray(arr: np.ndarray) -> str:
    """The base64 TVM NDArray blob of ``arr``."""
    return base64.b64encode(ndarray_to_bytes(arr)).decode("ascii")


def ndarray_to_bytes(arr: np.ndarray) -> bytes:
    """The TVM NDArray blob (``NDArray::Save`` layout, on cpu(0)) of ``arr``."""
    arr = np.asarray(arr)
    arr = np.ascontiguousarray(arr).reshape(arr.shape)  # ascontiguousarray makes 0-d arrays 1-d
    if arr.dtype == np.bool_:
        code, bits = 1, 1
    elif arr.dtype.kind in "iuf":
        code, bits = {"i": 0, "u": 1, "f": 2}[arr.dtype.kind], arr.dtype.itemsize * 8
    else:
        raise ValueError(f"cannot store a {arr.dtype} tensor in TVM metadata")
    data = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
    head = struct.pack("<QQiii", _MAGIC, 0, 1, 0, arr.ndim) + struct.pack("<BBH", code, bits, 1)
    head += struct.pack(f"<{arr.ndim}q", *arr.shape) + struct.pack("<q", len(data))
    return head + data


# Fields TVM 0.19 stores as plain values (int, bool, double) in the attrs objects it prints
# to the metadata section; other numeric fields there are references to other nodes.
_POD_FIELDS = {"relay.attrs.UniqueAttrs": {"sorted", "return_counts"},
               "relay.attrs.TriluAttrs": {"upper"},
               "relay.attrs.DynExpandDimsAttrs": {"num_newaxis"},
               "relay.attrs.DilateAttrs": {"dilation_value"}}


class AttrsFields(dict):
    """The fields of an attrs object of the metadata section (``meta[relay.attrs.X][i]``, which
    TVM prints for operators registered without an attrs type: cumsum, unique, scatter_nd,
    ...), as Python values; ``type_key`` is the attrs type."""

    def __init__(self, type_key: str, fields: Dict[str, object]) -> None:
        super().__init__(fields)
        self.type_key = type_key


def _pod(v: str) -> object:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def attrs_fields(nodes: List[dict], item: dict) -> AttrsFields:
    """The Python values of an attrs node's fields: node references are resolved (IntImm,
    FloatImm, strings, arrays; the null node is None), plain values parsed."""
    type_key = str(item.get("type_key"))
    pod = _POD_FIELDS.get(type_key, set())

    def value(v: object, field: str = "") -> object:
        if not isinstance(v, str) or field in pod or not v.isdigit() or int(v) >= len(nodes):
            return _pod(v) if isinstance(v, str) and field != "dtype" else v
        n = nodes[int(v)]
        tk, a = n.get("type_key", ""), n.get("attrs", {})
        if tk == "":
            return None
        if tk == "IntImm":
            iv = int(a.get("value", 0))
            return bool(iv) if a.get("dtype") == "bool" else iv
        if tk == "FloatImm":
            return float(a.get("value", 0.0))
        if tk in ("runtime.String", "runtime.BoxInt", "runtime.BoxFloat", "runtime.BoxBool"):
            return _pod(n.get("repr_str", "")) if tk != "runtime.String" else n.get("repr_str", "")
        if tk == "Array":
            return [value(str(j)) for j in n.get("data", [])]
        return _pod(v)

    fields = {k: value(v, k) for k, v in item.get("attrs", {}).items() if k != "span"}
    if fields.get("dtype") == "":
        fields["dtype"] = None
    return AttrsFields(type_key, fields)


def parse_metadata(text: str) -> Dict[str, List[object]]:
    """``{"relay.Constant": [numpy arrays...], ...}`` from a metadata section's JSON.

    Only tensors (``relay.Constant``) are materialised; other entries (e.g.
    ``runtime.BoxInt``) become their JSON attributes. Raises ValueError.
    """
    try:
        graph = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"metadata section is not valid JSON: {e}") from None
    if not isinstance(graph, dict) or "nodes" not in graph:
        raise ValueError("metadata section has no 'nodes'")
    nodes = graph["nodes"]
    arrays = graph.get("b64ndarrays", [])

    def node(i):
        if not isinstance(i, int) or not 0 <= i < len(nodes):
            raise ValueError(f"metadata refers to node {i!r}, which does not exist")
        return nodes[i]

    root = node(int(graph.get("root", 1)))
    keys, data = root.get("keys", []), root.get("data", [])
    out: Dict[str, List[object]] = {}
    if keys and len(keys) == len(data):  # a string-keyed Map
        pairs = list(zip(keys, data))
    else:  # Map with object keys: data interleaves key, value
        pairs = [(node(data[i]).get("repr_str", ""), data[i + 1]) for i in range(0, len(data) - 1, 2)]
    for key, arr_index in pairs:
        items = []
        for item_index in node(arr_index).get("data", []):
            item = node(item_index)
            attrs = item.get("attrs", {})
            if item.get("type_key") == "relay.Constant":
                try:
                    blob = arrays[int(attrs.get("data"))]
                except (TypeError, ValueError, IndexError):
                    raise ValueError(f"metadata constant refers to missing tensor data "
                                     f"{attrs.get('data')!r}") from None
                items.append(decode_ndarray(blob))
            elif str(item.get("type_key", "")).startswith("relay.attrs."):
                items.append(attrs_fields(nodes, item))
            else:  # boxed scalars (runtime.BoxInt) carry their value as repr_str
                items.append(dict(attrs, repr_str=item["repr_str"]) if "repr_str" in item else attrs)
        out[key] = items
    return out


def write_metadata(constants: List[np.ndarray]) -> str:
    """The JSON of a metadata section holding ``constants`` as ``relay.Constant``s."""
    nodes: List[dict] = [{"type_key": ""}]
    root = {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]}
    nodes.append(root)
    arr = {"type_key": "Array", "data": []}
    nodes.append(arr)
    for i in range(len(constants)):
        arr["data"].append(len(nodes))
        nodes.append({"type_key": "relay.Constant",
                      "attrs": {"_checked_type_": "0", "data": str(i), "span": "0",
                                "virtual_device_": "0"}})
    return json.dumps({"root": 1, "nodes": nodes, "b64ndarrays": [encode_ndarray(c) for c in constants],
                       "attrs": {"tvm_version": "0.19.0"}}, indent=2)
