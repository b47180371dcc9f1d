"""signbit (the elementwise kernel's scalar loop, checked once per tile) against
numpy.signbit, exact:
every float16 bit pattern (both signs of 0, inf and NaN payloads), random float32
bit patterns, sizes around the 256-byte Compare granule (the scalar tail), views.
"""
import numpy as np
import pytest

import npurt as nr


def test_float16_every_bit_pattern():
    x = np.arange(2 ** 16, dtype=np.uint16).view(np.float16)
    np.testing.assert_array_equal(nr.signbit(nr.asarray(x)).numpy(), np.signbit(x))


def test_float32_bit_patterns_and_specials():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2 ** 32, 1 << 20, dtype=np.uint64).astype(np.uint32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38],
                       dtype=np.float32).view(np.uint32)
    bits = np.concatenate([special, bits, np.array([0x7FC00001, 0xFFC00001, 0xFF800001, 0x80000000], np.uint32)])
    x = bits.view(np.float32)
    np.testing.assert_array_equal(nr.signbit(nr.asarray(x)).numpy(), np.signbit(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [0, 1, 15, 33, 63, 64, 65, 127, 129, 1023])
def test_sizes_and_views(dtype, n):
    base = np.linspace(-2, 2, 2 * n).astype(dtype)
    base[::3] = -0.0
    a = nr.asarray(base)
    for view, x in [(a[:n], base[:n]), (a[::2], base[::2]), (a[::-1], base[::-1])]:
        got = nr.signbit(view).numpy()
        assert got.dtype == np.bool_ and got.shape == x.shape
        np.testing.assert_array_equal(got, np.signbit(x))
