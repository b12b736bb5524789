"""TVM's ``BenchmarkResult`` and the timing loop of ``time_evaluator``/``benchmark``.

TVM 0.19: ``module.time_evaluator(func_name, dev, number=10, repeat=1,
min_repeat_ms=0, ...)`` returns a function whose call gives a ``BenchmarkResult``:
``.results`` is a tuple of ``repeat`` mean seconds per call (each over ``number``
calls; with ``min_repeat_ms`` the number grows until one repeat lasts that long),
with ``.mean``, ``.median``, ``.max``, ``.min``, ``.std`` of them; ``str`` prints a
summary in milliseconds.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable, Optional, Sequence

import numpy as np

__all__ = ["BenchmarkResult", "time_calls"]


class BenchmarkResult:
    """Seconds per call, one entry per repeat."""

    def __init__(self, results: Sequence[float]) -> None:
        self.results = tuple(float(r) for r in results)
        if not self.results:
            raise ValueError("a BenchmarkResult needs at least one result")
        # numpy float64s, as TVM 0.19's np.mean/np.median/... give
        self.mean = np.float64(statistics.fmean(self.results))
        self.median = np.float64(statistics.median(self.results))
        self.max = np.float64(max(self.results))
        self.min = np.float64(min(self.results))
        self.std = np.float64(statistics.pstdev(self.results))

    def __str__(self) -> str:
        heads = ["mean (ms)", "median (ms)", "max (ms)", "min (ms)", "std (ms)"]
        values = [self.mean, self.median, self.max, self.min, self.std]
        return ("Execution time summary:\n" + "".join(f"{h:>13}" for h in heads) + "\n"
                + "".join(f"{v * 1e3:>13.4f}" for v in values) + "\n")

    def __repr__(self) -> str:
        return f"BenchmarkResult(min={self.min}, mean={self.mean}, median={self.median}, " \
               f"max={self.max}, std={self.std}, results={list(self.results)})"


def _positive(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return value


def time_calls(call: Callable[[], object], number: int, repeat: int,
               min_repeat_ms: Optional[float] = None, cooldown_interval_ms: float = 0,
               repeats_to_cooldown: int = 1) -> BenchmarkResult:
    """Times ``call()``: ``repeat`` repeats of ``number`` calls (see the module docstring)."""
    number, repeat = _positive(number, "number"), _positive(repeat, "repeat")
    results = []
    for r in range(repeat):
        while True:
            t = time.perf_counter()
            for _ in range(number):
                call()
            spent = time.perf_counter() - t
            if not min_repeat_ms or spent * 1e3 >= min_repeat_ms:
                break
            number = max(number + 1, int(number * min_repeat_ms / max(spent * 1e3, 1e-3)))
        results.append(spent / number)
        if cooldown_interval_ms and (r + 1) % max(1, repeats_to_cooldown) == 0:
            time.sleep(cooldown_interval_ms / 1e3)
    return BenchmarkResult(results)
