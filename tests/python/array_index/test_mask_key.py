"""Keys holding a boolean nr.ndarray mask, alone or with other entries
(x[mask], x[mask, 1:], x[..., mask], x[0, :, mask], x[idx, mask]), read and
assigned through npurt::AdvancedIndex (runtime/include/npurt/advanced_index.h:
a mask is its nonzero() arrays, one blocking count read) from the C++ slots
(sdk_python/bindings/index_advanced.cpp), against numpy with the Python
fallback switched off; bad masks keep the Python layer's IndexingError."""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

from test_index_put import DTYPES, base

ndarray = _npurt.ndarray
MASKS = {  # name -> (mask over base()'s (5, 4, 6), key builder)
    "whole 1-d": ((5,), lambda m: m),
    "whole 2-d": ((5, 4), lambda m: m),
    "whole 3-d": ((5, 4, 6), lambda m: m),
    "mask, ...": ((5,), lambda m: (m, Ellipsis)),
    "mask, 1:": ((5,), lambda m: (m, slice(1, None))),
    "mask, int": ((5, 4), lambda m: (m, 2)),
    "..., mask": ((6,), lambda m: (Ellipsis, m)),
    "int, :, mask": ((6,), lambda m: (1, slice(None), m)),
    ":, mask 2-d": ((4, 6), lambda m: (slice(None), m)),
    "None, mask, ::-2": ((5,), lambda m: (None, m, slice(None, None, -2))),
}
FILLS = ["random", "none", "all"]


def host(x, dtype):
    """x on the host as numpy dtype (bfloat16 widened to float32 exactly), its shape kept when empty."""
    return (x.astype(nr.float32) if str(x.dtype) == "bfloat16" else x).numpy().astype(dtype)


def mask_of(shape, fill, seed=0):
    if fill == "none":
        return np.zeros(shape, bool)
    if fill == "all":
        return np.ones(shape, bool)
    return np.random.default_rng(seed).random(shape) > 0.5


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16"])
@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("fill", FILLS)
def test_reads_and_writes_match_numpy_without_python(monkeypatch, dtype, name, fill):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)  # the C++ path alone must answer
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    shape, make = MASKS[name]
    m = mask_of(shape, fill)
    key_np, key_nr = make(m), make(nr.asarray(m))
    ndt = "float32" if dtype == "bfloat16" else dtype
    a = base(ndt)
    x = nr.asarray(a).astype(nr.bfloat16) if dtype == "bfloat16" else nr.asarray(a)
    got = x[key_nr]
    want = a[key_np]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(host(got, ndt), want)
    values = (np.arange(want.size).reshape(want.shape) % 5).astype(ndt)
    x[key_nr] = nr.asarray(values).astype(nr.bfloat16) if dtype == "bfloat16" else nr.asarray(values)
    a[key_np] = values
    np.testing.assert_array_equal(host(x, ndt), a)


@pytest.mark.parametrize("view", ["strided", "permuted", "reversed"])
def test_non_contiguous_bases_and_masks(monkeypatch, view):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    a = base("float32", (6, 4, 6))
    x = nr.asarray(a)
    sel = {"strided": (slice(None, None, 2),), "permuted": None, "reversed": (slice(None, None, -1),)}[view]
    av = a.transpose(2, 0, 1) if sel is None else a[sel]
    xv = nr.permute_dims(x, (2, 0, 1)) if sel is None else x[sel]
    m_full = mask_of((av.shape[0] * 2,), "random", 3)
    m = m_full[::2]  # a strided mask too
    mv = nr.asarray(m_full)[::2]
    np.testing.assert_array_equal(xv[mv, 1:].numpy(), av[m, 1:])
    xv[mv, 1:] = nr.asarray(np.float32(7.5))  # one value, repeated
    av[m, 1:] = 7.5
    row = np.arange(av.shape[2], dtype=np.float32)
    xv[mv, 0] = nr.asarray(row)  # broadcast values
    av[m, 0] = row
    np.testing.assert_array_equal(x.numpy(), a)


