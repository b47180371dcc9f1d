"""Kernels whose output is a large GM allocation (>= 40 MiB, SWITCH_MIB): the sim writes
those with streaming stores (runtime/backends/sim/aicore/stream_copy.h) instead of memcpy.
Results must be exactly what the small-output path gives; checked against numpy:

  - copies and casts (a + 0 via astype round trip, astype): exact;
  - a + b: exact (one rounding, same as numpy in the same dtype);
  - exp: |y - ref| <= RTOL |ref| with RTOL 4 ulp for float32 (2^-21), one float16
    rounding (2^-10) for float16, ref = exp in float64 of the rounded input;
  - layer_norm rows: |y - ref| <= 1e-4 (float32) / 4e-3 (float16) absolute on unit-scale
    outputs, ref in float64;
  - chains (the next kernel reads a streamed output): exp(exp(a) * 0.01 + b).
Sizes straddle the 40 MiB switch and use odd lengths (the per-core shares then
start at GM addresses that are not 64-byte aligned) and strided views.
"""
import numpy as np
import pytest

import npurt as nr

MIB = 1 << 20
SWITCH_MIB = 40  # kStreamRegionBytes of stream_copy.h
RTOL = {np.float32: 2.0**-21, np.float16: 2.0**-10}


def elements(dtype, mib, extra):
    return mib * MIB // np.dtype(dtype).itemsize + extra


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("mib,extra", [(SWITCH_MIB - 1, 1023), (SWITCH_MIB, 0), (SWITCH_MIB, 33)])
def test_binary_and_copy_are_exact(dtype, mib, extra):
    n = elements(dtype, mib, extra)
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    np.testing.assert_array_equal((x + y).numpy(), a + b)
    np.testing.assert_array_equal((x.astype(nr.float32).astype(x.dtype)).numpy(), a)
    other = np.float16 if dtype == np.float32 else np.float32
    np.testing.assert_array_equal((x.astype(getattr(nr, np.dtype(other).name))).numpy(),
                                  a.astype(other))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_exp_and_chain_within_rounding(dtype):
    n = elements(dtype, SWITCH_MIB, 1023)
    a = np.random.default_rng(1).standard_normal(n).astype(dtype)
    b = np.random.default_rng(2).standard_normal(n).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    ref = np.exp(a.astype(np.float64))
    got = (nr.exp(x)).numpy().astype(np.float64)
    assert np.all(np.abs(got - ref) <= RTOL[dtype] * np.abs(ref))
    # The chain: each stage reads the previous streamed output.
    t = nr.exp(x) * 0.01 + y
    np.testing.assert_array_equal((t).numpy(), ((nr.exp(x)).numpy() * dtype(0.01)).astype(dtype) + b)
    got = (nr.exp(t)).numpy().astype(np.float64)
    ref = np.exp((t).numpy().astype(np.float64))
    assert np.all(np.abs(got - ref) <= RTOL[dtype] * np.abs(ref))


def test_strided_input_large_output():
    n = elements(np.float32, SWITCH_MIB, 33)
    a = np.random.default_rng(3).standard_normal(2 * n).astype(np.float32)
    x = nr.asarray(a)[::2]
    np.testing.assert_array_equal((x + x).numpy(), a[::2] + a[::2])


@pytest.mark.parametrize("dtype,atol", [(np.float32, 1e-4), (np.float16, 4e-3)])
def test_layer_norm_rows(dtype, atol):
    rows, cols = SWITCH_MIB * MIB // (np.dtype(dtype).itemsize * 1024) + 3, 1024
    a = np.random.default_rng(4).standard_normal((rows, cols)).astype(dtype)
    w, bias = np.ones(cols, dtype), np.zeros(cols, dtype)
    y, _, _ = nr.ops.layer_norm(nr.asarray(a), nr.asarray(w), nr.asarray(bias))
    got = y.numpy()
    x64 = a.astype(np.float64)
    ref = (x64 - x64.mean(-1, keepdims=True)) / np.sqrt(x64.var(-1, keepdims=True) + 1e-5)
    assert np.max(np.abs(got.astype(np.float64) - ref)) <= atol


def test_empty_and_tiny_outputs_unaffected():
    for n in (0, 1, 15):
        a = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal((nr.asarray(a) + nr.asarray(a)).numpy(), a + a)
