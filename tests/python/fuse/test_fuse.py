"""nr.fuse against numpy (the reference, in tests only) and against the unfused
npurt expression: many expressions over float32 / float16 / bfloat16, sizes
0-d, 0, 1, 15, 33, 1023, 2-D, 16 Mi; Python scalars (constants and
arguments), broadcasting, non-contiguous views; the fused path is asserted
taken (f.explain); fallbacks, errors, caching, graph capture, and the op
`fused_elementwise` called directly with a hand-written program.

Tolerances: the fused kernel computes in float32 and rounds once at the end.
float32: rtol 1e-5, atol 1e-6 for + - * / exp log sqrt (vector unit within
2 ulp); tanh/sin/cos (vector compositions, fused_math.h) rtol 2e-5 atol 2e-6;
x ** non-integer (exp(e * ln x)) rtol 1e-5 * (1 + |e ln x|). 16-bit outputs
are compared with numpy's float32 evaluation rounded to the output dtype:
float16 rtol 2e-3, bfloat16 rtol 1.6e-2 (2 ulp), atol scaled the same.
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
TOL = {np.dtype(np.float32): (1e-5, 1e-6), np.dtype(np.float16): (2e-3, 2e-3), BF16: (1.6e-2, 1.6e-2)}
SHAPES = [(), (0,), (1,), (15,), (33,), (1023,), (3, 11)]


def rand(shape, dtype, seed=0, lo=-3.0, hi=3.0):
    return np.random.default_rng(seed).uniform(lo, hi, size=shape).astype(dtype)


def ref(fn, *args, out_dtype):
    """numpy in float32 (the fused kernel's arithmetic), rounded to the output dtype."""
    wide = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args]
    with np.errstate(all="ignore"):
        return np.asarray(fn(np, *wide), dtype=np.float32).astype(out_dtype)


def check(got, want, scale=1.0):
    got = got.numpy() if isinstance(got, nr.ndarray) else got
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    rtol, atol = TOL[want.dtype]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol * scale,
                               atol=atol * scale, equal_nan=True)


# name -> (expression over a namespace m, number of array inputs, accuracy scale, input range)
EXPRS = {
    "axpy": (lambda m, a, x, y: a * x + y, 3, 1, (-3, 3)),
    "poly": (lambda m, x: 3.0 * x * x - 2 * x + 0.5, 1, 4, (-3, 3)),
    "rsub_rdiv": (lambda m, x, y: (1.5 - x) / (2.0 + y * y), 2, 2, (-3, 3)),
    "neg_abs": (lambda m, x: -m.abs(x) + abs(x * 0.25), 1, 1, (-3, 3)),
    "exp_log": (lambda m, x: m.log(m.exp(x) + 1.0), 1, 2, (-3, 3)),
    "sqrt": (lambda m, x, y: m.sqrt(x * x + y * y), 2, 1, (-3, 3)),
    "maxmin": (lambda m, x, y: m.minimum(m.maximum(x, y), 1.5) + m.maximum(0.0, x), 2, 1, (-3, 3)),
    "relu_where": (lambda m, x: m.where(x > 0, x, 0.1 * x), 1, 1, (-3, 3)),
    "where2": (lambda m, x, y: m.where(x <= y, x - y, y * 2), 2, 1, (-3, 3)),
    "cmp_arith": (lambda m, x, y: m.where(x == m.maximum(x, y), x, 0.0) + m.where(x != 0.5, x, y), 2, 1, (-3, 3)),
    "tanh": (lambda m, x: m.tanh(x), 1, 2, (-12, 12)),
    "sincos": (lambda m, x: m.sin(x) * 2 - m.cos(x), 1, 4, (-40, 40)),
    "gelu": (lambda m, x: 0.5 * x * (1.0 + m.tanh(0.7978845608 * (x + 0.044715 * x ** 3))), 1, 4, (-6, 6)),
    "powers": (lambda m, x: x ** 2 - x ** 3 + x ** -2 + x ** 0, 1, 8, (0.5, 2)),
    "pow_frac": (lambda m, x: x ** 1.5 + x ** 0.5, 1, 4, (0.1, 9)),
}


def fused_and_numpy(name):
    fn, n, scale, rng = EXPRS[name]
    return nr.fuse(lambda *a: fn(nr, *a)), fn, n, scale, rng


@pytest.mark.parametrize("name", list(EXPRS))
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_expressions_match_numpy(name, dtype):
    f, fn, n, scale, rng = fused_and_numpy(name)
    for shape in SHAPES:
        hs = [rand(shape, dtype, seed=i, lo=rng[0], hi=rng[1]) for i in range(n)]
        xs = [nr.asarray(h) for h in hs]
        assert f.explain(*xs).startswith("fused"), f.explain(*xs)
        got = f(*xs)
        check(got, ref(fn, *hs, out_dtype=dtype), scale)


