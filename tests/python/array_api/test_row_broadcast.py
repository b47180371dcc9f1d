"""Binary ops where one operand has one value per output row ((N, 1) against
(1, M) or (N, M)): the elementwise kernel then runs the tensor-scalar form row
by row (EwTiling::row_scalar, rows >= 256 elements of whole 32-byte blocks)
instead of filling a broadcast tile. Results must equal numpy exactly (the
tensor-scalar forms are exact rewrites: float16 computes in float32 and rounds
once like numpy), for either operand order, non-commutative ops, 3-d layouts,
strided column views, and the shapes just outside the rule (short rows, rows
not a whole number of 32-byte blocks, empty and single rows).
"""
import numpy as np
import pytest

import npurt as nr

OPS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
       "minimum": np.minimum}
SHAPES = [(300, 2048), (3, 256), (7, 1024), (5, 264), (5, 260), (2, 255), (33, 512), (1, 512), (0, 512),
          (16, 1)]


def values(rng, shape, dtype):
    v = rng.standard_normal(shape) * 10
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int16"])
@pytest.mark.parametrize("op", list(OPS))
def test_column_against_row_matches_numpy(op, dtype):
    rng = np.random.default_rng(7)
    for n, m in SHAPES:
        col, row = values(rng, (n, 1), dtype), values(rng, (1, m), dtype)
        full = values(rng, (n, m), dtype)
        for x, y in [(col, row), (row, col), (col, full), (full, col)]:
            got = np.asarray(getattr(nr, op)(nr.asarray(x), nr.asarray(y)))
            want = OPS[op](x, y)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want, err_msg=f"{op} {dtype} {x.shape} {y.shape}")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_three_dims_strided_column_and_special_values(dtype):
    rng = np.random.default_rng(3)
    x, c = values(rng, (4, 1, 512), dtype), values(rng, (4, 6, 1), dtype)
    np.testing.assert_array_equal(np.asarray(nr.asarray(x) + nr.asarray(c)), x + c)
    np.testing.assert_array_equal(np.asarray(nr.asarray(c) - nr.asarray(x)), c - x)
    big = values(rng, (512, 8), dtype)
    col = nr.asarray(big)[:, 3:4]  # a strided column view
    row = values(rng, (1, 768), dtype)
    np.testing.assert_array_equal(np.asarray(col - nr.asarray(row)), big[:, 3:4] - row)
    special = np.array([[np.inf], [-np.inf], [np.nan], [-0.0]], dtype)
    row = values(rng, (1, 256), dtype)
    for op in ("add", "multiply", "maximum", "minimum"):
        got = np.asarray(getattr(nr, op)(nr.asarray(special), nr.asarray(row)))
        np.testing.assert_array_equal(got, OPS[op](special, row))
