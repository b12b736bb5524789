"""``save_param_dict`` / ``load_param_dict`` (``tvm.runtime`` and ``tvm.relay``): params as bytes
in TVM 0.19's own format, so files TVM wrote load here and the other way round::

    u64 magic 0xF7E58D4F05049CB7, u64 reserved,
    u64 count, count x (u64 length, UTF-8 name)       # names in sorted order
    u64 count, count x NDArray blob                    # relay_mlir._tvm_ndarray's layout

``save_param_dict(params)`` returns a ``bytearray`` (as TVM); ``load_param_dict(data)`` a dict
of name -> ``NDArray``.

    >>> import numpy as np
    >>> data = save_param_dict({"w": np.arange(3, dtype="float32")})
    >>> load_param_dict(data)["w"].numpy()
    array([0., 1., 2.], dtype=float32)
"""
from __future__ import annotations

import os
import struct
from typing import Dict, Mapping

import numpy as np

from ..._tvm_ndarray import ndarray_from_bytes, ndarray_to_bytes
from .ndarray import NDArray

__all__ = ["save_param_dict", "load_param_dict", "save_param_dict_to_file", "load_param_dict_from_file"]

_LIST_MAGIC = 0xF7E58D4F05049CB7


def save_param_dict(params: Mapping[str, object]) -> bytearray:
    """``params`` (name -> NDArray or numpy array) in TVM's format."""
    names = sorted(params)
    out = bytearray(struct.pack("<QQQ", _LIST_MAGIC, 0, len(names)))
    for name in names:
        raw = name.encode("utf-8")
        out += struct.pack("<Q", len(raw)) + raw
    out += struct.pack("<Q", len(names))
    for name in names:
        value = params[name]
        out += ndarray_to_bytes(value._data if isinstance(value, NDArray) else np.asarray(value))
    return out


def load_param_dict(param_bytes: bytes) -> Dict[str, NDArray]:
    """The params of bytes ``save_param_dict`` (ours or TVM's) wrote; ``ValueError`` otherwise."""
    raw = bytes(param_bytes)
    try:
        magic, _reserved, count = struct.unpack_from("<QQQ", raw, 0)
        if magic != _LIST_MAGIC:
            raise ValueError("not TVM params (wrong magic number)")
        off, names = 24, []
        for _ in range(count):
            (n,) = struct.unpack_from("<Q", raw, off)
            names.append(raw[off + 8:off + 8 + n].decode("utf-8"))
            off += 8 + n
        (arrays,) = struct.unpack_from("<Q", raw, off)
        off += 8
    except (struct.error, UnicodeDecodeError):
        raise ValueError("load_param_dict: the params are truncated or malformed") from None
    if arrays != count:
        raise ValueError(f"load_param_dict: {count} names but {arrays} arrays")
    out = {}
    for name in names:
        try:
            arr, off = ndarray_from_bytes(raw, off)
        except ValueError as e:
            raise ValueError(f"load_param_dict: param '{name}': {e}") from None
        out[name] = NDArray(arr)
    return out


def save_param_dict_to_file(params: Mapping[str, object], path: "os.PathLike[str] | str") -> None:
    with open(path, "wb") as f:
        f.write(save_param_dict(params))


def load_param_dict_from_file(path: "os.PathLike[str] | str") -> Dict[str, NDArray]:
    with open(path, "rb") as f:
        return load_param_dict(f.read())
