"""``driver="auto"``: llvm-cpu code without loops runs on the faster of IREE's ``local-task``
and ``local-sync``, measured by the first call (relay_mlir.runtime.choose_cpu_driver).

Which driver wins depends on the machine and its load, so the tests check the mechanism
(what is measured, what is kept, that results do not change), never which one wins.
"""
from __future__ import annotations

import time
import types

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.runtime import AUTO_DRIVER, CPU_DRIVERS, Executable, choose_cpu_driver


def _counting(delay_s: float, log: list, name: str):
    def call():
        log.append(name)
        end = time.perf_counter() + delay_s
        while time.perf_counter() < end:
            pass
    return call


def test_the_faster_driver_is_chosen_by_median():
    log: list = []
    calls = {"local-task": _counting(0.004, log, "local-task"),
             "local-sync": _counting(0.0, log, "local-sync")}
    driver, medians = choose_cpu_driver(calls, calls_each=3, warm_s=0, round_s=0)
    assert driver == "local-sync"
    assert set(medians) == set(CPU_DRIVERS) and medians["local-task"] > medians["local-sync"]
    # one timed first call, one warm-up each, then 3 interleaved calls, and 3 more to
    # confirm that the second driver wins
    assert log == ["local-task", "local-task", "local-sync"] + ["local-task", "local-sync"] * 6


def _fake_clock(monkeypatch) -> list:
    """relay_mlir.runtime's clock made a counter (microseconds) that only calls advance."""
    now = [0]
    monkeypatch.setattr(relay.runtime, "time", types.SimpleNamespace(perf_counter=lambda: now[0] * 1e-6))
    return now


def test_a_win_the_second_round_does_not_confirm_keeps_the_first_driver(monkeypatch):
    """local-task slow only while the first round runs (another process on one core): kept."""
    now, log = _fake_clock(monkeypatch), []

    def task():  # 4 ms for the warm-up call and the first round's 3 calls, then 0.5 ms
        log.append("local-task")
        now[0] += 4000 if log.count("local-task") <= 4 else 500

    def sync():
        log.append("local-sync")
        now[0] += 1000
    calls = {"local-task": task, "local-sync": sync}
    driver, medians = choose_cpu_driver(calls, first_call_s=0.0, calls_each=3, warm_s=0, round_s=0)
    assert driver == "local-task"
    assert log == ["local-task", "local-sync"] + ["local-task", "local-sync"] * 6
    # the medians are each driver's better round
    assert medians == pytest.approx({"local-task": 0.0005, "local-sync": 0.001})


def test_a_slow_first_call_keeps_the_first_driver_without_measuring():
    log: list = []
    calls = {"local-task": _counting(0.0, log, "local-task"),
             "local-sync": _counting(0.0, log, "local-sync")}
    assert choose_cpu_driver(calls, first_call_s=0.05) == ("local-task", {})
    assert log == []
    # below the bound it measures (the given first call is not repeated)
    driver, medians = choose_cpu_driver(calls, first_call_s=0.001, calls_each=1, warm_s=0, round_s=0)
    assert driver in CPU_DRIVERS and set(medians) == set(CPU_DRIVERS)
    # a warm-up call each, a round, and a confirming round if local-sync won by noise
    assert log[:4] == ["local-task", "local-sync", "local-task", "local-sync"]
    assert log[4:] in ([], ["local-task", "local-sync"])


def test_fast_functions_warm_up_and_are_timed_for_a_while(monkeypatch):
    """Calls of 1 ms (on a fake clock: no timing of this machine): each driver warms up for
    5 ms, then a round of 20 ms / 1 ms = 20 timed calls each; local-task wins the tie."""
    now, log = _fake_clock(monkeypatch), []

    def call(name):
        def run():
            log.append(name)
            now[0] += 1000
        return run
    calls = {"local-task": call("local-task"), "local-sync": call("local-sync")}
    driver, medians = choose_cpu_driver(calls, first_call_s=0.0, calls_each=3, warm_s=0.005,
                                        round_s=0.02)
    assert driver == "local-task"
    assert medians == pytest.approx({"local-task": 0.001, "local-sync": 0.001})
    assert log == ["local-task"] * 5 + ["local-sync"] * 5 + ["local-task", "local-sync"] * 20


def test_ties_go_to_the_first_driver(monkeypatch):
    monkeypatch.setattr(relay.runtime.statistics, "median", lambda ts: 1.0)
    calls = {"local-task": lambda: None, "local-sync": lambda: None}
    assert choose_cpu_driver(calls, first_call_s=0.0, calls_each=1)[0] == "local-task"


@pytest.fixture(scope="module")
def compiled():
    """One compile of a small program (dense + relu + add); tests make Executables of its vmfb."""
    x = relay.var("x", shape=(4, 8))
    w = relay.const(np.arange(64, dtype="float32").reshape(8, 8) / 64)
    return relay.compile(relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.nn.dense(x, w)) + x)))


def test_compile_gives_auto_and_the_first_call_resolves_it(compiled):
    exe = compiled
    assert exe.driver == AUTO_DRIVER and exe.requested_driver == AUTO_DRIVER
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(4, 8)
    want = np.maximum(x @ (np.arange(64, dtype="float32").reshape(8, 8) / 64).T, 0) + x
    first = exe(x)
    assert exe.driver in CPU_DRIVERS, exe.driver
    assert set(exe.driver_timings) == set(CPU_DRIVERS)  # a tiny program: measured
    assert all(t > 0 for t in exe.driver_timings.values())
    assert list(exe._contexts) == [exe.driver]  # the other driver's context is dropped
    np.testing.assert_allclose(first, want, rtol=1e-6, atol=1e-6)
    chosen = exe.driver
    np.testing.assert_array_equal(exe(x), first)
    assert exe.driver == chosen and exe.requested_driver == AUTO_DRIVER


def test_both_drivers_give_the_same_bits(compiled):
    exe = Executable(compiled.vmfb, driver=AUTO_DRIVER)
    x = np.linspace(-3, 3, 32, dtype="float32").reshape(4, 8)
    outs = [Executable(exe.vmfb, driver=d)(x) for d in CPU_DRIVERS]
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(exe(x), outs[0])


def test_a_bad_first_call_raises_and_leaves_auto(compiled):
    exe = Executable(compiled.vmfb, driver=AUTO_DRIVER)
    with pytest.raises(relay.errors.InputShapeError):
        exe(np.zeros((3, 8), "float32"))
    assert exe.driver == AUTO_DRIVER
    exe(np.zeros((4, 8), "float32"))
    assert exe.driver in CPU_DRIVERS


def test_explicit_drivers_and_loaded_modules_are_not_measured(compiled, tmp_path):
    exe = Executable(compiled.vmfb, driver="local-task")
    exe(np.zeros((4, 8), "float32"))
    assert (exe.driver, exe.driver_timings) == ("local-task", {})
    exe.save(tmp_path / "m.vmfb")
    loaded = Executable.load(tmp_path / "m.vmfb")
    assert loaded.driver == "local-task"
    loaded(np.zeros((4, 8), "float32"))
    assert loaded.driver_timings == {}


def test_programs_with_run_time_sizes_stay_on_local_task():
    """"auto" would time the first call's sizes only, so compile() does not give a program
    with run-time sizes "auto"."""
    x = relay.var("x", shape=(relay.Any(), 8))
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x))))
    assert exe.driver == "local-task"
    np.testing.assert_array_equal(exe(np.array([[-1.0] * 8], "float32")), np.zeros((1, 8), "float32"))
    assert exe.driver == "local-task" and exe.driver_timings == {}