def test_with_integer_arrays_and_scalars(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    a = base("int64")
    x = nr.asarray(a)
    m = np.array([True, False, True, True])
    idx = [4, 0, 2]
    np.testing.assert_array_equal(x[idx, nr.asarray(m)].numpy(), a[idx, m])
    np.testing.assert_array_equal(x[:, nr.asarray(m), [1]].numpy(), a[:, m, [1]])
    x[idx, nr.asarray(m)] = 2**62 + 1  # a Python int beyond 2^53, exact
    a[idx, m] = 2**62 + 1
    x[nr.asarray(np.ones((5, 4), bool)), 3] = 9
    a[np.ones((5, 4), bool), 3] = 9
    np.testing.assert_array_equal(x.numpy(), a)


def test_empty_arrays_and_empty_selections(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    x = nr.zeros((0, 3), dtype=nr.float32)
    assert tuple(x[nr.asarray(np.zeros(0, bool))].shape) == (0, 3)
    y = nr.ones((2, 3), dtype=nr.float32)
    assert tuple(y[nr.asarray(np.zeros(2, bool)), 1:].shape) == (0, 2)


def test_bad_masks_keep_the_python_errors():
    x = nr.asarray(base("float32"))
    with pytest.raises(nr.IndexingError, match=r"boolean index of shape \(4,\) does not match"):
        x[nr.asarray(np.ones(4, bool))]
    with pytest.raises(IndexError):
        x[nr.asarray(np.ones(4, bool)), 1:]
    with pytest.raises(IndexError):
        x[nr.asarray(np.ones(5, bool)), nr.asarray(np.ones(4, bool))]  # 5 and 4 true: do not broadcast
    before = x.numpy()
    with pytest.raises(IndexError):
        x[nr.asarray(np.ones(4, bool)), 1:] = 1.0
    np.testing.assert_array_equal(x.numpy(), before)  # nothing written


def test_cxx_plan_error_text():
    x = nr.zeros((3, 4), dtype=nr.float32)
    with pytest.raises(nr.InvalidArgumentError, match=r"boolean index did not match indexed array along axis 1; "
                       r"size of axis is 4 but size of corresponding boolean axis is 3"):
        _npurt._index_put(x, (slice(None), nr.asarray(np.ones(3, bool))), nr.asarray(np.float32(1)))


def test_one_count_read_and_launches():
    x = nr.zeros((8, 8), dtype=nr.float32)
    m = nr.asarray(np.arange(8) % 2 == 0)
    nr.synchronize()
    with nr.profiler.profile() as p:
        x[m, 1:]
        nr.synchronize()
    names = [a.name for a in p.result.activities]
    assert names.count("copy D2H") == 1 and "gather" in names and "index_check" not in names, names


@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("kind", ["numpy", "list"])
def test_host_masks_need_no_device_read(monkeypatch, name, kind):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    shape, make = MASKS[name]
    m = mask_of(shape, "random", 1)
    key = make(m.tolist() if kind == "list" else m)
    a = base("float16")
    x = nr.asarray(a)
    nr.synchronize()
    with nr.profiler.profile() as p:
        got = x[key]
        x[key] = 3.0
        nr.synchronize()
    assert "copy D2H" not in [e.name for e in p.result.activities]  # nonzero() found on the host
    np.testing.assert_array_equal(got.numpy(), a[make(m)])
    a[make(m)] = 3.0
    np.testing.assert_array_equal(x.numpy(), a)


def test_bad_host_masks_keep_the_python_errors():
    x = nr.asarray(base("float32"))
    with pytest.raises(nr.IndexingError, match=r"boolean index of shape \(3,\) does not match"):
        x[[True, False, True]]
    with pytest.raises(IndexError):
        x[np.ones(3, bool), 1:] = 1.0
    np.testing.assert_array_equal(x.numpy(), base("float32"))


def test_masks_with_other_entries_raise_numpy_classes_and_words():
    x = nr.asarray(base("float32"))  # (5, 4, 6)
    m = nr.asarray(np.array([True, False, True, False, False]))
    with pytest.raises(nr.IndexingError, match=r"__getitem__: index 9 is out of bounds for axis 1 with size 4"):
        x[m, [0, 9]]
    with pytest.raises(nr.IndexingError, match=r"__setitem__: argument 'key': shape mismatch: indexing arrays could not be "
                       r"broadcast together with shapes \(2,\) \(3,\)"):
        x[m, [0, 1, 2]] = 1.0
    with pytest.raises(nr.InvalidArgumentError, match=r"__setitem__: argument 'values': could not broadcast "
                       r"input array from shape \(5,\) into shape \(2, 6\)"):
        x[m, 1] = nr.ones((5,), dtype=nr.float32)
    np.testing.assert_array_equal(x.numpy(), base("float32"))  # nothing written


def test_index_take_binding():
    x = nr.asarray(base("int32"))
    m = np.array([False, True, True, False])
    np.testing.assert_array_equal(_npurt._index_take(x, (slice(None), nr.asarray(m), 0)).numpy(),
                                  base("int32")[:, m, 0])
    with pytest.raises(nr.InvalidArgumentError, match=r"f: argument 'key': entries must be basic ones"):
        _npurt._index_take(x, (slice(None), 1.5), "f")
