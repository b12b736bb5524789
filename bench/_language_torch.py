"""PyTorch twins of bench/language.py's dynamic models, with the same weights and math.

- eager: Python recursion over the tree / over the time steps, as a PyTorch
  user writes them;
- TorchScript: ``torch.jit.script`` does not compile recursive functions
  (``recursion_error`` says why, measured at run time), so the scripted forms
  are loops: the RNN's loop over the list of steps, and the TreeLSTM as one
  loop over the nodes in post-order (children before parents) with the
  states in a list; the same ops per node as the recursive form.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
import torch
from torch import Tensor

GATES = "iofu"


def weights(W: Dict[str, np.ndarray], U: Dict[str, np.ndarray]) -> List[Tensor]:
    """``[W_i, W_o, W_f, W_u, U_i, U_o, U_f, U_u]`` as torch tensors."""
    return [torch.from_numpy(W[g]) for g in GATES] + [torch.from_numpy(U[g]) for g in GATES]


# ---------------------------------------------------------------------------------------
# TreeLSTM (child-sum)
def _node(x: Tensor, kids: List[Tuple[Tensor, Tensor]], w: List[Tensor]) -> Tuple[Tensor, Tensor]:
    Wi, Wo, Wf, Wu, Ui, Uo, Uf, Uu = w
    hs = torch.zeros(1, Ui.shape[0])
    for h, _ in kids:
        hs = hs + h
    i_g = torch.sigmoid(x @ Wi.T + hs @ Ui.T)
    o_g = torch.sigmoid(x @ Wo.T + hs @ Uo.T)
    u_g = torch.tanh(x @ Wu.T + hs @ Uu.T)
    c = i_g * u_g
    for h, ck in kids:
        c = c + torch.sigmoid(x @ Wf.T + h @ Uf.T) * ck
    return o_g * torch.tanh(c), c


def tree_lstm_eager(w: List[Tensor], children: List[List[int]], xs: List[Tensor],
                    i: int = 0) -> Tuple[Tensor, Tensor]:
    """(h, c) of node ``i`` by Python recursion over its children."""
    kids = [tree_lstm_eager(w, children, xs, k) for k in children[i]]
    return _node(xs[i], kids, w)


@torch.jit.script
def tree_lstm_scripted(w: List[Tensor], order: List[int], children: List[List[int]],
                       xs: List[Tensor]) -> Tensor:
    """The same cell as one loop over ``order`` (post-order: children first)."""
    Wi, Wo, Wf, Wu, Ui, Uo, Uf, Uu = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
    hs_all: List[Tensor] = [torch.zeros(0) for _ in range(len(xs))]
    cs_all: List[Tensor] = [torch.zeros(0) for _ in range(len(xs))]
    for i in order:
        x = xs[i]
        hs = torch.zeros(1, Ui.shape[0])
        for k in children[i]:
            hs = hs + hs_all[k]
        i_g = torch.sigmoid(x @ Wi.T + hs @ Ui.T)
        o_g = torch.sigmoid(x @ Wo.T + hs @ Uo.T)
        u_g = torch.tanh(x @ Wu.T + hs @ Uu.T)
        c = i_g * u_g
        for k in children[i]:
            c = c + torch.sigmoid(x @ Wf.T + hs_all[k] @ Uf.T) * cs_all[k]
        hs_all[i] = o_g * torch.tanh(c)
        cs_all[i] = c
    return hs_all[0]


def post_order(nodes: List[List[int]]) -> List[int]:
    """Node indices, children before parents (iterative: no Python recursion)."""
    out, stack = [], [(0, False)]
    while stack:
        i, done = stack.pop()
        if done:
            out.append(i)
            continue
        stack.append((i, True))
        stack.extend((k, False) for k in reversed(nodes[i]))
    return out


# ---------------------------------------------------------------------------------------
# Elman RNN over a list of time steps
def rnn_eager(w: Tensor, u: Tensor, xs: List[Tensor], h: Tensor, i: int = 0) -> Tensor:
    """Python recursion over the steps, like the Relay program's ``@rnn``."""
    if i == len(xs):
        return h
    return rnn_eager(w, u, xs, torch.tanh(xs[i] @ w.T + h @ u.T), i + 1)


@torch.jit.script
def rnn_scripted(w: Tensor, u: Tensor, xs: List[Tensor], h: Tensor) -> Tensor:
    for x in xs:
        h = torch.tanh(x @ w.T + h @ u.T)
    return h


def recursion_error() -> str:
    """What ``torch.jit.script`` says about the recursive forms ('' if it takes them)."""
    msgs = []
    for fn in (rnn_eager, tree_lstm_eager):
        try:
            torch.jit.script(fn)
        except Exception as e:  # noqa: BLE001 - the message is the result
            msgs.append(" ".join(str(e).split()).split(' File "')[0].rstrip(": "))
    return "; ".join(msgs)