@pytest.mark.parametrize("name", ["axpy", "gelu", "where2", "sincos"])
def test_fused_equals_the_unfused_expression(name):
    f, fn, n, scale, rng = fused_and_numpy(name)
    xs = [nr.asarray(rand((1023,), np.float32, seed=i, lo=rng[0], hi=rng[1])) for i in range(n)]
    check(f(*xs), f.__wrapped__(*xs).numpy(), scale)


def test_large_axpy_16mi():
    n = 16 * 1024 * 1024
    a, x, y = (rand((n,), np.float32, seed=i) for i in range(3))
    f = nr.fuse(lambda a, x, y: a * x + y)
    check(f(nr.asarray(a), nr.asarray(x), nr.asarray(y)), ref(lambda m, a, x, y: a * x + y, a, x, y,
                                                              out_dtype=np.float32))


def test_scalar_arguments_are_patched_not_retraced():
    traces = []

    @nr.fuse
    def axpb(a, x, b):
        traces.append(1)
        return a * x + b - a

    x = rand((33,), np.float32)
    for a, b in [(2.5, -1.0), (-0.125, 7.0), (3.0, 0.5), (3, 0.5)]:
        check(axpb(a, nr.asarray(x), b), (np.float32(a) * x + np.float32(b) - np.float32(a)).astype(np.float32))
    assert len(traces) == 2          # float/int kinds of `a` trace separately; values do not
    check(axpb(2.0, nr.asarray(x.astype(np.float16)), 1.0), (2 * x.astype(np.float16) - 1).astype(np.float16))


def test_scalar_constants_round_to_the_array_dtype_like_unfused():
    x = nr.asarray(np.linspace(-2, 2, 33, dtype=np.float16))
    f = nr.fuse(lambda x: x * 0.1)
    np.testing.assert_array_equal(f(x).numpy(), (x * 0.1).numpy())  # one correctly rounded multiply either way


def test_dtype_promotion_like_unfused():
    f = nr.fuse(lambda x, y: x * 2 + y)
    h16, h32 = rand((15,), np.float16), rand((15,), np.float32, seed=1)
    got = f(nr.asarray(h16), nr.asarray(h32))
    assert got.dtype == nr.float32 == (nr.asarray(h16) * 2 + nr.asarray(h32)).dtype
    check(got, h16.astype(np.float32) * 2 + h32)
    g = nr.fuse(lambda x: (x * 3).astype(nr.float16) + x)
    out = g(nr.asarray(h32))
    assert out.dtype == nr.float32
    check(out, (h32 * 3).astype(np.float16).astype(np.float32) + h32)


def test_broadcasting_and_zero_d():
    f = nr.fuse(lambda a, x, y: a * x + y)
    a, x, y = rand((), np.float32), rand((7, 1), np.float32, 1), rand((1, 33), np.float32, 2)
    got = f(nr.asarray(a), nr.asarray(x), nr.asarray(y))
    assert f.explain(nr.asarray(a), nr.asarray(x), nr.asarray(y)).startswith("fused")
    check(got, a * x + y)
    g = nr.fuse(lambda x: x ** 0)     # a constant keeps its input's shape
    check(g(nr.asarray(x)), np.ones((7, 1), np.float32))


def test_non_contiguous_inputs():
    f = nr.fuse(lambda x, y, z: nr.exp(x) * y - z)
    hx, hy, hz = rand((40, 33), np.float32), rand((33, 40), np.float32, 1), rand((80, 66), np.float32, 2)
    x = nr.asarray(hx)[::-1]
    y = nr.asarray(hy).T
    z = nr.asarray(hz)[::2, 1::2]
    check(f(x, y, z), ref(lambda m, x, y, z: m.exp(x) * y - z, hx[::-1], hy.T, hz[::2, 1::2],
                          out_dtype=np.float32))


def test_special_values():
    h = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 88.0, -88.0, 1e30], np.float32)
    f = nr.fuse(lambda x: nr.where(x > 1.0, nr.tanh(x), x * 2) + nr.maximum(x, -1.0))
    check(f(nr.asarray(h)), ref(lambda m, x: m.where(x > 1.0, m.tanh(x), x * 2) + m.maximum(x, -1.0), h,
                                out_dtype=np.float32))
    t = nr.fuse(lambda x: nr.tanh(x))(nr.asarray(h)).numpy()
    check(t, np.tanh(h))
    real = ~np.isnan(h)  # tanh(-0) = -0 (the standard; the polynomial branch once gave +0)
    assert np.array_equal(np.signbit(t[real]), np.signbit(np.tanh(h[real])))


def test_identity_and_unused_arguments():
    h = rand((15,), np.float32)
    assert np.array_equal(nr.fuse(lambda x: x)(nr.asarray(h)).numpy(), h)
    check(nr.fuse(lambda x, s: x + 1)(nr.asarray(h), 3.0), h + 1)


