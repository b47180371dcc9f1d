"""nr.ops.build (content-hash cache, compiler errors) and nr.load_library (reload, clashes)."""
import textwrap

import numpy as np
import pytest

import npurt as nr

KERNEL = textwrap.dedent("""\
    #include "kernel_operator.h"
    #include "npurt/op_registry.h"
    struct T { uint64_t n; float k; };
    extern "C" __global__ __aicore__ void OPNAME_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling) {
      GET_TILING_DATA_WITH_STRUCT(T, t, tiling);
      AscendC::GlobalTensor<float> a, b;
      a.SetGlobalBuffer((__gm__ float*)x, t.n);
      b.SetGlobalBuffer((__gm__ float*)y, t.n);
      for (uint64_t i = 0; i < t.n; ++i) b.SetValue(i, a.GetValue(i) * t.k);
      // Scalar GM writes sit in the core's data cache until cleaned (one block owns b).
      AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(b);
    }
    NPURT_REGISTER_OP("OPNAME")
        .doc("y = x * k")
        .input("x", {npurt::DType::kFloat32}).output("y")
        .attr("k", npurt::AttrType::kFloat, npurt::AttrValue(2.0))
        .infer_same_as(0)
        .tiling([](const npurt::OpContext& c, npurt::TilingResult& r) {
          r.set_tiling(T{(uint64_t)c.input(0).numel(), (float)c.attr_float("k")});
          r.num_blocks = c.input(0).numel() ? 1 : 0;
        })
        .sim_kernel("OPNAME_kernel", NPURT_SIM_ENTRY(OPNAME_kernel));
    """)


def write(tmp_path, fname, opname, extra=""):
    p = tmp_path / fname
    p.write_text(KERNEL.replace("OPNAME", opname) + extra)
    return p


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPURT_CACHE_DIR", str(tmp_path / "cache"))


def test_build_load_call_and_cache_reuse(tmp_path):
    src = write(tmp_path, "scale.cc", "pybuild_scale")
    first = nr.ops.build("pybuild_scale", sources=[src])
    assert first.ops == ["pybuild_scale"] and not first.cached
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(nr.ops.pybuild_scale(nr.asarray(x), k=3.0).numpy(), x * 3)
    again = nr.ops.build("pybuild_scale", sources=[src])
    assert again.cached and again.path == first.path and again.ops == ["pybuild_scale"]
    assert nr.load_library(first.path) == ["pybuild_scale"]  # same library again: harmless


def test_changed_source_rebuilds_and_clash_is_reported(tmp_path):
    src = write(tmp_path, "v1.cc", "pybuild_clash")
    nr.ops.build("pybuild_clash", sources=[src])
    src2 = write(tmp_path, "v2.cc", "pybuild_clash", extra="// changed\n")
    with pytest.raises(nr.AlreadyExistsError, match="op 'pybuild_clash' is already registered"):
        nr.ops.build("pybuild_clash", sources=[src2])  # a new build (new hash) whose op name clashes
    assert "pybuild_clash" in nr.ops.list()


def test_compiler_error_carries_the_compiler_message(tmp_path):
    src = write(tmp_path, "bad.cc", "pybuild_bad", extra="int broken = undeclared_name;\n")
    with pytest.raises(nr.CompileError) as e:
        nr.ops.build("pybuild_bad", sources=[src])
    assert "undeclared_name" in str(e.value) and "was not declared" in str(e.value)
    assert "pybuild_bad" not in nr.ops.list()


def test_invalid_op_in_plugin(tmp_path):
    src = tmp_path / "inv.cc"
    src.write_text('#include "npurt/op_registry.h"\n'
                   'NPURT_REGISTER_OP("pybuild_invalid").input("x", {npurt::DType::kFloat32}).output("y");\n')
    with pytest.raises(nr.InvalidArgumentError, match="op 'pybuild_invalid': has no output inference"):
        nr.ops.build("pybuild_invalid", sources=[src])
    with pytest.raises(nr.NotFoundError, match="no such file"):
        nr.load_library(tmp_path / "missing.so")


def test_faulting_kernel_raises_at_synchronize_and_runtime_stays_usable(tmp_path):
    src = tmp_path / "fault.cc"
    src.write_text(KERNEL.replace("OPNAME", "pybuild_fault").replace(
        "for (uint64_t i = 0;", "b.SetValue(0, a.GetValue(t.n + (1u << 22)));\n  for (uint64_t i = 0;"))
    nr.ops.build("pybuild_fault", sources=[src])
    x = nr.asarray(np.ones(4, np.float32))
    y = nr.ops.pybuild_fault(x)  # enqueued; the fault happens on the stream
    with pytest.raises(nr.KernelFault, match="pybuild_fault_kernel"):
        nr.current_stream().synchronize()
    np.testing.assert_array_equal(nr.ops.add(x, x).numpy(), np.full(4, 2, np.float32))
    del y
