"""npurt.testing: precision checks for results of npurt ops (``nr.testing``).

    report = nr.testing.compare(actual, desired)          # CompareReport, never raises on mismatch
    nr.testing.assert_allclose(actual, desired, rtol, atol)  # AssertionError with the report

Both accept npurt arrays, numpy arrays, and anything ``np.asarray`` takes.
Omitted rtol/atol come from the per-dtype table in ``npurt.tolerances``
(``nr.testing.DEFAULT_TOLERANCES``), the same table the project's tests use.
Comparison semantics are documented in ``npurt.compare``.
"""
from __future__ import annotations

from typing import Optional

from .compare import CompareReport, Mismatch, compare_arrays, ulp_distance
from .tolerances import DEFAULT_TOLERANCES, default_tolerance

__all__ = ["compare", "assert_allclose", "assert_equal", "default_tolerance",
           "DEFAULT_TOLERANCES", "CompareReport", "Mismatch", "ulp_distance"]


def compare(actual, desired, rtol: Optional[float] = None, atol: Optional[float] = None, *,
            equal_nan: bool = True, check_dtype: bool = True, worst: int = 5,
            name: str = "") -> CompareReport:
    """Compares `actual` with `desired` element-wise and returns a CompareReport.

    rtol/atol default to the dtype's entry in DEFAULT_TOLERANCES. Shape (and,
    with check_dtype, dtype) mismatches raise ValueError/TypeError: they are
    errors in the test, not precision findings.
    """
    return compare_arrays(actual, desired, rtol, atol, equal_nan=equal_nan,
                          check_dtype=check_dtype, worst=worst, name=name)


def assert_allclose(actual, desired, rtol: Optional[float] = None, atol: Optional[float] = None,
                    *, equal_nan: bool = True, check_dtype: bool = True, err_msg: str = "") -> None:
    """Raises AssertionError carrying the full comparison report when any element mismatches."""
    report = compare(actual, desired, rtol, atol, equal_nan=equal_nan, check_dtype=check_dtype)
    if not report.passed:
        prefix = f"{err_msg}\n" if err_msg else ""
        raise AssertionError(f"{prefix}Arrays are not close:\n{report}")


def assert_equal(actual, desired, *, check_dtype: bool = True, err_msg: str = "") -> None:
    """Exact comparison (rtol = atol = 0; NaN equals NaN)."""
    assert_allclose(actual, desired, 0.0, 0.0, check_dtype=check_dtype, err_msg=err_msg)
