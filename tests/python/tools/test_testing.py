"""Tests of nr.testing.compare / assert_allclose on crafted golden/result pairs.

Every expected number below is derived by hand from IEEE formats (ULP counts
from bit patterns, errors from the chosen values), not by re-running the tool.
"""
import math

import ml_dtypes
import numpy as np
import pytest

from npurt import testing
from npurt.tolerances import DEFAULT_TOLERANCES, default_tolerance

BF16 = np.dtype(ml_dtypes.bfloat16)


def test_exact_pair_passes_with_zero_errors():
    x = np.arange(33, dtype=np.float32).reshape(3, 11)
    r = testing.compare(x, x.copy())
    assert r.passed and bool(r)
    assert (r.mismatches, r.max_abs_error, r.max_rel_error, r.max_ulp) == (0, 0.0, 0.0, 0)
    assert r.total == 33 and r.worst == []
    testing.assert_allclose(x, x.copy())


def test_within_tolerance_passes_and_outside_fails():
    d = np.array([1.0, 100.0, 0.0], np.float64)
    inside = d + np.array([0.5e-3, 0.05, 0.5e-3])  # rtol=1e-3, atol=1e-3
    assert testing.compare(inside, d, rtol=1e-3, atol=1e-3).passed
    outside = d + np.array([0.0, 0.2, 0.0])
    r = testing.compare(outside, d, rtol=1e-3, atol=1e-3)
    assert not r.passed and r.mismatches == 1 and r.worst[0].index == (1,)
    assert math.isclose(r.max_abs_error, 0.2, rel_tol=1e-9)
    assert math.isclose(r.max_rel_error, 0.002, rel_tol=1e-6)
    assert math.isclose(r.mismatch_fraction, 1 / 3)


def test_ulp_counts_on_known_values():
    one = np.float32(1.0)
    three_up = np.nextafter(np.nextafter(np.nextafter(one, np.float32(2)), np.float32(2)),
                            np.float32(2))
    assert testing.compare(np.array([three_up]), np.array([one]), 1, 1).max_ulp == 3
    # Across zero: smallest subnormal each side of 0 is 2 ULP apart; +0 and -0 are 0 apart.
    tiny = np.float32(1.4e-45)
    assert testing.ulp_distance(np.array([tiny]), np.array([-tiny]))[0] == 2
    assert testing.ulp_distance(np.array([0.0], np.float32), np.array([-0.0], np.float32))[0] == 0
    # float16: 1.0 = 0x3C00, 1.0009765625 = 0x3C01, 2.0 = 0x4000 (1024 ULP above 1.0).
    h = testing.compare(np.array([1.0009765625, 2.0], np.float16), np.array([1.0, 1.0], np.float16),
                        1, 1)
    assert h.max_ulp == 1024 and h.max_ulp_index == (1,)
    # bfloat16: 1.0 = 0x3F80, next value 1.0078125 = 0x3F81.
    b = testing.compare(np.array([1.0078125], BF16), np.array([1.0], BF16))
    assert b.max_ulp == 1 and b.passed  # 0.0078 <= 1e-5 + 1.6e-2 * 1
    # float64 at max magnitude of opposite signs does not overflow.
    big = np.finfo(np.float64).max
    u = testing.ulp_distance(np.array([big]), np.array([-big]))[0]
    assert int(u) == 2 * 0x7FEFFFFFFFFFFFFF


def test_nan_vs_number_and_nan_vs_nan():
    r = testing.compare(np.array([np.nan, 1.0, np.nan]), np.array([1.0, 1.0, np.nan]))
    assert (r.mismatches, r.nan_mismatches, r.inf_mismatches) == (1, 1, 0)
    assert r.worst[0].reason == "nan" and r.worst[0].index == (0,)
    strict = testing.compare(np.array([np.nan]), np.array([np.nan]), equal_nan=False)
    assert strict.nan_mismatches == 1 and not strict.passed


def test_inf_sign_and_inf_vs_finite():
    r = testing.compare(np.array([np.inf, -np.inf, np.inf, 3.0], np.float32),
                        np.array([np.inf, np.inf, 3.0, -np.inf], np.float32))
    assert (r.mismatches, r.inf_mismatches, r.nan_mismatches) == (3, 3, 0)
    assert sorted(m.index for m in r.worst) == [(1,), (2,), (3,)]
    assert all(m.reason == "inf" for m in r.worst)
    # inf errors do not leak into the finite error statistics.
    assert r.max_abs_error == 0.0


