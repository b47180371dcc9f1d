"""The C++ fast paths of nr.ndarray's operators and reduction methods
(sdk_python/bindings/operators.cpp, npurt::array::binary/reduce) keep the
array-API layer's semantics: each case is checked against numpy (values,
dtype, shape; float32 exact for + - * and compares, rtol 1e-6 for sums,
float16 rtol 1e-3) and against the Python path itself (ndarray._py_<op>,
the same result type, dtype, shape and error text), over the promotion table,
Python scalars, broadcasting, views, 0-d/empty/odd/large sizes and errors.
Also: no nanobind instance is leaked at interpreter exit.
"""
import operator
import subprocess
import sys

import numpy as np
import pytest

import npurt as nr

ND = nr.ndarray

# operator -> Python fallback attribute
BINARY = {operator.add: "__add__", operator.sub: "__sub__", operator.mul: "__mul__",
          operator.truediv: "__truediv__", operator.floordiv: "__floordiv__", operator.mod: "__mod__",
          operator.pow: "__pow__", operator.and_: "__and__", operator.or_: "__or__", operator.xor: "__xor__",
          operator.lshift: "__lshift__", operator.rshift: "__rshift__", operator.lt: "__lt__",
          operator.le: "__le__", operator.gt: "__gt__", operator.ge: "__ge__", operator.eq: "__eq__",
          operator.ne: "__ne__"}
EXACT = (operator.add, operator.sub, operator.mul, operator.lt, operator.le, operator.gt, operator.ge,
         operator.eq, operator.ne)


