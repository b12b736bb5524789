"""The seeded input rule of the TVM text corpus (test/data/relay_text).

Shared by ``scripts/tvm_text_corpus.py`` (which runs in the TVM side venv and
loads this file by path: it needs only numpy) and ``test_text_corpus.py``,
so the values TVM's outputs were made with and the values the test feeds
are computed by one function.

    >>> a, = corpus_inputs([("data", (2,), "float32")], 0)
    >>> a.dtype.name, a.shape
    ('float32', (2,))
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

__all__ = ["corpus_inputs"]


def corpus_inputs(params: Sequence[Tuple[str, Sequence[int], str]], seed: int) -> List[np.ndarray]:
    """Values for @main's parameters: the i-th uses ``rs = RandomState(seed + i)``:
    ints ``randint(0, 4)``, bools ``randint(0, 2) != 0``, names ending
    ``_var``/``_gamma`` ``uniform(0.5, 1.5)``, weights (i > 0, rank >= 2)
    ``uniform(-1, 1) / sqrt(prod(shape[1:]))``, the rest ``uniform(-1, 1)``."""
    out = []
    for i, (name, shape, dtype) in enumerate(params):
        rs = np.random.RandomState(seed + i)
        shape = tuple(int(d) for d in shape)
        if dtype == "bool":
            a = rs.randint(0, 2, shape) != 0
        elif dtype.startswith(("int", "uint")):
            a = rs.randint(0, 4, shape)
        elif name.endswith(("_var", "_gamma")):
            a = rs.uniform(0.5, 1.5, shape)
        elif i > 0 and len(shape) >= 2:
            a = rs.uniform(-1.0, 1.0, shape) / np.sqrt(float(np.prod(shape[1:])))
        else:
            a = rs.uniform(-1.0, 1.0, shape)
        out.append(np.asarray(a).astype(dtype))
    return out
