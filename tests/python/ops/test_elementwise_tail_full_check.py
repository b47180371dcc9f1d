"""Unary elementwise kernels read only UB they wrote (NPURT_SIM_CHECK=full, no
ErrorRead2) at sizes that leave a partial 64-lane repeat in the last tile, and
on non-contiguous views (the gathered CopyIn). The functors with scratch tiles
(kernels/elementwise/ew_trans_vec.h, ew_trig_vec.h, ew_log_vec.h) work on whole
256-B repeats; ew_kernel.h's PadTails fills the lanes past n before they run.
Binary kernels: tests/python/array_api/test_elementwise_full_check.py."""
import numpy as np
import pytest

import npurt as nr

# (npurt name, numpy reference, lo, hi): inputs spread over [lo, hi] inside the domain.
UNARY = [
    ("sin", np.sin, -7000.0, 7000.0), ("cos", np.cos, -7000.0, 7000.0), ("tan", np.tan, -1.5, 1.5),
    ("tanh", np.tanh, -5.0, 5.0), ("sinh", np.sinh, -5.0, 5.0), ("cosh", np.cosh, -5.0, 5.0),
    ("expm1", np.expm1, -5.0, 5.0), ("log1p", np.log1p, -0.9, 5.0), ("arctan", np.arctan, -9.0, 9.0),
    ("arcsinh", np.arcsinh, -9.0, 9.0), ("arcsin", np.arcsin, -0.99, 0.99), ("arccos", np.arccos, -0.99, 0.99),
    ("arctanh", np.arctanh, -0.99, 0.99), ("arccosh", np.arccosh, 1.0, 9.0), ("log2", np.log2, 0.01, 9.0),
    ("log10", np.log10, 0.01, 9.0), ("exp", np.exp, -5.0, 5.0), ("log", np.log, 0.01, 9.0),
    ("sqrt", np.sqrt, 0.0, 9.0), ("abs", np.abs, -9.0, 9.0), ("negative", np.negative, -9.0, 9.0),
    ("floor", np.floor, -9.0, 9.0), ("sign", np.sign, -9.0, 9.0), ("square", np.square, -9.0, 9.0),
]
SIZES = [1, 15, 33, 1023]


def cases(lo, hi, n, dtype):
    base = np.linspace(lo, hi, 2 * n).astype(dtype)
    a = nr.asarray(base)
    return [(a[:n], base[:n]), (a[::2], base[::2])]


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name,ref,lo,hi", UNARY, ids=[u[0] for u in UNARY])
def test_unary_tail_clean_at_full_check(name, ref, lo, hi, dtype):
    fn = getattr(nr, name)
    tol = 2e-3 if dtype == "float16" else 4e-6
    with nr.debug.sim_check_level("full"):
        for n in SIZES:
            for view, x in cases(lo, hi, n, dtype):
                got = fn(view).numpy()  # launches are lazy: materialise inside the block
                want = ref(x.astype(np.float64))
                assert got.dtype == np.dtype(dtype) and got.shape == x.shape
                np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol, err_msg=f"{name} n={n}")


@pytest.mark.parametrize("name,ref,lo,hi", UNARY, ids=[u[0] for u in UNARY])
def test_unary_bfloat16_tail_clean_at_full_check(name, ref, lo, hi):
    """bfloat16 (made on the device from float32): the widened float tiles are padded too."""
    fn = getattr(nr, name)
    with nr.debug.sim_check_level("full"):
        for n in SIZES:
            for view, _ in cases(lo, hi, n, "float32"):
                x = view.astype(nr.bfloat16)
                got = fn(x).astype(nr.float32).numpy()
                want = ref(x.astype(nr.float32).numpy().astype(np.float64))
                np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-2, err_msg=f"{name} n={n}")


@pytest.mark.parametrize("name", ["sin", "tanh", "arccosh", "log1p"])
def test_padded_tail_keeps_results_bit_identical(name):
    """The pad lanes are discarded: every length's result equals the matching
    prefix of one long launch (whole 64-lane repeats, no pad), bit for bit."""
    lo, hi = {"arccosh": (1.0, 9.0)}.get(name, (-0.9, 0.9))
    x = np.linspace(lo, hi, 1024).astype(np.float32)
    fn = getattr(nr, name)
    whole = fn(nr.asarray(x)).numpy()
    for n in (1, 15, 33, 63, 65, 1023):
        np.testing.assert_array_equal(fn(nr.asarray(x[:n])).numpy(), whole[:n])
