"""Transpose copies into outputs of >= 16 MiB: the copy kernel writes each
transposed block as strided runs of 256-704 bytes, which the sim stores with
streaming stores and one fence per copy (data_copy.cc, kStreamRunMinBytes);
smaller runs (partial blocks, 1-byte types) keep memcpy. The result must be
exactly numpy's (a copy), for odd shapes whose rows start off 64-byte lines,
sliced views, every element size of the vector transpose, and a chain where
the next kernel reads the streamed output at once.
"""
import numpy as np
import pytest

import npurt as nr

MIB = 1 << 20


def matrix(rows, cols, dtype, seed):
    return np.random.default_rng(seed).integers(-1000, 1000, size=(rows, cols)).astype(dtype)


@pytest.mark.parametrize("dtype,shape", [(np.float32, (2049, 2050)), (np.float32, (4096, 1027)),
                                         (np.float16, (4097, 2051)), (np.int8, (4100, 4097)),
                                         (np.int32, (1023, 4111))])
def test_large_transpose_copy_is_exact(dtype, shape):
    h = matrix(*shape, dtype, seed=shape[0])
    assert h.nbytes >= 16 * MIB - 64 * 1024
    got = nr.permute_dims(nr.asarray(h), (1, 0)).copy()
    np.testing.assert_array_equal(got.numpy(), np.ascontiguousarray(h.T))


def test_large_sliced_transpose_and_chain():
    h = matrix(4200, 2100, np.float32, seed=3)
    x = nr.asarray(h)
    view = nr.permute_dims(x[7:4107, 3:2051], (1, 0))   # 2048 x 4100 float32 = 32 MiB out
    np.testing.assert_array_equal(view.copy().numpy(), np.ascontiguousarray(h[7:4107, 3:2051].T))
    chained = nr.permute_dims(x, (1, 0)).copy() + 1.0   # reads the streamed output right away
    np.testing.assert_array_equal(chained.numpy(), h.T + np.float32(1.0))