def outcome(fn):
    """(kind, payload): the result as host data, or the exception type and text."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001  (comparing error behaviour is the point)
        return ("error", type(e), str(e))
    if isinstance(r, ND):
        return ("array", str(r.dtype), tuple(r.shape), r.numpy().tobytes())
    return ("other", type(r), r)


def same_as_python_path(op, x, y):
    fast = outcome(lambda: op(x, y))
    slow = outcome(lambda: getattr(ND, "_py" + BINARY[op])(x, y))
    assert fast == slow
    return fast


PROMOTE_DTYPES = ["bool", "int8", "int16", "int32", "uint8", "float16", "float32"]


@pytest.mark.parametrize("da", PROMOTE_DTYPES)
@pytest.mark.parametrize("db", PROMOTE_DTYPES)
def test_add_promotion_table(da, db):
    a = (np.arange(15) % 3 == 1) if da == "bool" else (np.arange(15) % 7 - 2).astype(da)
    b = (np.arange(15) % 2 == 0) if db == "bool" else (np.arange(15) % 5 + 1).astype(db)
    x, y = nr.asarray(a), nr.asarray(b)
    if same_as_python_path(operator.add, x, y)[0] == "error":
        assert da == db == "bool"  # the add kernel has no bool: the same error on both paths
        return
    r = x + y
    assert r.dtype == nr.result_type(x, y)
    ref = np.add(a.astype(str(r.dtype)), b.astype(str(r.dtype)))
    np.testing.assert_array_equal(r.numpy(), ref)


@pytest.mark.parametrize("op", list(BINARY), ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_same_dtype_operators_match_numpy_and_python_path(op, dtype):
    rng = np.random.default_rng(3)
    a = rng.integers(1, 9, 33).astype(dtype)
    b = rng.integers(1, 5, 33).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    fast = same_as_python_path(op, x, y)
    if fast[0] == "error":  # e.g. bitwise ops on floats: the same clear error both ways
        assert "npurt." in fast[2] and "npurt.ops." not in fast[2]
        return
    got = op(x, y).numpy()
    with np.errstate(all="ignore"):
        want = op(a, b)
    if op is operator.truediv and dtype == "int32":
        want = want.astype(np.float32)
    tol = {"float16": 1e-3, "float32": 1e-6, "int32": 0}[dtype]
    if op in EXACT:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol)
    assert got.dtype == want.dtype


@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((), (5,)), ((0,), (0,)), ((2, 0), (1,)), ((1,), (1,)),
                                    ((1023,), (1023,)), ((1 << 18,), (1,))])
def test_broadcasting_sizes(shapes):
    sa, sb = shapes
    a = np.linspace(-3, 3, int(np.prod(sa))).astype(np.float32).reshape(sa)
    b = np.linspace(1, 2, int(np.prod(sb))).astype(np.float32).reshape(sb)
    x, y = nr.asarray(a), nr.asarray(b)
    np.testing.assert_array_equal((x + y).numpy(), a + b)
    np.testing.assert_array_equal((x * y).numpy(), a * b)
    np.testing.assert_array_equal((x > y).numpy(), a > b)
    assert (x - y).shape == (a - b).shape


def test_views_are_read_through_their_strides():
    a = np.arange(66, dtype=np.float32).reshape(6, 11)
    x = nr.asarray(a)
    np.testing.assert_array_equal((x[::2, 1::3] + x[1::2, ::3]).numpy(), a[::2, 1::3] + a[1::2, ::3])
    t = nr.permute_dims(x, (1, 0))
    np.testing.assert_array_equal((t * t).numpy(), a.T * a.T)


@pytest.mark.parametrize("scalar", [2, -1, 2.5, True, 0])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "uint8"])
def test_python_scalars_follow_the_standard(scalar, dtype):
    a = np.array([0, 1, 1, 0, 1], dtype=dtype)
    x = nr.asarray(a)
    for op in (operator.add, operator.mul, operator.lt, operator.eq):
        fast = same_as_python_path(op, x, scalar)
        if fast[0] == "error":
            continue
        r = op(x, scalar)
        assert r.dtype == (nr.bool if op in (operator.lt, operator.eq) else nr.result_type(x, scalar))
        ref = op(a.astype(str(nr.result_type(x, scalar))), scalar)
        np.testing.assert_array_equal(r.numpy(), ref.astype(str(r.dtype)))
    r = outcome(lambda: scalar - x)
    if r[0] == "array":  # bool - bool is an error, as in numpy
        want = scalar - a.astype(str(nr.result_type(x, scalar)))
        assert r[1] == str(want.dtype) and r[3] == want.tobytes()


def test_out_of_range_scalar_and_shape_errors():
    x = nr.asarray(np.arange(3, dtype=np.int8))
    with pytest.raises(OverflowError):
        x + 300
    y = nr.asarray(np.arange(2, dtype=np.int8))
    with pytest.raises(ValueError, match=r"npurt\.add: argument") as e:
        x + y
    assert "npurt.ops." not in str(e.value)
    f = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"npurt\.bitwise_and"):
        f & f
    np.testing.assert_array_equal((x + x).numpy(), np.arange(3, dtype=np.int8) * 2)  # runtime still fine


class Foreign:
    def __radd__(self, other):
        return "foreign radd"

    def __rlt__(self, other):  # never called: __gt__ is the reflection of <
        return "wrong"

    def __gt__(self, other):
        return "foreign gt"


def test_foreign_types_get_notimplemented_and_their_reflection():
    x = nr.asarray(np.ones(2, np.float32))
    assert x + Foreign() == "foreign radd"
    assert (x < Foreign()) == "foreign gt"
    with pytest.raises(TypeError):
        x + "text"
    assert (x == None) is False  # noqa: E711  (identity fallback after NotImplemented)
    assert (x != None) is True  # noqa: E711
    with pytest.raises(TypeError):
        x + [1, 2]


def test_numpy_operand_goes_to_numpy_as_before():
    x = nr.asarray(np.arange(3, dtype=np.float32))
    h = np.arange(3, dtype=np.float32)
    fast, slow = outcome(lambda: x + h), outcome(lambda: ND._py__add__(x, h))
    assert slow == ("other", type(NotImplemented), NotImplemented)
    assert fast[0] in ("other", "error")  # numpy's reflected add decides; never a silent device op
    if fast[0] == "other":
        np.testing.assert_array_equal(np.asarray(fast[2]), h + h)


def test_inplace_operators_on_views():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(a)
    row = x[1]
    row += nr.asarray(np.full(4, 10, np.float32))
    a[1] += 10
    np.testing.assert_array_equal(x.numpy(), a)
    col = x[:, 1]
    col += 1  # a strided view: written through into x (test_inplace_views.py covers the families)
    a[:, 1] += 1
    np.testing.assert_array_equal(x.numpy(), a)
    ref = x
    x *= 2
    assert x is ref
    np.testing.assert_array_equal(x.numpy(), a * 2)
    i = nr.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError, match="in-place"):
        i += 1.5


# ---- reductions ------------------------------------------------------------------

def reduce_ref(kind, a, axis=None, keepdims=False):
    f = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "mean": np.mean}[kind]
    return f(a.astype(np.float64), axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min", "mean"])
@pytest.mark.parametrize("dtype, rtol", [("float32", 1e-5), ("float16", 2e-3), ("float64", 1e-12)])
@pytest.mark.parametrize("shape", [(), (1,), (15,), (33,), (1023,), (3, 5, 7)])
def test_reduction_methods(kind, dtype, rtol, shape):
    rng = np.random.default_rng(5)
    a = rng.uniform(0.9, 1.1, shape).astype(dtype)
    x = nr.asarray(a)
    r = getattr(x, kind)()
    assert r.dtype == x.dtype and r.shape == ()
    np.testing.assert_allclose(float(r.numpy()), reduce_ref(kind, a), rtol=rtol)
    for axis in ([0, -1] if len(shape) else []):
        for keepdims in (False, True):
            r = getattr(x, kind)(axis=axis, keepdims=keepdims)
            want = reduce_ref(kind, a, axis, keepdims)
            assert r.shape == want.shape and r.dtype == x.dtype
            np.testing.assert_allclose(r.numpy().astype(np.float64), want, rtol=rtol)
            assert outcome(lambda: getattr(x, kind)(axis=axis, keepdims=keepdims)) == \
                outcome(lambda: getattr(ND, "_py_" + kind)(x, axis=axis, keepdims=keepdims))


def test_large_and_strided_sums():
    a = np.random.default_rng(1).uniform(-1, 1, 1 << 19).astype(np.float32)
    x = nr.asarray(a)
    np.testing.assert_allclose(float(x.sum().numpy()), a.astype(np.float64).sum(), rtol=1e-4, atol=1e-2)
    assert outcome(lambda: x.sum()) == outcome(lambda: ND._py_sum(x))  # same split (array_ops.cc)
    assert outcome(lambda: x[::2].mean()) == outcome(lambda: ND._py_mean(x[::2]))
    e = nr.asarray(np.zeros((0, 3), np.float32))
    np.testing.assert_array_equal(e.sum().numpy(), 0.0)
    np.testing.assert_array_equal(e.sum(axis=0).numpy(), np.zeros(3, np.float32))


@pytest.mark.parametrize("call", [
    lambda x: x.sum(axis=(0, 1)), lambda x: x.sum(axis=()), lambda x: x.sum(dtype=nr.float32),
    lambda x: x.sum(axis=5), lambda x: x.sum(axis=-4), lambda x: x.sum(1), lambda x: x.max(dtype=nr.float32),
    lambda x: x.sum(keepdims=1), lambda x: x.sum(axis=np.int64(1)), lambda x: x.mean(axis=None, keepdims=False),
    lambda x: x.sum(axis=1.0), lambda x: x.prod(bogus=1)])
def test_reduction_arguments_match_python_path(call):
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    x = nr.asarray(a)

    class Slow:  # the same call on the Python implementations
        def __getattr__(self, name):
            return lambda *args, **kw: getattr(ND, "_py_" + name)(x, *args, **kw)
    assert outcome(lambda: call(x)) == outcome(lambda: call(Slow()))


# nr.sum(x) ... nr.mean(x) try npurt._fast_<kind> (operators.cpp) first; the Python
# implementations behind it are reductions._PYTHON_PATH.
from npurt import _npurt  # noqa: E402
from npurt.array_api import reductions  # noqa: E402

KINDS = ["sum", "prod", "max", "min", "mean"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("shape", [(), (7,), (3, 5, 7), (1 << 19,)])
def test_reduction_functions_take_the_fast_path_bit_for_bit(kind, dtype, shape):
    x = nr.asarray(np.random.default_rng(3).uniform(0.9, 1.1, shape).astype(dtype))
    f, slow = getattr(nr, kind), reductions._PYTHON_PATH[kind]
    for axis in [None] + ([0, -1] if shape else []):
        for keepdims in (False, True):
            assert _npurt.__dict__["_fast_" + kind](x, axis, keepdims) is not None
            assert outcome(lambda: f(x, axis=axis, keepdims=keepdims)) == \
                outcome(lambda: slow(x, axis, keepdims, None))


@pytest.mark.parametrize("kind", KINDS)
def test_fast_reduction_declines_what_the_python_path_handles(kind):
    fast = _npurt.__dict__["_fast_" + kind]
    f32 = nr.asarray(np.ones((2, 3), np.float32))
    for x in (nr.asarray(np.ones(3, np.int32)), nr.asarray(np.ones(3, np.bool_)),
              nr.asarray(np.ones(3, np.complex64)), [1.0, 2.0], np.ones(3, np.float32), None):
        assert fast(x, None, False) is None
    for axis, keepdims in [((0, 1), False), (2, False), (-3, False), (1.0, False), (np.int64(1), False),
                           (None, 1), (None, None)]:
        assert fast(f32, axis, keepdims) is None


@pytest.mark.parametrize("call, want", [
    (lambda: nr.sum([1.0]), "npurt.sum: argument 'x': expected an npurt.ndarray, got list"),
    (lambda: nr.mean(None), "npurt.mean: argument 'x': expected an npurt.ndarray, got NoneType"),
    (lambda: nr.max(np.ones(2)), "npurt.max: argument 'x': expected an npurt.ndarray, got ndarray")])
def test_reduction_functions_name_themselves_for_a_non_array(call, want):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == want


@pytest.mark.parametrize("kind", KINDS)
def test_reduction_function_arguments_match_python_path(kind):
    x = nr.asarray(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    f, slow = getattr(nr, kind), reductions._PYTHON_PATH[kind]
    for axis, keepdims in [(5, False), (-3, True), ((0, 1), False), ((), True), (None, 1)]:
        assert outcome(lambda: f(x, axis=axis, keepdims=keepdims)) == outcome(lambda: slow(x, axis, keepdims, None))
    i = nr.asarray(np.arange(6, dtype=np.int16))
    assert outcome(lambda: f(i)) == outcome(lambda: slow(i, None, False, None))


def test_integer_sums_keep_numpy_accumulation():
    a = np.array([100, 100, 100], dtype=np.int8)
    x = nr.asarray(a)
    assert x.sum().dtype == nr.int64 and int(x.sum().numpy()) == 300
    assert x.max().dtype == nr.int8 and int(x.max().numpy()) == 100


def test_no_leaked_instances_at_exit():
    code = ("import numpy as np, npurt as nr\n"
            "x = nr.asarray(np.arange(16, dtype=np.float32))\n"
            "y = (x + x).sum() + x.mean(); z = x + 1.5; w = x.sum(axis=(0,)); nr.ops.add(x, x)\n"
            "assert float(y.numpy()) == 2 * 120 + 7.5\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "leaked" not in p.stderr, p.stderr
