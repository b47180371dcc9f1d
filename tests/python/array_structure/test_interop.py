"""DLPack both ways with numpy (and torch when installed), and numpy dispatch (NEP 13/18)."""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import interop, manipulation  # noqa: F401  (installs the protocols)
from npurt.array_api.interop import from_dlpack  # nr.from_dlpack once the namespace re-exports it
from npurt.array_api import indexing  # noqa: F401


# ---- export ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8, np.bool_, np.complex64])
def test_np_from_dlpack_is_a_writable_zero_copy_view(dtype):
    host = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    x = nr.asarray(host)
    h = np.from_dlpack(x)
    np.testing.assert_array_equal(h, host)
    assert h.flags.writeable
    h[1, 2] = 1
    assert x[1, 2].item() == 1  # the device array saw the host write: same memory


def test_export_views_and_edge_shapes():
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = nr.asarray(host)
    for view, ref in ((x[:, ::-1, 1::2], host[:, ::-1, 1::2]), (x.T, host.T), (x[0, 0, 0], host[0, 0, 0]),
                      (x[:, :0], host[:, :0])):
        np.testing.assert_array_equal(np.from_dlpack(view), ref)
    assert x.__dlpack_device__() == (1, 0)


def test_export_waits_for_pending_work():
    x = nr.asarray(np.zeros(1 << 20, np.float32))
    x[...] = 2.0  # a queued kernel
    assert np.from_dlpack(x).min() == 2.0


def test_versioned_and_legacy_capsules():
    x = nr.asarray(np.ones(3, np.float32))
    assert "dltensor_versioned" in repr(x.__dlpack__(max_version=(1, 0)))
    assert '"dltensor"' in repr(x.__dlpack__())
    with pytest.raises(BufferError, match="argument 'dl_device'"):
        x.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="argument 'stream'"):
        x.__dlpack__(stream=5)


def test_exported_memory_outlives_the_array():
    x = nr.asarray(np.arange(1000, dtype=np.int32))
    h = np.from_dlpack(x)
    del x
    import gc
    gc.collect()
    np.testing.assert_array_equal(h, np.arange(1000, dtype=np.int32))


# ---- import ----------------------------------------------------------------------

def test_from_dlpack_numpy_zero_copy_when_allowed():
    host = np.zeros(256, np.float32)  # numpy buffers are aligned to the element size
    x = from_dlpack(host, copy=False)
    host[5] = 3.0
    assert x[5].item() == 3.0
    x[7] = 4.0  # a device kernel writes into numpy's memory
    nr.synchronize()
    assert host[7] == 4.0


def test_from_dlpack_copies_read_only_and_unaligned_memory():
    host = np.arange(40, dtype=np.uint8)
    ro = host.copy()
    ro.flags.writeable = False
    x = from_dlpack(ro)
    np.testing.assert_array_equal(x.numpy(), ro)
    with pytest.raises(BufferError, match="copy=False but the producer's memory is read-only"):
        from_dlpack(ro, copy=False)
    unaligned = host.view(np.uint8)[2:34].view(np.int32)  # int32 elements at a 2-byte offset
    expected = unaligned.copy()
    y = from_dlpack(unaligned)
    host[2] = 99
    np.testing.assert_array_equal(y.numpy(), expected)  # a copy: not affected by the later host write
    with pytest.raises(BufferError, match="not aligned to the element size"):
        from_dlpack(unaligned, copy=False)


def test_from_dlpack_strided_and_copy_true():
    host = np.arange(60, dtype=np.float32).reshape(6, 10)
    for view in (host[::2, ::-3], host.T, host[:, :0], host[3, 4, ...]):
        x = from_dlpack(view)
        np.testing.assert_array_equal(x.numpy(), view)
    c = from_dlpack(host, copy=True)
    host[0, 0] = -1
    assert c[0, 0].item() == 0.0
    with pytest.raises(TypeError, match="npurt.from_dlpack: argument 'x': list does not implement __dlpack__"):
        from_dlpack([1, 2])


def test_round_trip_through_torch_when_installed():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = from_dlpack(t)
    np.testing.assert_array_equal(x.numpy(), t.numpy())
    back = torch.from_dlpack(x)
    assert torch.equal(back, t)


# ---- numpy dispatch ---------------------------------------------------------------

def test_array_function_dispatches_to_npurt():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(host)
    s = np.sum(x, axis=1)
    assert isinstance(s, nr.ndarray)
    np.testing.assert_allclose(s.numpy(), host.sum(axis=1), rtol=1e-6)
    c = np.concatenate([x, x[::-1]])
    assert isinstance(c, nr.ndarray)
    np.testing.assert_array_equal(c.numpy(), np.concatenate([host, host[::-1]]))
    np.testing.assert_array_equal(np.transpose(x).numpy(), host.T)
    np.testing.assert_array_equal(np.reshape(x, (4, 3)).numpy(), host.reshape(4, 3))
    np.testing.assert_array_equal(np.max(x, axis=0, keepdims=True).numpy(), host.max(axis=0, keepdims=True))
    np.testing.assert_allclose(np.mean(x).numpy(), host.mean(), rtol=1e-6)
    np.testing.assert_allclose(np.add.reduce(x, axis=1).numpy(), host.sum(axis=1), rtol=1e-6)
    assert np.shape(x) == (3, 4)


def test_missing_functions_raise_type_error_naming_them():
    x = nr.asarray(np.arange(6, dtype=np.float32))
    with pytest.raises(TypeError, match="numpy.median is not implemented for npurt arrays"):
        np.median(x)
    with pytest.raises(TypeError, match="numpy.sum: "):
        np.sum(x, out=np.zeros(()))
    with pytest.raises(TypeError, match="does not mix ndarray"):
        np.concatenate([x, np.zeros(3, np.float32)])


def test_ufuncs_dispatch_or_name_the_missing_one():
    host = np.linspace(-1, 1, 33).astype(np.float32)
    x = nr.asarray(host)
    if hasattr(nr, "exp"):
        y = np.exp(x)
        assert isinstance(y, nr.ndarray)
        np.testing.assert_allclose(y.numpy(), np.exp(host), rtol=1e-6)
    else:
        with pytest.raises(TypeError, match="numpy.exp is not implemented for npurt arrays"):
            np.exp(x)
    # numpy 2.4 leaks the operand when __array_ufunc__ raises for a reduce/accumulate: call it directly
    with pytest.raises(TypeError, match="numpy.subtract.accumulate is not implemented"):
        x.__array_ufunc__(np.subtract, "accumulate", x)
    with pytest.raises(TypeError, match="does not mix ndarray operands"):
        np.add(x, host)
