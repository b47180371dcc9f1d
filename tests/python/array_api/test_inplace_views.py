"""In-place operators whose left operand is a strided view (x[:, 1] *= 2, x[::2] += y,
x.T -= 1, v @= w): the result must land in the viewed base, exactly as numpy's, for
every operator family and the dtypes it takes; the dtype/shape rule and the error's
operator name are the same as for contiguous arrays (issue 5: "in-place ops on views")."""
import operator

import numpy as np
import pytest

import npurt as nr
from test_elementwise import rand

INPLACE = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
           "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand,
           "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift}
INT_ONLY = {"&=", "|=", "^=", "<<=", ">>="}
VIEWS = {"column": (slice(None), 1), "step rows": (slice(None, None, 2),),
         "reversed, stepped": (slice(None, None, -1), slice(1, 6, 2)), "element": (1, 2),
         "ellipsis block": (Ellipsis, slice(2, 4))}
CASES = [(sym, dtype) for sym in INPLACE for dtype in ("float32", "int32", "uint8")
         if not (sym in INT_ONLY and dtype == "float32") and not (sym == "/=" and dtype != "float32")]


def _operand(sym, shape, dtype):
    b = rand(shape, dtype, 7)
    if sym in ("//=", "%="):
        b = np.where(b == 0, 3, b).astype(dtype)
    if sym in ("<<=", ">>=", "**="):
        b = (np.abs(b) % 3).astype(dtype)
    return b


@pytest.mark.parametrize("view", VIEWS, ids=str)
@pytest.mark.parametrize("sym, dtype", CASES, ids=str)
def test_inplace_on_view_writes_base(sym, dtype, view):
    f, idx, dtype = INPLACE[sym], VIEWS[view], np.dtype(dtype)
    a = rand((4, 6), dtype, 1)
    if sym == "**=":
        a = (np.abs(a) % 4).astype(dtype)
    b = _operand(sym, a[idx].shape, dtype)
    want = a.copy()
    sub = want[idx]
    with np.errstate(over="ignore"):  # uint8 wraps, in numpy as on the device
        want[idx] = f(sub, b) if sub.ndim else f(sub, b[()])
    x = nr.asarray(a)
    v = x[idx]
    assert f(v, nr.asarray(b)) is v  # the view itself is returned
    got = np.asarray(x)
    if dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


def test_inplace_on_view_statement_forms():
    a = rand((5, 4), np.float32, 2)
    x = nr.asarray(a)
    x[:, 1] *= 2.0                  # __setitem__ after __imul__ of the view: written once more, same values
    x[1:, :2] += nr.asarray(np.ones((4, 2), np.float32))
    t = x.T
    t -= 0.5
    want = a.copy()
    want[:, 1] *= 2.0
    want[1:, :2] += 1
    want -= 0.5
    np.testing.assert_array_equal(np.asarray(x), want)


def test_imatmul_on_view():
    a = rand((3, 6), np.float32, 3)
    w = rand((4, 4), np.float32, 4)
    x = nr.asarray(a)
    v = x[:, 1:5]
    v @= nr.asarray(w)
    want = a.copy()
    want[:, 1:5] = want[:, 1:5] @ w
    np.testing.assert_allclose(np.asarray(x), want, rtol=1e-5, atol=1e-5)


def test_inplace_on_view_rules():
    x = nr.asarray(np.arange(6, dtype=np.int32))
    v = x[::2]
    with pytest.raises(TypeError, match=r"__iadd__: the result \(float32\[3\]\) cannot be stored"):
        v += 1.5
    with pytest.raises(TypeError, match=r"npurt\.ndarray\.__imul__: .*cannot be stored"):
        v *= nr.asarray(np.ones((2, 3), np.int32))
    np.testing.assert_array_equal(np.asarray(x), np.arange(6, dtype=np.int32))  # untouched
