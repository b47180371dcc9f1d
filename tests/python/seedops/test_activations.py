"""gelu (erf / tanh), silu, swiglu and their backward kernels against float64 references.

References are evaluated in float64 from the inputs already rounded to the dtype, with
cancellation-free formulas (erfc for gelu, x / (1 + exp(-t)) for the sigmoid forms);
-inf gives NaN for silu and gelu's tanh form (as in PyTorch), 0 for gelu's erf form.
Tolerance per element: |y - ref| <= RTOL * |ref| + ATOL, with
  float32:  RTOL 3e-5  (float math: exp/erfc of an argument t that itself carries a
                        relative rounding error of a few ulp: ~|t| * 3 * 2^-24, t <= ~90)
  float16:  RTOL 2^-10 (one rounding of the output, the float math is far below it)
  bfloat16: RTOL 2^-7
and ATOL = float16's smallest normal, 1e-35 otherwise (float math flushes the underflowing tails).
Gradients are sums of terms of both signs (Phi(x) + x phi(x) ...): their tolerance is
RTOL times the sum of the terms' magnitudes, the condition of that sum.
Backward kernels are also checked by central finite differences of the npurt forward
kernels (directional derivative, evaluated in float64 from float32 outputs).
"""
import math

import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
DTYPES = [F32, F16, BF16]
RTOL = {F32: 3e-5, F16: 2.0**-10, BF16: 2.0**-7}
ATOL = {F32: 1e-35, F16: 6.2e-5, BF16: 1e-35}
SIZES = [0, 1, 15, 33, 1023, (1 << 18) + 5]

_erfc = np.frompyfunc(math.erfc, 1, 1)
K = math.sqrt(2.0 / math.pi)


def erfc(x):
    return np.asarray(_erfc(x), dtype=np.float64)


def sigmoid(t):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-t))


def gelu_ref(x, approximate="none"):
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == "tanh":
            return x * sigmoid(2.0 * K * (x + 0.044715 * x**3))
        return np.where(x == -np.inf, 0.0, 0.5 * x * erfc(-x / math.sqrt(2.0)))  # the limit at -inf


