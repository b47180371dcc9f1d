"""nr.ops: generated functions, signatures, docs, built-in kernels vs numpy, errors, out=, cache."""
import inspect

import numpy as np
import pytest

import npurt as nr

SIZES = [1, 15, 33, 1023, 1 << 20]


def test_list_and_signature_and_doc():
    names = nr.ops.list()
    assert {"add", "mul", "copy", "fill", "cast"} <= set(names)
    assert names == sorted(names)
    sig = inspect.signature(nr.ops.add)
    assert list(sig.parameters) == ["x", "y", "out", "stream"]
    assert sig.parameters["out"].kind is inspect.Parameter.KEYWORD_ONLY
    fill = inspect.signature(nr.ops.fill)
    assert fill.parameters["value"].default == 0.0
    assert fill.parameters["shape"].default is inspect.Parameter.empty
    assert "x + y" in nr.ops.add.__doc__ and "x: int16, int32, float16, float32" in nr.ops.add.__doc__
    assert nr.ops.add.__name__ == "add"


def test_describe_shows_plan():
    text = nr.ops.describe("add", (4096,), (4096,))
    assert "add(x: " in text and "outputs: float32[4096]" in text and "numBlocks: 1" in text
    assert "tile=" in text


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int16])
def test_add_mul_match_numpy(n, dtype):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 100).astype(dtype)
    b = (rng.standard_normal(n) * 100).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(nr.ops.add(x, y).numpy(), a + b)
        np.testing.assert_array_equal(nr.ops.mul(x, y).numpy(), a * b)


@pytest.mark.parametrize("n", SIZES)
def test_cast_and_fill_match_numpy(n):
    a = (np.random.default_rng(1).standard_normal(n) * 50).astype(np.float32)
    x = nr.asarray(a)
    np.testing.assert_array_equal(nr.ops.cast(x, dtype=nr.float16).numpy(), a.astype(np.float16))
    np.testing.assert_array_equal(nr.ops.cast(x, dtype=nr.int32).numpy(), a.astype(np.int32))
    np.testing.assert_array_equal(nr.ops.fill(shape=(n,), dtype=nr.int16, value=-3).numpy(),
                                  np.full(n, -3, np.int16))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float64, np.complex128])
def test_copy_every_dtype(dtype):
    # Strided views are covered by the C++ tests (tests/runtime/ops/test_builtin_kernels.cc).
    base = (np.arange(600 * 50) % 7).astype(dtype).reshape(600, 50)
    np.testing.assert_array_equal(nr.ops.copy(nr.asarray(base)).numpy(), base)


def test_out_and_errors():
    a = np.arange(8, dtype=np.float32)
    x = nr.asarray(a)
    out = nr.empty((8,), dtype=nr.float32)
    r = nr.ops.add(x, x, out=out)
    assert r is out  # like numpy: out= returns the array it wrote
    np.testing.assert_array_equal(out.numpy(), a + a)
    np.testing.assert_array_equal(r.numpy(), a + a)
    with pytest.raises(nr.InvalidArgumentError, match=r"argument 'out\[0\] \('z'\)': shape \(4,\)"):
        nr.ops.add(x, x, out=nr.empty((4,), dtype=nr.float32))
    with pytest.raises(nr.UnsupportedDtypeError, match="argument 'y': dtype float64 is not supported"):
        nr.ops.add(x, nr.asarray(a.astype(np.float64)))
    with pytest.raises(ValueError, match="argument 'y': required input is missing"):
        nr.ops.add(x)
    with pytest.raises(ValueError, match="argument 'alpha': unexpected keyword argument"):
        nr.ops.add(x, x, alpha=2)
    with pytest.raises(ValueError, match="argument 'value': expected float, got str"):
        nr.ops.fill(shape=(2,), value="1")
    with pytest.raises(ValueError, match="argument 'x': expected an npurt.ndarray, got ndarray"):
        nr.ops.add(a, x)
    with pytest.raises(nr.NotFoundError, match="unknown op 'ad'"):
        nr.ops.get("ad")
    with pytest.raises(AttributeError, match="no op 'addd'"):
        nr.ops.addd
    np.testing.assert_array_equal(nr.ops.add(x, x).numpy(), a + a)  # still usable


def test_tiling_cache_hits():
    f = nr.ops.mul
    f.clear_tiling_cache()
    x = nr.asarray(np.ones(77, np.float32))
    for _ in range(3):
        f(x, x)
    s = f.tiling_cache_stats()
    assert (s["misses"], s["hits"], s["entries"]) == (1, 2, 1)
