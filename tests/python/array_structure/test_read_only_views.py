"""nr.broadcast_to and nr.broadcast_arrays return read-only views, as numpy does (their elements
alias: a write would land on one element many times). The flag (Tensor::read_only) travels to
views of views; setitem, in-place operators, ops' out= and host copies refuse such a view with an
error naming the op; DLPack >= 1.0 exports carry the read-only flag (numpy then makes a
read-only array) and legacy exports refuse it. Copies are writable again."""
import numpy as np
import pytest

import npurt as nr


def base_and_view():
    a = nr.asarray(np.arange(3, dtype=np.float32))
    return a, nr.broadcast_to(a, (2, 3))


def test_broadcast_views_are_read_only_and_so_are_their_views():
    a, b = base_and_view()
    assert b.read_only and not a.read_only
    for v in (b[0], b[:, 1], b.T, nr.reshape(b[0], (3, 1)), nr.flip(b, axis=1)):
        assert v.read_only
    x, y = nr.broadcast_arrays(a, nr.zeros((2, 1)))
    assert x.read_only and y.read_only
    assert nr.broadcast_to(a, (3,)).read_only  # numpy: read-only even when nothing is broadcast


def test_copies_and_results_are_writable():
    _, b = base_and_view()
    for c in (nr.asarray(b, copy=True), b + 1, nr.reshape(b, (6,)), nr.tile(b, (2, 1)), nr.meshgrid(b[0], b[0])[0]):
        assert not c.read_only
        c[...] = 7
        assert (c.numpy() == 7).all()


@pytest.mark.parametrize("write", [
    lambda b: b.__setitem__(0, 5),                  # the C++ fill fast path falls back to the refusal
    lambda b: b.__setitem__((Ellipsis,), 1.5),
    lambda b: b.__setitem__((slice(None), 1), 7),
    lambda b: b.__setitem__(1, np.arange(3, dtype=np.float32)),
    lambda b: b.__setitem__(nr.asarray(np.array([True, False])), 2),  # advanced (mask) assignment
], ids=["int", "ellipsis", "column", "numpy-row", "mask"])
def test_setitem_refuses_and_writes_nothing(write):
    a, b = base_and_view()
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ndarray\.__setitem__: argument 'self': assignment "
                                                      "destination is read-only") as info:
        write(b)
    assert isinstance(info.value, ValueError)  # numpy raises ValueError
    np.testing.assert_array_equal(a.numpy(), [0, 1, 2])


@pytest.mark.parametrize("op", ["__iadd__", "__imul__", "__isub__"])
def test_inplace_operators_refuse(op):
    a, b = base_and_view()
    with pytest.raises(ValueError, match=r"argument 'self': output array is read-only"):
        getattr(b, op)(2)
    np.testing.assert_array_equal(a.numpy(), [0, 1, 2])


def test_ops_out_refuses_a_read_only_view():
    a, b = base_and_view()
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.copy: argument 'out\[0\].*read-only view"):
        nr.ops.copy(nr.zeros(3), out=b[0])
    np.testing.assert_array_equal(a.numpy(), [0, 1, 2])


def test_dlpack_exports_read_only():
    _, b = base_and_view()
    h = np.from_dlpack(b)  # numpy asks for DLPack 1.0: the flag makes its array read-only
    np.testing.assert_array_equal(h, np.broadcast_to(np.arange(3, dtype=np.float32), (2, 3)))
    assert not h.flags.writeable
    with pytest.raises(BufferError, match="read-only view"):
        b.__dlpack__()  # a legacy capsule cannot say read-only (numpy refuses the same way)
    writable = np.from_dlpack(nr.asarray(b, copy=True))
    assert writable.flags.writeable
