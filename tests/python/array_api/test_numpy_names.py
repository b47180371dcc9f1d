"""numpy's spellings on npurt (array_api/numpy_names.py) against numpy itself."""
import numpy as np
import pytest

import npurt as nr

RNG = np.random.default_rng(7)


def host(shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("shape", [(0,), (1,), (15,), (4, 33), (2, 3, 5)])
def test_structural_names(shape):
    a = host(shape)
    x = nr.asarray(a)
    np.testing.assert_array_equal(nr.transpose(x).numpy(), np.transpose(a))
    np.testing.assert_array_equal(nr.ravel(x).numpy(), np.ravel(a))
    np.testing.assert_array_equal(nr.concatenate([x, x], axis=0).numpy(), np.concatenate([a, a], axis=0))
    np.testing.assert_array_equal(nr.copy(x).numpy(), a)
    np.testing.assert_array_equal(nr.array(a).numpy(), a)
    if len(shape) > 1:
        np.testing.assert_array_equal(nr.swapaxes(x, 0, -1).numpy(), np.swapaxes(a, 0, -1))
        np.testing.assert_array_equal(nr.transpose(x, (1, 0) + tuple(range(2, len(shape)))).numpy(),
                                      np.transpose(a, (1, 0) + tuple(range(2, len(shape)))))


def test_aliases_compute_like_numpy():
    a = np.abs(host((33,))) + 0.5
    x = nr.asarray(a)
    np.testing.assert_allclose(nr.power(x, 2.0).numpy(), np.power(a, 2.0), rtol=1e-6)
    np.testing.assert_allclose(nr.absolute(-x).numpy(), a)
    np.testing.assert_allclose(nr.mod(x, 0.3).numpy(), np.mod(a, np.float32(0.3)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nr.arctan2(x, x).numpy(), np.arctan2(a, a), rtol=1e-6)


def test_cumsum_and_methods():
    a = host((4, 7))
    x = nr.asarray(a)
    np.testing.assert_allclose(nr.cumsum(x).numpy(), np.cumsum(a), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.cumsum(axis=1).numpy(), a.cumsum(axis=1), rtol=1e-5, atol=1e-5)
    assert x.astype(nr.float16).dtype == nr.float16
    np.testing.assert_array_equal(x.argmax(1).numpy(), a.argmax(1))
    np.testing.assert_array_equal(x.argmin(axis=0).numpy(), a.argmin(axis=0))
    np.testing.assert_array_equal(x.clip(-0.5, 0.5).numpy(), a.clip(-0.5, 0.5))
    y = nr.asarray(a)
    y.sort(axis=1)
    np.testing.assert_array_equal(y.numpy(), np.sort(a, axis=1))
    y.fill(3.0)
    assert (y.numpy() == 3.0).all()


def test_isclose_allclose_and_dot():
    a = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, 1e-9], np.float32)
    b = np.array([1.0 + 1e-7, np.inf, np.inf, np.nan, 1e-9, 0.0], np.float32)
    for equal_nan in (False, True):
        np.testing.assert_array_equal(nr.isclose(nr.asarray(a), nr.asarray(b), equal_nan=equal_nan).numpy(),
                                      np.isclose(a, b, equal_nan=equal_nan))
    assert nr.allclose(nr.asarray(a[:2]), nr.asarray(b[:2]))
    m = host((5, 3))
    v = host((3,))
    np.testing.assert_allclose(nr.dot(nr.asarray(m), nr.asarray(v)).numpy(), m @ v, rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="npurt.dot: .*only 1-D and 2-D"):
        nr.dot(nr.asarray(host((2, 2, 2))), nr.asarray(m))


def test_numpy_script_ported_by_changing_the_import():
    """The same function body run with numpy and with npurt as `np`."""
    def script(np_):
        t = np_.linspace(0.0, 1.0, 257, dtype=np_.float32)
        signal = np_.sin(2 * np_.pi * 5 * t) + 0.5 * np_.cos(2 * np_.pi * 12 * t)
        frames = np_.reshape(signal[:256], (16, 16))
        energy = np_.sqrt(np_.sum(frames ** 2, axis=-1))
        loudest = np_.argmax(energy)
        normalized = (frames - np_.mean(frames, axis=1, keepdims=True)) / (np_.std(frames, axis=1, keepdims=True) + 1e-6)
        ranked = np_.sort(energy)
        return energy, loudest, normalized, ranked, np_.concatenate([energy, ranked])

    expected = script(np)
    got = script(nr)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(np.asarray(g), e, rtol=2e-4, atol=2e-5)
