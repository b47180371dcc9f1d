"""The conformance harness's var/std comparator (tools/conformance/compare.py spread_tolerance):
it accepts a result within the reference's own error bound (n * eps * max|x|)**2 and rejects a
wrong spread; NaN positions, shapes and dtypes still have to match."""
import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "conformance"))

import npurt as nr  # noqa: E402
from compare import Mismatch, spread_tolerance  # noqa: E402


def run(power, x, got, expected, **kwargs):
    spread_tolerance(power)(nr.asarray(np.asarray(got, x.dtype)), np.asarray(expected, x.dtype),
                            (nr.asarray(x),), kwargs, nr)


def test_accepts_the_references_rounding_of_a_large_constant():
    x = np.full(12, -2.03261853e16)  # numpy's var: 16.0, exact: 0.0 (its mean is one ulp off)
    run(2, x, 0.0, 16.0)
    run(1, x, 0.0, 4.0)


def test_rejects_a_wrong_spread():
    x = np.arange(15, dtype=np.float64)
    with pytest.raises(Mismatch):
        run(2, x, np.var(x) * (1 + 1e-6), np.var(x))
    with pytest.raises(Mismatch):
        run(1, np.full(12, -2.03261853e16), 64.0, 4.0)  # beyond 12 * eps * 2.03e16 = 54
    with pytest.raises(Mismatch):
        run(2, x, np.nan, np.var(x))
    with pytest.raises(Mismatch):
        run(2, x.reshape(3, 5), np.zeros(5), np.zeros(3), axis=1)


def test_bound_uses_the_reduced_axis_only():
    x = np.full((40, 2), 5.6289299072825416e16)
    run(2, x, np.zeros(2), np.full(2, 64.0), axis=0)  # 40 * eps * 5.6e16 = 500: 64 accepted
    with pytest.raises(Mismatch):
        run(2, np.full((2, 40), 1.0), np.zeros(40), np.full(40, 1e-3), axis=0)
