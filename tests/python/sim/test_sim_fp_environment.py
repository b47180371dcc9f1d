"""The simulator's float results must not depend on the calling thread's
floating point environment.

PyTorch code often calls torch.set_flush_denormal(True), which sets MXCSR's
DAZ and FTZ bits on the calling thread. The NPU's results do not change with
the host's settings, so neither may the sim's: today blocks run on the
launch's worker threads, which keep their own MXCSR, but a block run on the
caller's thread (or a worker created by it after the call) would flush
float32 subnormals to 0 (wave-11 review). The launches below run under the
flush; the bits are compared after it is turned off again (under DAZ, numpy
compares and prints subnormals as 0, so an in-flush check would prove nothing).
"""
import contextlib

import numpy as np
import pytest

import npurt as nr

torch = pytest.importorskip("torch")


@contextlib.contextmanager
def flush_denormal():
    if not torch.set_flush_denormal(True):
        pytest.skip("this CPU cannot flush denormals")
    try:
        yield
    finally:
        torch.set_flush_denormal(False)


def subnormals(n):
    """n float32 subnormals (bit patterns 1 .. 0x3fffff) and their exact doubles."""
    bits = (np.arange(n, dtype=np.uint32) * np.uint32(4099)) % np.uint32(0x3fffff) + np.uint32(1)
    return bits.view(np.float32), (bits * np.uint32(2)).view(np.float32)


@pytest.mark.parametrize("n", [1, 33, 4096, 1 << 16, 1 << 22])
def test_subnormal_add_ignores_the_callers_flush_to_zero(n):
    x, twice = subnormals(n)
    a = nr.asarray(x)
    with flush_denormal():
        y = a + a
        up = nr.asarray(x)
        z = up * nr.asarray(np.ones(n, np.float32))
        out_y, out_up, out_z = np.asarray(y).copy(), np.asarray(up).copy(), np.asarray(z).copy()
    np.testing.assert_array_equal(out_y.view(np.uint32), twice.view(np.uint32))
    np.testing.assert_array_equal(out_up.view(np.uint32), x.view(np.uint32))
    np.testing.assert_array_equal(out_z.view(np.uint32), x.view(np.uint32))


def test_bfloat16_cast_keeps_subnormals_under_the_callers_flush():
    x, _ = subnormals(4099)
    with flush_denormal():
        h = np.asarray(nr.astype(nr.asarray(x), nr.bfloat16)).copy()
    got = h.view(np.uint16)
    u = x.view(np.uint32)
    want = ((u + np.uint32(0x7fff) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)).astype(np.uint16)
    np.testing.assert_array_equal(got, want)