def test_shape_and_dtype_mismatch_are_clear_errors():
    with pytest.raises(ValueError, match=r"compare: argument 'actual': shape \(2, 3\).*\(3, 2\)"):
        testing.compare(np.zeros((2, 3)), np.zeros((3, 2)))
    with pytest.raises(TypeError, match="dtype float32 does not match.*float64"):
        testing.compare(np.zeros(3, np.float32), np.zeros(3))
    r = testing.compare(np.zeros(3, np.float32), np.zeros(3), check_dtype=False)
    assert r.passed and r.dtype == "float32"  # the less precise side sets the tolerance
    with pytest.raises(ValueError, match="tolerances must be >= 0"):
        testing.compare(np.zeros(1), np.zeros(1), rtol=-1)


def test_worst_indices_are_ordered_by_excess_and_multidimensional():
    d = np.zeros((4, 5), np.float64)
    a = d.copy()
    a[1, 2], a[3, 4], a[0, 0] = 0.5, 2.0, 1.0
    r = testing.compare(a, d, rtol=0, atol=0.1, worst=2)
    assert [m.index for m in r.worst] == [(3, 4), (0, 0)]
    assert r.first_mismatch.index == (0, 0)  # C order, not severity
    assert testing.compare(d, d.copy()).first_mismatch is None
    assert r.worst[0].actual == 2.0 and r.worst[0].desired == 0.0
    assert r.max_abs_index == (3, 4) and r.mismatches == 3


def test_integers_compare_exactly_even_beyond_float64_precision():
    big = np.array([2**62 + 1], np.int64)
    r = testing.compare(big, np.array([2**62], np.int64))
    assert not r.passed and r.max_ulp is None
    assert testing.compare(big, big.copy()).passed
    assert testing.compare(np.array([True, False]), np.array([True, True])).mismatches == 1


def test_empty_and_zero_d():
    r = testing.compare(np.zeros((0, 3), np.float16), np.zeros((0, 3), np.float16))
    assert r.passed and r.total == 0 and r.max_abs_index is None
    z = testing.compare(np.float64(2.0), 1.0, rtol=0, atol=0.5)
    assert not z.passed and z.worst[0].index == ()


def test_complex_errors_and_ulp():
    a = np.array([1 + 1j, 2 + 0j], np.complex64)
    r = testing.compare(a, np.array([1 + 1j, 2 + 1e-3j], np.complex64))
    assert r.mismatches == 1 and math.isclose(r.max_abs_error, 1e-3, rel_tol=1e-4)
    assert r.max_ulp > 0


def test_python_scalars_and_lists_adopt_the_other_dtype():
    assert testing.compare(np.array([1.5], np.float16), [1.5]).dtype == "float16"


def test_assert_allclose_message_contains_report():
    with pytest.raises(AssertionError) as e:
        testing.assert_allclose(np.array([1.0, 5.0]), np.array([1.0, 4.0]), 0, 0, err_msg="layer 3")
    msg = str(e.value)
    assert "layer 3" in msg and "mismatches: 1 / 2" in msg and "[1]: 5.0 vs 4.0" in msg


def test_default_tolerance_table():
    assert default_tolerance(np.float32) == DEFAULT_TOLERANCES["float32"] == (1.3e-6, 1e-5)
    assert default_tolerance(BF16) == (1.6e-2, 1e-5)
    assert default_tolerance(np.int32) == (0.0, 0.0)
    with pytest.raises(TypeError, match="no default tolerance"):
        default_tolerance(np.dtype("U3"))
    # The default float16 tolerance accepts a 1-ULP error at 1.0 and rejects 2 ULP ... at 1e3.
    one_ulp = np.array([1.0009765625], np.float16)
    assert testing.compare(one_ulp, np.array([1.0], np.float16)).passed
    assert not testing.compare(np.array([1002.0], np.float16), np.array([1000.0], np.float16)).passed


def test_report_to_dict_is_json_serialisable():
    import json
    r = testing.compare(np.array([np.nan, 2.0]), np.array([1.0, 2.5]), rtol=0, atol=0)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["passed"] is False and d["mismatches"] == 2 and d["worst"][0]["reason"] == "nan"