def gelu_grad_ref(x, approximate="none"):
    """(value, sum of |terms|) of gelu'(x)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == "tanh":
            s = sigmoid(2.0 * K * (x + 0.044715 * x**3))
            t = x * 2.0 * s * (1.0 - s) * K * (1.0 + 3.0 * 0.044715 * x * x)
        else:
            s = 0.5 * erfc(-x / math.sqrt(2.0))
            t = x * np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
        return s + t, np.abs(s) + np.abs(t)


def silu_ref(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return x * sigmoid(x)


def silu_grad_ref(x):
    with np.errstate(over="ignore", invalid="ignore"):
        s = sigmoid(x)
        return s * (1.0 + x * (1.0 - s)), s * (1.0 + np.abs(x * (1.0 - s)))


def split(x):
    h = x.shape[-1] // 2
    return x[..., :h], x[..., h:]


def swiglu_ref(x):
    a, b = split(x)
    with np.errstate(invalid="ignore"):
        return silu_ref(a) * b


def swiglu_grad_ref(dy, x):
    """(value, magnitude) of dx."""
    a, b = split(x)
    g, m = silu_grad_ref(a)
    sa = silu_ref(a)
    return (np.concatenate([dy * b * g, dy * sa], axis=-1),
            np.concatenate([np.abs(dy * b) * m, np.abs(dy * sa)], axis=-1))


def assert_close(y, ref, dtype, scale=1.0, mag=None):
    """y (npurt result as numpy, dtype) vs float64 ref; NaN must match NaN, inf must match.
    `mag` (default |ref|) is what the relative tolerance applies to."""
    if isinstance(ref, tuple):
        ref, mag = ref
    mag = np.abs(ref) if mag is None else mag
    big = float(ml_dtypes.finfo(dtype).max) * (1.0 + RTOL[dtype])
    with np.errstate(invalid="ignore"):
        ref = np.where(np.abs(ref) > big, np.sign(ref) * np.inf, ref)  # overflows the dtype
    assert y.dtype == dtype and y.shape == ref.shape
    y64 = y.astype(np.float64)
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(y64), nan), f"NaN mismatch at {np.argwhere(np.isnan(y64) != nan)[:5]}"
    inf = np.isinf(ref)
    assert np.array_equal(y64[inf], ref[inf]), "inf mismatch"
    fin = ~nan & ~inf
    err = np.abs(y64[fin] - ref[fin])
    tol = scale * (RTOL[dtype] * mag[fin] + ATOL[dtype])
    bad = ~(err <= tol)
    assert not bad.any(), (f"{bad.sum()} of {bad.size} off; worst at x-index {np.flatnonzero(bad)[:3]}: "
                           f"got {y64[fin][bad][:3]} want {ref[fin][bad][:3]}")


def sample(shape, dtype, seed, scale=3.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(dtype)


def run(name, *arrays, **attrs):
    return getattr(nr.ops, name)(*[nr.asarray(a) for a in arrays], **attrs).numpy()


FORWARD = [("gelu", {}, gelu_ref), ("gelu", {"approximate": "tanh"}, lambda x: gelu_ref(x, "tanh")),
           ("silu", {}, silu_ref)]
FORWARD_IDS = ["gelu_erf", "gelu_tanh", "silu"]
BACKWARD = [("gelu_backward", {}, gelu_grad_ref),
            ("gelu_backward", {"approximate": "tanh"}, lambda x: gelu_grad_ref(x, "tanh")),
            ("silu_backward", {}, silu_grad_ref)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", FORWARD, ids=FORWARD_IDS)
def test_forward_sizes(op, n, dtype):
    name, attrs, ref = op
    x = sample((n,), dtype, n)
    assert_close(run(name, x, **attrs), ref(x.astype(np.float64)), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", FORWARD, ids=FORWARD_IDS)
def test_forward_0d_and_nd(op, dtype):
    name, attrs, ref = op
    x0 = np.array(-0.75, dtype)
    assert_close(run(name, x0, **attrs), ref(x0.astype(np.float64)), dtype)
    x = sample((3, 5, 7), dtype, 1)
    assert_close(run(name, x, **attrs), ref(x.astype(np.float64)), dtype)


def specials(dtype):
    big = {F32: 3.0e38, F16: 60000.0, BF16: 3.0e38}[dtype]
    v = [np.nan, np.inf, -np.inf, 0.0, -0.0, big, -big, 1e4, -1e4, 88.0, -88.0, 100.0, -100.0, 5.0, -5.0,
         12.0, -12.0, 1e-6, -1e-6, 1e-30, -1e-30]
    return np.array(v, np.float64).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", FORWARD, ids=FORWARD_IDS)
def test_forward_special_values(op, dtype):
    name, attrs, ref = op
    x = specials(dtype)
    y = run(name, x, **attrs)
    r = ref(x.astype(np.float64))
    assert_close(y, r, dtype)
    if attrs or name == "silu":
        assert np.isnan(y[2].astype(np.float64)), "-inf gives NaN (documented, as in PyTorch)"
    else:
        assert y[2] == 0, "gelu (erf form) gives its limit 0 at -inf"
    assert y[1] == np.inf


VIEWS = [lambda a: a[::3, 1::2], lambda a: a.T, lambda a: a[::-1, 5:38]]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", FORWARD, ids=FORWARD_IDS)
def test_forward_non_contiguous(op, dtype):
    name, attrs, ref = op
    base = sample((40, 66), dtype, 3)
    dev = nr.asarray(base)
    for view in VIEWS:
        y = getattr(nr.ops, name)(view(dev), **attrs).numpy()
        assert_close(y, ref(view(base).astype(np.float64)), dtype)


# ---- backward -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", BACKWARD, ids=FORWARD_IDS)
def test_backward_analytic(op, n, dtype):
    name, attrs, grad = op
    x = sample((n,), dtype, n + 1)
    dy = sample((n,), dtype, n + 2, scale=1.0)
    d64 = dy.astype(np.float64)
    g, m = grad(x.astype(np.float64))
    # dy * f'(x) in float: the product adds one float32 rounding
    assert_close(run(name, dy, x, **attrs), d64 * g, dtype, scale=1.5, mag=np.abs(d64) * m)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", BACKWARD, ids=FORWARD_IDS)
def test_backward_special_and_views(op, dtype):
    name, attrs, grad = op
    x = specials(dtype)
    dy = np.ones_like(x)
    assert_close(run(name, dy, x, **attrs), grad(x.astype(np.float64)), dtype, scale=1.5)
    base = sample((40, 66), dtype, 9)
    g = sample((66, 40), dtype, 10, scale=1.0)
    y = getattr(nr.ops, name)(nr.asarray(g), nr.asarray(base).T, **attrs).numpy()
    gr, m = grad(base.T.astype(np.float64))
    g64 = g.astype(np.float64)
    assert_close(y, g64 * gr, dtype, scale=1.5, mag=np.abs(g64) * m)


def directional_fd(forward, x, v, w, h=2.0**-7):
    """d/dt sum(w * forward(x + t v)) at t = 0 by a central difference of npurt's float32 forward."""
    plus = forward((x + h * v).astype(np.float32)).astype(np.float64)
    minus = forward((x - h * v).astype(np.float32)).astype(np.float64)
    return float(np.sum(w * (plus - minus)) / (2.0 * h))


