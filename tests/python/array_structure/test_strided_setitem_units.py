"""x[start::k] = y and x[start::k] = scalar write single units at a GM stride:
`copy`'s Brcb spread (kernels/copy/copy_kernel.cc `Scatter`) or `fill`'s
32-byte blocks, then one DataCopyPad whose 1-8 byte blocks the sim writes a
64-byte line at a time with byte-masked stores
(runtime/backends/sim/aicore/unit_scatter_avx512.cc). Byte-exact against numpy
including the gap elements (which hold distinct values), for 1/2/4/8-byte
units, steps 1-17, odd counts, unaligned starts, at the default and the full
sim check level. Also the scattering tile's floor: a 100-unit float32 row
once got a 416-byte tile (batches of 13 units) and Brcb faulted on an
unaligned source.
"""
import numpy as np
import pytest

import npurt as nr

DTYPES = ["int8", "float16", "float32", "int64", "float64"]
STEPS = [2, 3, 4, 8, 16, 17]
COUNTS = [1, 13, 16, 17, 100, 1000, 4081]


def run_case(dtype, step, count, start, scalar):
    rng = np.random.default_rng(count * 31 + step)
    base = rng.integers(-100, 100, size=start + count * step + 3).astype(dtype)
    x = nr.asarray(base)
    key = slice(start, start + count * step, step)
    if scalar:
        x[key] = 7
        base[key] = 7
    else:
        y = rng.integers(-100, 100, size=count).astype(dtype)
        x[key] = nr.asarray(y)
        base[key] = y
    got = np.asarray(x)
    assert got.view(np.uint8).tobytes() == base.view(np.uint8).tobytes(), (dtype, step, count, start, scalar)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("step", STEPS)
def test_strided_units_byte_exact(dtype, step):
    for count in COUNTS:
        for start in (0, 1, 5):
            for scalar in (False, True):
                run_case(dtype, step, count, start, scalar)


@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64"])
def test_strided_units_byte_exact_at_full_check(dtype):
    with nr.debug.sim_check_level("full"):
        for step in (2, 4, 16):
            for count in (17, 100, 4081):
                run_case(dtype, step, count, 3, False)
                run_case(dtype, step, count, 1, True)


@pytest.mark.parametrize("count", [13, 14, 15, 100, 127])
def test_short_float32_rows_do_not_fault(count):
    """Rows whose tile rounds to < 512 B: Scatter's batches stay multiples of 16."""
    run_case("float32", 2, count, 0, False)
    run_case("float16", 2, count, 0, False)
