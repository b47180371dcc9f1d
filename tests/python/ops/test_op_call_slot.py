"""nr.ops.<op>(x, y): the OpFunction call slot (sdk_python/bindings/ops_bindings.cpp).

Calls whose inputs are all positional exact ndarrays, without keywords, skip
nanobind's argument dispatch; every other form runs the generic __call__. Both
must give the same results (checked against numpy) and the same errors, so each
case is run in the fast form and in an equivalent keyword form.
"""
import inspect

import numpy as np
import pytest

import npurt as nr

SIZES = [0, 1, 15, 33, 1023]


def outcome(fn):
    """(values, dtype) of fn()'s result, or (exception type, message)."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return type(e), str(e)
    assert type(r) is nr.ndarray
    return r.numpy(), r.dtype


def same(a, b):
    if isinstance(a[0], np.ndarray):
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1] == b[1]
    else:
        assert a == b


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_fast_form_matches_numpy_and_keyword_form(n, dtype):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 50).astype(dtype)
    b = (rng.standard_normal(n) * 50).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    for op, ref in ((nr.ops.add, np.add), (nr.ops.mul, np.multiply), (nr.ops.subtract, np.subtract)):
        fast = outcome(lambda: op(x, y))
        np.testing.assert_array_equal(fast[0], ref(a, b))
        n0, n1 = list(inspect.signature(op).parameters)[:2]  # the inputs' names
        same(fast, outcome(lambda: op(x, **{n1: y})))
        same(fast, outcome(lambda: op(**{n0: x, n1: y})))


def test_zero_d_views_and_unary_ops():
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    x = nr.asarray(a)
    np.testing.assert_array_equal(nr.ops.add(x[::2, 1::3], x[1::2, ::3]).numpy(), a[::2, 1::3] + a[1::2, ::3])
    s = nr.asarray(np.float32(2.5))
    r = nr.ops.mul(s, s)
    assert r.shape == () and r.numpy() == np.float32(6.25)
    np.testing.assert_allclose(nr.ops.exp(x).numpy(), np.exp(a), rtol=2e-6)  # one input
    same(outcome(lambda: nr.ops.exp(x)), outcome(lambda: nr.ops.exp(x=x)))


def test_result_is_a_new_array_each_call():
    x = nr.asarray(np.ones(16, np.float32))
    r1, r2 = nr.ops.add(x, x), nr.ops.add(x, x)
    assert r1 is not r2 and r1 is not x
    r1 += 1
    np.testing.assert_array_equal(r2.numpy(), np.full(16, 2, np.float32))


@pytest.mark.parametrize(
    "args",
    [
        lambda x, i, s: (x, s),  # shape mismatch
        lambda x, i, s: (x, i),  # dtype mismatch
        lambda x, i, s: (x, 1.0),  # not an array
        lambda x, i, s: (x, None),  # missing input
        lambda x, i, s: (x,),  # too few
        lambda x, i, s: (x, x, x),  # too many
        lambda x, i, s: (np.ones(16, np.float32), x),  # host array
    ],
)
def test_errors_equal_the_generic_path(args):
    x = nr.asarray(np.ones(16, np.float32))
    i = nr.asarray(np.ones(16, np.int32))
    s = nr.asarray(np.ones(3, np.float32))
    a = args(x, i, s)
    fast = outcome(lambda: nr.ops.add(*a))
    assert isinstance(fast[0], type) and issubclass(fast[0], Exception), fast
    assert "npurt.ops.add" in fast[1]
    if len(a) == 2:  # the same call by keywords goes through __call__ (nanobind)
        assert outcome(lambda: nr.ops.add(a[0], y=a[1])) == fast
    # the runtime stays usable after the error
    np.testing.assert_array_equal(nr.ops.add(x, x).numpy(), np.full(16, 2, np.float32))


def test_other_forms_still_work():
    a = np.arange(16, dtype=np.float32)
    x = nr.asarray(a)
    out = nr.empty((16,), dtype=nr.float32)
    assert nr.ops.add(x, x, out=out) is out
    np.testing.assert_array_equal(out.numpy(), a + a)
    stream = nr.Stream()
    r = nr.ops.add(x, x, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(r.numpy(), a + a)
    np.testing.assert_array_equal(nr.ops.cast(x, dtype=nr.float16).numpy(), a.astype(np.float16))  # attribute
    np.testing.assert_array_equal(nr.ops.fill(shape=(3,), dtype=nr.int32, value=7).numpy(), [7, 7, 7])  # no input
    # __call__ called explicitly (not through the slot) is the generic path
    assert nr.ops.add.__class__.__call__(nr.ops.add, x, x).numpy().tolist() == (a + a).tolist()


def generic(op, *args, **kwargs):
    """The op called through the generic __call__ (not the tp_call slot)."""
    return op.__class__.__call__(op, *args, **kwargs)


@pytest.mark.parametrize("name", ["add", "mul", "subtract"])
@pytest.mark.parametrize("n", [1, 16, 1023])
def test_out_keyword_fast_form_writes_and_returns_out(name, n):
    a = np.linspace(-2, 2, n, dtype=np.float32)
    x, y = nr.asarray(a), nr.asarray(a[::-1].copy())
    op = getattr(nr.ops, name)
    out = nr.empty((n,), dtype=nr.float32)
    assert op(x, y, out=out) is out
    ref = nr.empty((n,), dtype=nr.float32)
    assert generic(op, x, y, out=ref) is ref
    np.testing.assert_array_equal(out.numpy(), ref.numpy())


def test_out_keyword_errors_equal_the_generic_path():
    x = nr.asarray(np.ones(16, np.float32))

    def err(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            return type(e), str(e)
        return None

    view = nr.empty((32,), dtype=nr.float32)[::2]
    for bad in (nr.empty((15,), dtype=nr.float32), nr.empty((16,), dtype=nr.int32), view):
        fast, slow = err(lambda: nr.ops.add(x, x, out=bad)), err(lambda: generic(nr.ops.add, x, x, out=bad))
        assert fast == slow
        if fast is not None:
            assert "npurt.ops.add" in fast[1] and "out" in fast[1]
    # forms the fast path leaves to the generic one: out=None, out= with another keyword, a host array
    np.testing.assert_array_equal(nr.ops.add(x, x, out=None).numpy(), np.full(16, 2, np.float32))
    o = nr.empty((16,), dtype=nr.float32)
    assert nr.ops.add(x, x, out=o, stream=nr.current_stream()) is o
    assert err(lambda: nr.ops.add(x, x, out=np.zeros(16, np.float32))) == \
        err(lambda: generic(nr.ops.add, x, x, out=np.zeros(16, np.float32)))
    # an op with attributes and out=: the generic path
    h = nr.empty((16,), dtype=nr.float16)
    assert nr.ops.cast(x, dtype=nr.float16, out=h) is h
    np.testing.assert_array_equal(h.numpy(), np.ones(16, np.float16))
