"""TVM 0.19's free functions relay.bind / astext / pretty_print and relay.Prelude, through the
TVM stand-in (behaviour measured in TVM 0.19's side venv, recorded here as expectations)."""
import pytest

import relay_mlir.tvm as tvm
from relay_mlir.tvm import relay


def _vars():
    return [relay.var(n, shape=(2,)) for n in "xyz"]


def test_bind_drops_params_bound_to_values_and_renames_params_bound_to_vars():
    x, y, z = _vars()
    f = relay.bind(relay.Function([x, y], x + y), {y: relay.const(1.0), x: z})
    assert [p.name_hint for p in f.params] == ["z"]  # TVM 0.19: fn (%z) { add(%z, 1f) }
    assert str(f).splitlines()[-2].strip() == "add(%z, 1f)"


def test_bind_substitutes_free_vars_of_an_expression():
    x, y, z = _vars()
    e = relay.bind(x + y, {x: z})
    assert [v.name_hint for v in relay.analysis.free_vars(e)] == ["z", "y"]  # TVM's order


def test_bind_rejects_non_var_keys():
    x, _, _ = _vars()
    with pytest.raises(TypeError, match="Vars to relay Exprs"):
        relay.bind(x, {"x": relay.const(1.0)})


def test_astext_and_pretty_print(capsys):
    x, y, _ = _vars()
    text = relay.astext(tvm.IRModule.from_expr(relay.Function([x, y], x + y)))
    assert text.startswith('#[version = "0.0.5"]') and "add(%x, %y)" in text
    relay.pretty_print(x + y)
    assert "add(%x, %y)" in capsys.readouterr().out
    with pytest.raises(NotImplementedError, match="annotate"):
        relay.astext(x, annotate=lambda n: "")


def test_integral_float_constants_print_as_tvm():
    # TVM 0.19 prints ``1f``, ``-2f``, ``100000f``, ``1e+06f``, ``0.5f``, ``1f64``
    got = [str(relay.const(v)).splitlines()[-1] for v in (1.0, -2.0, 100000.0, 1e6, 0.5)]
    assert got == ["1f", "-2f", "100000f", "1e+06f", "0.5f"]
    assert str(relay.const(1.0, "float64")).splitlines()[-1] == "1f64"
    for t in got:  # and read back
        assert float(relay.parse_expr(t).data) == float(t.rstrip("f"))


def test_prelude_is_reachable_as_relay_prelude():
    # TVM scripts write ``relay.Prelude(mod)`` (tvm.relay.prelude.Prelude re-exported)
    mod = tvm.IRModule()
    p = relay.Prelude(mod)
    assert p.mod is mod and p.cons.name_hint == "Cons" and p.get_global_var("map").name_hint == "map"
