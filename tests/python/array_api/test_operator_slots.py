"""nr.ndarray's binary number slots (nb_add, nb_subtract, ...) point at the C++
fast path (sdk_python/bindings/operators.cpp, install_number_slots) instead of
CPython's generic slot that looked __add__ up and called it. Two exact
ndarrays go straight to npurt::array::binary; every other pairing follows
CPython's __op__ / __rop__ protocol (Python scalars, NotImplemented, foreign
reflections, TypeError). Values are
checked against numpy (exact for float32 + - *, integer ops exact, true
division rtol 1e-6), errors against the Python path's text.
"""
import operator

import numpy as np
import pytest

import npurt as nr

ND = nr.ndarray
OPS = [(operator.add, "add"), (operator.sub, "sub"), (operator.mul, "mul"), (operator.truediv, "truediv"),
       (operator.floordiv, "floordiv"), (operator.mod, "mod"), (operator.and_, "and"), (operator.or_, "or"),
       (operator.xor, "xor"), (operator.lshift, "lshift"), (operator.rshift, "rshift")]
FLOAT_OPS = {"add", "sub", "mul", "truediv", "floordiv", "mod"}


@pytest.mark.parametrize("op,stem", OPS)
@pytest.mark.parametrize("n", [0, 1, 15, 33, 1023])
def test_exact_ndarrays_match_numpy(op, stem, n):
    rng = np.random.default_rng(n)
    if stem in FLOAT_OPS:
        a = rng.uniform(-4, 4, n).astype(np.float32)
        b = rng.uniform(0.5, 4, n).astype(np.float32)
    else:
        a = rng.integers(0, 100, n).astype(np.int32)
        b = rng.integers(0, 5, n).astype(np.int32)
    got = op(nr.asarray(a), nr.asarray(b))
    assert type(got) is ND
    assert got.dtype == (nr.float32 if stem in FLOAT_OPS else nr.int32)
    want = op(a, b)
    assert got.shape == want.shape
    if stem in ("truediv", "floordiv", "mod"):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def test_zero_d_broadcast_and_views():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = nr.asarray(a)
    np.testing.assert_array_equal((x[:, ::2] + x[:, 1::2]).numpy(), a[:, ::2] + a[:, 1::2])
    np.testing.assert_array_equal((x + nr.asarray(np.float32(2))).numpy(), a + np.float32(2))
    np.testing.assert_array_equal((x[:1] * x).numpy(), a[:1] * a)


def test_python_scalars_on_either_side():
    h = np.arange(5, dtype=np.float32)
    x = nr.asarray(h)
    np.testing.assert_array_equal((2.0 + x).numpy(), 2.0 + h)
    np.testing.assert_array_equal((x - 1).numpy(), h - 1)
    np.testing.assert_array_equal((3 - x).numpy(), 3 - h)
    np.testing.assert_allclose((1.0 / (x + 1)).numpy(), 1.0 / (h + 1), rtol=1e-6)


class Foreign:
    def __radd__(self, other):
        return "foreign radd"

    def __rsub__(self, other):
        return NotImplemented


def test_foreign_reflection_and_type_errors():
    x = nr.asarray(np.ones(2, np.float32))
    assert x + Foreign() == "foreign radd"
    with pytest.raises(TypeError, match="unsupported operand type"):
        x - Foreign()
    with pytest.raises(TypeError):
        x * "text"
    with pytest.raises(TypeError):
        x & object()
    with pytest.raises(TypeError):
        object() >> x


def test_errors_are_the_python_paths():
    x = nr.asarray(np.arange(3, dtype=np.int8))
    y = nr.asarray(np.arange(2, dtype=np.int8))
    with pytest.raises(ValueError) as fast:
        x + y
    with pytest.raises(ValueError) as slow:
        ND._py__add__(x, y)
    assert str(fast.value) == str(slow.value)
    assert isinstance(fast.value, nr.InvalidArgumentError)
    np.testing.assert_array_equal((x + x).numpy(), np.arange(3, dtype=np.int8) * 2)  # still usable


def test_resetting_a_dunder_keeps_operators_working():
    h = np.arange(4, dtype=np.float32)
    x = nr.asarray(h)
    radd = ND.__radd__
    try:
        ND.__radd__ = radd  # CPython resets nb_add to its generic slot here
        np.testing.assert_array_equal((x + x).numpy(), h + h)
        np.testing.assert_array_equal((1.0 + x).numpy(), 1.0 + h)
    finally:
        ND.__radd__ = radd
        nr._npurt._install_operator_slots()
    np.testing.assert_array_equal((x + x).numpy(), h + h)
