"""npurt::array::sort_plan / sort_last (npurt/sort_ops.h), the one plan of the
sort family's launches, through npurt._sort_plan / _sort_last: which unit a
dtype and row length take, the chunk (fits the UB, multiple of the unit's
step, capped at the row), the merge widths (chunk doubling until the row is
covered), forced paths, and clear errors for bad arguments. Results of every
path compare to numpy's stable sort."""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import searching

from search_cases import data, ref_sort


def widths_for(chunk, n):
    w, out = chunk, []
    while w < n:
        out.append(w)
        w *= 2
    return out


@pytest.mark.parametrize("dtype,unit,score", [("float32", "vector", "float32"), ("float16", "vector", "float16"),
                                              ("bfloat16", "vector", "float32"), ("int16", "vector", "float32"),
                                              ("int8", "vector", "float16"), ("bool", "vector", "float16"),
                                              ("int32", "vector", "float32"), ("uint32", "vector", "float32"),
                                              ("uint16", "vector", "float32"),
                                              ("float64", "scalar", None),
                                              ("int64", "scalar", None)])
@pytest.mark.parametrize("n", [33, 1023, 8192, 70000])
def test_unit_chunk_and_widths(dtype, unit, score, n):
    x = nr.asarray(data(dtype, (n,), seed=1))
    got_unit, got_score, rows, length, chunk, widths = searching.sort_plan(x)
    assert (got_unit, rows, length) == (unit, 1, n)
    if score:
        assert str(got_score) == score
    step = 128 if unit == "vector" else 64
    assert chunk % step == 0 and 0 < chunk <= (n + step - 1) // step * step
    assert list(widths) == widths_for(chunk, n)


def test_short_rows_stay_scalar_unless_forced():
    x = nr.asarray(data("float32", (100, 31), seed=2))
    assert searching.sort_plan(x)[0] == "scalar"
    assert searching.sort_plan(x, vchunk=128)[0] == "vector"
    assert searching.sort_plan(nr.asarray(data("float32", (4, 32), seed=2)))[0] == "vector"


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
@pytest.mark.parametrize("descending", [False, True])
def test_forced_scalar_matches_numpy(dtype, descending):
    host = data(dtype, (3, 5000), seed=3)
    x = nr.asarray(host)
    assert searching.sort_plan(x, scalar=True)[0] == "scalar"
    v, i = searching.sort_last(x, descending, scalar=True)
    want_v, want_i = ref_sort(host, -1, descending)
    np.testing.assert_array_equal(i.numpy(), want_i)
    assert v.numpy().tobytes() == np.ascontiguousarray(want_v).tobytes()


def test_empty_and_errors():
    assert searching.sort_plan(nr.asarray(np.zeros((0,), np.float32)))[0] == "scalar"
    assert searching.sort_plan(nr.asarray(np.zeros((3, 0), np.float32)))[2:4] == (0, 0)
    x = nr.asarray(data("float32", (300,), seed=4))
    with pytest.raises(ValueError, match=r"npurt.sort: argument 'x': a 0-d array"):
        searching.sort_plan(nr.asarray(np.float32(1)))
    with pytest.raises(ValueError, match=r"npurt.sort: argument 'vchunk': 100 must be a multiple of 128"):
        searching.sort_last(x, vchunk=100)
    with pytest.raises(ValueError, match=r"npurt.sort: argument 'chunk': 65 must be a multiple of 64"):
        searching.sort_last(x, chunk=65)
    with pytest.raises(ValueError, match=r"npurt.sort: argument 'vchunk': the vector unit does not sort int64"):
        searching.sort_last(nr.asarray(np.arange(5, dtype=np.int64)), vchunk=128)
    with pytest.raises(ValueError, match=r"argument 'vchunk': the scalar path"):
        searching.sort_last(x, chunk=64, vchunk=128)
    with pytest.raises(nr.UnsupportedDtypeError, match=r"npurt.sort: argument 'x': complex64 values have no order"):
        searching.sort_plan(nr.asarray(np.zeros(4, np.complex64)))
    # The runtime stays usable after the errors.
    v, _ = searching.sort_last(x)
    np.testing.assert_array_equal(v.numpy(), np.sort(data("float32", (300,), seed=4), kind="stable"))