FD_CASES = [("gelu", "gelu_backward", {}), ("gelu", "gelu_backward", {"approximate": "tanh"}),
            ("silu", "silu_backward", {}), ("swiglu", "swiglu_backward", {})]


@pytest.mark.parametrize("fwd,bwd,attrs", FD_CASES, ids=["gelu_erf", "gelu_tanh", "silu", "swiglu"])
def test_backward_matches_finite_differences(fwd, bwd, attrs):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((7, 38)) * 2.5).astype(np.float32)
    v = rng.standard_normal(x.shape)
    y_shape = (7, 19) if fwd == "swiglu" else x.shape
    w = rng.standard_normal(y_shape)
    forward = lambda a: run(fwd, a, **attrs)  # noqa: E731
    fd = directional_fd(forward, x.astype(np.float64), v, w)
    dx = run(bwd, w.astype(np.float32), x, **attrs).astype(np.float64)
    analytic = float(np.sum(dx * v))
    # truncation ~ h^2 |f'''| |v|^3 and float32 rounding of y over 2h, summed over 266 elements
    assert abs(fd - analytic) <= 2e-3 * (1.0 + abs(analytic)), (fd, analytic)


# ---- swiglu -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(0, 4), (2,), (1, 2), (3, 30), (5, 66), (4, 2046), (2, 3, 64), (513, 1024)])
def test_swiglu_forward_and_backward(shape, dtype):
    x = sample(shape, dtype, shape[-1])
    x64 = x.astype(np.float64)
    assert_close(run("swiglu", x), swiglu_ref(x64), dtype, scale=1.5)
    dy = sample(shape[:-1] + (shape[-1] // 2,), dtype, 3, scale=1.0)
    assert_close(run("swiglu_backward", dy, x), swiglu_grad_ref(dy.astype(np.float64), x64), dtype, scale=2.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_swiglu_non_contiguous_and_specials(dtype):
    base = sample((30, 52), dtype, 4)
    dev = nr.asarray(base)
    for view in (lambda a: a.T, lambda a: a[::2, 2:50], lambda a: a[::-1, ::-1]):
        xv = view(base).astype(np.float64)
        assert_close(nr.ops.swiglu(view(dev)).numpy(), swiglu_ref(xv), dtype, scale=1.5)
        dy = sample(xv.shape[:-1] + (xv.shape[-1] // 2,), dtype, 8, scale=1.0)
        got = nr.ops.swiglu_backward(nr.asarray(dy), view(dev)).numpy()
        assert_close(got, swiglu_grad_ref(dy.astype(np.float64), xv), dtype, scale=2.0)
    s = specials(dtype)
    x = np.stack([s, s[::-1]], axis=0).reshape(1, -1)
    assert_close(run("swiglu", x), swiglu_ref(x.astype(np.float64)), dtype, scale=1.5)


def test_kernels_clean_under_full_checks():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((33, 70)).astype(np.float32)
    dy = rng.standard_normal((33, 35)).astype(np.float32)
    with nr.debug.sim_check_level("full"):
        assert_close(run("gelu", x), gelu_ref(x.astype(np.float64)), F32)
        assert_close(run("gelu", x, approximate="tanh"), gelu_ref(x.astype(np.float64), "tanh"), F32)
        assert_close(run("silu", x.T.copy()), silu_ref(x.T.astype(np.float64)), F32)
        g, m = gelu_grad_ref(x.astype(np.float64))
        assert_close(run("gelu_backward", x, x), x * g, F32, 1.5, np.abs(x) * m)
        g, m = silu_grad_ref(x.astype(np.float64))
        assert_close(run("silu_backward", x, x), x * g, F32, 1.5, np.abs(x) * m)
        assert_close(run("swiglu", x), swiglu_ref(x.astype(np.float64)), F32, 1.5)
        assert_close(run("swiglu_backward", dy, x), swiglu_grad_ref(dy.astype(np.float64), x.astype(np.float64)),
                     F32, 2.0)
        xh = x.astype(np.float16)
        assert_close(run("swiglu_backward", dy.astype(np.float16), xh),
                     swiglu_grad_ref(dy.astype(np.float16).astype(np.float64), xh.astype(np.float64)), F16, 2.0)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_widened_multi_input_forms_clean_under_full_checks(dtype):
    """The 16-bit paths of the two- and three-input vector forms (dy and x, or a and b, Cast to
    float in UB scratch tiles) at an odd size, with a transposed view, at NPURT_SIM_CHECK=full."""
    x = sample((1023,), dtype, 21)
    dy = sample((1023,), dtype, 22, scale=1.0)
    x64, d64 = x.astype(np.float64), dy.astype(np.float64)
    xt = sample((66, 34), dtype, 23)
    with nr.debug.sim_check_level("full"):
        for name, attrs, grad in BACKWARD:
            g, m = grad(x64)
            assert_close(run(name, dy, x, **attrs), d64 * g, dtype, 1.5, np.abs(d64) * m)
        assert_close(nr.ops.swiglu(nr.asarray(xt).T).numpy(), swiglu_ref(xt.T.astype(np.float64)), dtype, 1.5)
        dys = sample((17, 33), dtype, 24, scale=1.0)
        xs = sample((17, 66), dtype, 25)
        assert_close(run("swiglu_backward", dys, xs),
                     swiglu_grad_ref(dys.astype(np.float64), xs.astype(np.float64)), dtype, 2.0)


@pytest.mark.parametrize("name", ["gelu", "gelu_backward", "silu", "silu_backward", "swiglu", "swiglu_backward"])
def test_every_activation_runs_on_the_vector_unit(name):
    """No activation is declared sim-only any more: the ascend backend may run every dtype."""
    doc = getattr(nr.ops, name).__doc__
    assert "float16" in doc and "sim-only" not in doc, doc


# ---- errors -----------------------------------------------------------------------------

def still_usable():
    host = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(nr.asarray(host).numpy(), host)


@pytest.mark.parametrize("call,fragments", [
    (lambda: nr.ops.gelu(nr.ones(4), approximate="fast"), ["gelu", "approximate", "'none' or 'tanh'"]),
    (lambda: nr.ops.gelu_backward(nr.ones(4), nr.ones(4), approximate="x"), ["gelu_backward", "approximate"]),
    (lambda: nr.ops.swiglu(nr.ones((2, 5))), ["swiglu", "'x'", "must be even"]),
    (lambda: nr.ops.swiglu(nr.asarray(np.float32(1.0))), ["swiglu", "'x'", "0-d"]),
    (lambda: nr.ops.swiglu_backward(nr.ones((2, 3)), nr.ones((2, 4))), ["swiglu_backward", "'dy'", "halved"]),
    (lambda: nr.ops.silu_backward(nr.ones(3), nr.ones(4)), ["silu_backward", "'dy'", "shape"]),
    (lambda: nr.ops.gelu_backward(nr.ones(3, dtype=nr.float16), nr.ones(3)), ["gelu_backward", "'dy'", "dtype"]),
    (lambda: nr.ops.silu(nr.ones(3, dtype=nr.int32)), ["silu", "'x'"]),
])
def test_bad_input_raises_clearly(call, fragments):
    with pytest.raises(ValueError) as info:
        call()
    for f in fragments:
        assert f in str(info.value), (f, str(info.value))
    still_usable()