def test_fallbacks_run_unfused():
    ints = nr.asarray(np.arange(10, dtype=np.int32))
    f = nr.fuse(lambda x: x * 3 + 1)
    assert f.explain(ints).startswith("unfused")
    np.testing.assert_array_equal(f(ints).numpy(), np.arange(10) * 3 + 1)
    x = nr.asarray(rand((15,), np.float32))
    cmp = nr.fuse(lambda x: x > 0)
    assert "bool" in cmp.explain(x)
    np.testing.assert_array_equal(cmp(x).numpy(), x.numpy() > 0)
    many = nr.fuse(lambda a, b, c, d, e: a + b + c + d + e)
    assert "5 array inputs" in many.explain(x, x, x, x, x)
    check(many(x, x, x, x, x), x.numpy() * 5)


def test_unsupported_operations_raise_type_error_naming_them():
    x = nr.asarray(rand((15,), np.float32))
    cases = [(lambda x: nr.sum(x), "npurt.sum"), (lambda x: x // 2, "//"), (lambda x: x % 2, "%"),
             (lambda x: x if x else x, "bool(x)"), (lambda x: x[0] + 1, "indexing"),
             (lambda x: x ** x, "exponent"), (lambda x: (x, x), "tuple")]
    for fn, word in cases:
        with pytest.raises(TypeError, match=word.replace("(", r"\(").replace(")", r"\)")):
            nr.fuse(fn)(x)
    check(nr.fuse(lambda x: x + 1)(x), x.numpy() + 1)  # the runtime stays usable


def test_shape_mismatch_is_the_unfused_error():
    f = nr.fuse(lambda x, y: x * y + 1)
    x, y = nr.asarray(rand((3,), np.float32)), nr.asarray(rand((4,), np.float32))
    with pytest.raises(ValueError) as fused:
        f(x, y)
    with pytest.raises(ValueError) as unfused:
        x * y + 1
    # the unfused expression's message, prefixed with the fused function the user called
    assert str(fused.value) == "npurt.fuse(<lambda>): " + str(unfused.value)
    check(f(x, x), x.numpy() ** 2 + 1)


def test_nested_fused_functions_inline():
    inner = nr.fuse(lambda x: x * x)
    outer = nr.fuse(lambda x, y: inner(x) + inner(y))
    hx, hy = rand((33,), np.float32), rand((33,), np.float32, 1)
    assert outer.explain(nr.asarray(hx), nr.asarray(hy)).startswith("fused: 2 inputs, 3 instructions")
    check(outer(nr.asarray(hx), nr.asarray(hy)), hx * hx + hy * hy)


def test_graph_capture_of_a_fused_call():
    f = nr.fuse(lambda a, x, y: a * x + y)
    hx, hy = rand((1023,), np.float32), rand((1023,), np.float32, 1)
    x, y = nr.asarray(hx), nr.asarray(hy)
    f(2.0, x, y)                      # trace outside the capture
    g = nr.Graph()
    with g.capture():
        z = f(2.0, x, y)
    g.replay()
    nr.synchronize()
    check(z, 2 * hx + hy)


def test_the_op_with_a_hand_written_program():
    # y = exp(x0) * x1 + 1: [version, inputs, regs, result, n] + (op, dst, a, b, c)...
    one = int(np.float32(1.0).view(np.int32))
    prog = [1, 2, 1, 2, 3, 12, 2, 0, 0, 0, 3, 2, 2, 1, 0, 7, 2, 2, one, 0]
    hx, hy = rand((33,), np.float32), rand((33,), np.float16, 1)
    got = nr.ops.fused_elementwise(nr.asarray(hx), nr.asarray(hy), program=prog, dtype=nr.float16)
    check(got, (np.exp(hx) * hy.astype(np.float32) + 1).astype(np.float16))
    bad = {"unknown opcode": [1, 1, 1, 1, 1, 99, 1, 0, 0, 0],
           "before any write": [1, 1, 2, 1, 1, 1, 1, 0, 2, 0],
           "not a temporary": [1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
           "were given": [1, 2, 1, 2, 1, 12, 2, 0, 0, 0],
           "expected": [1, 1, 1, 1, 2, 12, 1, 0, 0, 0]}
    for word, p in bad.items():
        with pytest.raises(ValueError, match=f"argument 'program'.*{word}"):
            nr.ops.fused_elementwise(nr.asarray(hx), program=p, dtype=nr.float32)
    with pytest.raises(nr.UnsupportedDtypeError, match="argument 'dtype'"):
        nr.ops.fused_elementwise(nr.asarray(hx), program=[1, 1, 1, 1, 1, 12, 1, 0, 0, 0], dtype=nr.int32)


def test_one_kernel_launch_per_call():
    f = nr.fuse(lambda a, x, y: nr.exp(a * x + y) - x)
    x, y = nr.asarray(rand((1023,), np.float32)), nr.asarray(rand((1023,), np.float32, 1))
    f(2.0, x, y)
    nr.synchronize()
    with nr.profile() as p:
        f(2.0, x, y)
        nr.synchronize()
    kernels = [a.name for a in p.result.activities if a.kind == "kernel"]
    assert kernels == ["fused_elementwise"]
    with nr.profile() as p:
        f.__wrapped__(2.0, x, y)
        nr.synchronize()
    assert len([a for a in p.result.activities if a.kind == "kernel"]) >= 3   # unfused: one per operation
