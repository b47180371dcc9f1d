"""Row-scalar broadcasts whose other operand repeats every row (the (1, M) of
(N, 1) + (1, M)): the host rounds the UB tile to whole rows and the kernel
loads that operand once per core instead of once per tile (ew_kernel.h,
RepeatsEveryTile). These shapes give every core several tiles, cores that
start in the middle of a row, a short last tile, and a single-tile core;
the 3-d cases check that an operand varying along an outer axis is still
loaded per tile. Results must equal numpy exactly (as in test_row_broadcast.py:
the tensor-scalar forms compute float16 in float32 and round once).
"""
import numpy as np
import pytest

import npurt as nr

OPS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum}
# rows: many tiles per core with mid-row core starts (2000 x 1024), odd row
# counts with rows that are not a power of two (1023 x 1040), a row just over
# the tile rounding (33 x 4096), one long row per core at most (40 x 8192).
SHAPES = [(2000, 1024), (1023, 1040), (33, 4096), (40, 8192), (15, 256)]


def values(rng, shape, dtype):
    return (rng.standard_normal(shape) * 10).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
@pytest.mark.parametrize("op", list(OPS))
def test_column_against_repeating_row_matches_numpy(op, dtype):
    rng = np.random.default_rng(11)
    for n, m in SHAPES:
        col, row = values(rng, (n, 1), dtype), values(rng, (1, m), dtype)
        for x, y in [(col, row), (row, col)]:
            got = np.asarray(getattr(nr, op)(nr.asarray(x), nr.asarray(y)))
            want = OPS[op](x, y)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want, err_msg=f"{op} {dtype} {x.shape} {y.shape}")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_three_dims_repeating_and_varying_other_operand(dtype):
    rng = np.random.default_rng(5)
    col3 = values(rng, (6, 300, 1), dtype)
    row3 = values(rng, (1, 1, 512), dtype)        # repeats every row: loaded once per core
    varying = values(rng, (6, 1, 512), dtype)     # differs between the 6 outer blocks: per tile
    np.testing.assert_array_equal(np.asarray(nr.asarray(col3) + nr.asarray(row3)), col3 + row3)
    np.testing.assert_array_equal(np.asarray(nr.asarray(varying) - nr.asarray(col3)), varying - col3)
    np.testing.assert_array_equal(np.asarray(nr.asarray(col3) * nr.asarray(varying)), col3 * varying)


def test_strided_row_view_and_special_values():
    rng = np.random.default_rng(9)
    wide = values(rng, (2, 2048), "float32")
    row = nr.asarray(wide)[1:2, ::2]              # a (1, 1024) view with element stride 2
    col = np.array([[np.inf], [-np.inf], [np.nan], [-0.0], [1.5]] * 300, np.float32)
    got = np.asarray(nr.asarray(col) + row)
    np.testing.assert_array_equal(got, col + wide[1:2, ::2])
