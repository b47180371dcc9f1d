"""The shared ulp_error helper (ulp_reference.py) on values whose ulp distance
is known by construction (np.nextafter steps), so a wrong helper cannot let the
kernel accuracy tests pass silently."""
import numpy as np
import pytest

from ulp_reference import ulp_error


def steps(v, n, dtype):
    """v (in dtype) moved n representable values up."""
    out = np.asarray(v, dtype)
    for _ in range(n):
        out = np.nextafter(out, np.asarray(np.inf, dtype))
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_exact_results_are_zero_ulp(dtype):
    x = np.array([0.0, 0.5, 1.0, 2.0, 3.0], dtype)
    got = np.exp(x.astype(np.float64)).astype(dtype)
    # Rounding the float64 reference once costs at most half an ulp.
    assert ulp_error(got, x, "exp", dtype) <= 0.5


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_counts_steps_away_from_the_reference(dtype):
    x = np.array([0.0, 1.0, -2.5], dtype)  # sin(0) = 0: ulp floored at the smallest subnormal
    ref = np.sin(x.astype(np.float64)).astype(dtype)
    for n in (1, 3, 7):
        got = steps(ref, n, dtype)
        err = ulp_error(got, x, "sin", dtype)
        assert n - 0.5 <= err <= n + 0.5, (n, err)


def test_subnormal_results_are_measured_in_subnormal_steps():
    x = np.array([1e-44], np.float32)  # sin(x) = x, a float32 subnormal
    got = steps(np.sin(x.astype(np.float64)).astype(np.float32), 2, np.float32)
    assert 1.5 <= ulp_error(got, x, "sin", np.float32) <= 2.5


def test_non_finite_reference_must_match_exactly():
    x = np.array([-1.0, 100.0], np.float32)  # log(-1) = NaN; exp(100) overflows float32
    ok = np.array([np.nan, 0.0], np.float32)
    assert ulp_error(ok[:1], x[:1], "log", np.float32) == 0.0
    with pytest.raises(AssertionError, match="exp: non-finite"):
        ulp_error(np.array([np.finfo(np.float32).max], np.float32), x[1:], "exp", np.float32)
    with pytest.raises(AssertionError, match="log: non-finite"):
        ulp_error(np.array([0.0], np.float32), x[:1], "log", np.float32)
