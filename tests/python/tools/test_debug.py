"""Tests of nr.debug.check_op and nr.debug.compare_layers against numpy references."""
import os

import numpy as np
import pytest

import npurt as nr


def test_check_op_passes_against_correct_reference():
    x = np.linspace(-3, 3, 1023, dtype=np.float32)
    rep = nr.debug.check_op("add", x, x[::-1].copy(), reference=np.add)
    assert rep.passed and rep.fault is None and rep.first_divergence is None
    assert len(rep.outputs) == 1 and rep.outputs[0].total == 1023


def test_check_op_reports_first_diverging_element():
    x = np.arange(33, dtype=np.float32)

    def wrong_mul(a, b):
        out = a * b
        out[[5, 20]] += 1.0
        return out

    rep = nr.debug.check_op("mul", x, x, reference=wrong_mul)
    assert not rep.passed
    out_index, m = rep.first_divergence
    assert out_index == 0 and m.index == (5,)
    assert m.actual == 25.0 and m.desired == 26.0
    assert rep.outputs[0].mismatches == 2
    assert "first diverging element: output 0 at [5]" in str(rep)


def test_check_op_restores_sim_check_level_and_validates_arguments(monkeypatch):
    monkeypatch.setenv("NPURT_SIM_CHECK", "basic")
    x = np.ones(8, np.float32)
    nr.debug.check_op("add", x, x, reference=np.add)
    assert os.environ["NPURT_SIM_CHECK"] == "basic"
    with pytest.raises(TypeError, match="argument 'reference'"):
        nr.debug.check_op("add", x, x, reference=None)
    with pytest.raises(ValueError, match="returned 2 outputs"):
        nr.debug.check_op("add", x, x, reference=lambda a, b: (a + b, a))
    with pytest.raises(ValueError, match="argument 'level'"):
        with nr.debug.sim_check_level("paranoid"):
            pass


def test_compare_layers_names_the_first_failing_layer():
    x = np.arange(16, dtype=np.float32)

    def model(tap, x):
        h = tap("double", nr.ops.add(x, x))
        h = tap("square", nr.ops.mul(h, h))
        tap("plus_one", nr.ops.add(h, nr.asarray(np.ones(16, np.float32))))

    def reference(tap, x):
        h = tap("double", x + x)
        h = tap("square", h * h + (np.arange(16) == 3))  # a bug in layer 2
        tap("plus_one", h + 1)
        tap("extra", h)

    rep = nr.debug.compare_layers(model, reference, nr.asarray(x))
    assert rep.first_failing == "square"
    assert rep.layers["double"].passed and not rep.layers["plus_one"].passed
    assert rep.missing_in_fn == ["extra"] and rep.missing_in_reference == []
    assert not rep.passed and "first failing layer: square" in str(rep)

    def twice(tap, x):
        tap("a", x)
        tap("a", x)

    with pytest.raises(ValueError, match="recorded layer 'a' twice"):
        nr.debug.compare_layers(twice, twice, x)


OVERRUN_KERNEL = """\
#include "kernel_operator.h"
#include "npurt/op_registry.h"
struct T { uint64_t n; };
extern "C" __global__ __aicore__ void tools_overrun_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(T, t, tiling);
  AscendC::GlobalTensor<float> a, b;
  a.SetGlobalBuffer((__gm__ float*)x, t.n);
  b.SetGlobalBuffer((__gm__ float*)y, t.n + 64);
  for (uint64_t i = 0; i < t.n + 64; ++i) b.SetValue(i, 1.0f);  // writes past the output
}
NPURT_REGISTER_OP("tools_overrun")
    .doc("y = 1, but writes 64 elements past the end of y (a deliberate bug)")
    .input("x", {npurt::DType::kFloat32}).output("y")
    .infer_same_as(0)
    .tiling([](const npurt::OpContext& c, npurt::TilingResult& r) {
      r.set_tiling(T{(uint64_t)c.input(0).numel()});
      r.num_blocks = c.input(0).numel() ? 1 : 0;
    })
    .sim_kernel("tools_overrun_kernel", NPURT_SIM_ENTRY(tools_overrun_kernel));
"""


def test_check_op_reports_a_kernel_fault(tmp_path, monkeypatch):
    monkeypatch.setenv("NPURT_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "overrun.cc"
    src.write_text(OVERRUN_KERNEL)
    nr.ops.build("tools_overrun", sources=[src])
    x = np.zeros(1024, np.float32)
    rep = nr.debug.check_op("tools_overrun", x, reference=np.ones_like)
    assert not rep.passed and rep.fault is not None
    assert "tools_overrun_kernel" in rep.fault
    assert "kernel fault" in str(rep)
    # The runtime stays usable after the fault.
    assert nr.debug.check_op("add", x, x, reference=np.add).passed
