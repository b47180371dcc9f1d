"""Deferred elementwise fusion of nr.ndarray operators (npurt::array::binary, npurt/array_ops.h).

Every chain runs with the switch on and off: the results must be bit-identical to each other and
to numpy's float32 (each op rounds once in both), fusion must happen exactly for temporaries of at
least the threshold, and nothing a user can do (read the intermediate, write an input, export it,
fail the second op, use threads) may see anything but eager results.
"""
import concurrent.futures
import os
import subprocess
import sys

import numpy as np
import pytest

import npurt as nr

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's overflow/NaN warnings on the specials
THR = 1 << 18  # runtime/ops/deferred_fusion.h kDeferMinElements
F32 = np.float32


def _count():
    return nr._npurt._deferred_fusion_count()


@pytest.fixture(params=[True, False], ids=["defer-on", "defer-off"])
def defer(request):
    was = nr.deferred_fusion_enabled()
    nr.set_deferred_fusion(request.param)
    yield request.param
    nr.set_deferred_fusion(was)


def _data(n, seed):
    v = np.random.default_rng(seed).standard_normal(n).astype(F32)
    v[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3.4e38]  # zeros, specials, subnormals, near max
    return v


CHAINS = {
    "a*2+b": (lambda a, b, c: a * 2 + b, lambda a, b, c: a * F32(2) + b),
    "a*x+y": (lambda a, b, c: a * b + c, lambda a, b, c: a * b + c),
    "(a+b)*c": (lambda a, b, c: (a + b) * c, lambda a, b, c: (a + b) * c),
    "x-y*2": (lambda a, b, c: a - b * 2, lambda a, b, c: a - b * F32(2)),
    "2.5*a-b": (lambda a, b, c: 2.5 * a - b, lambda a, b, c: F32(2.5) * a - b),
    # Python scalars become constants of the fused program (Muls / Adds; x - c as Adds(-c)) ...
    "a*0.1+b": (lambda a, b, c: a * 0.1 + b, lambda a, b, c: a * F32(0.1) + b),
    "a-0.3+b": (lambda a, b, c: a - 0.3 + b, lambda a, b, c: a - F32(0.3) + b),
    "b*(a+7)": (lambda a, b, c: b * (a + 7), lambda a, b, c: b * (a + F32(7))),
    "a*-0.0+b": (lambda a, b, c: a * -0.0 + b, lambda a, b, c: a * F32(-0.0) + b),
    # ... except c - x, which reads the 0-d array
    "0.3-a-b": (lambda a, b, c: 0.3 - a - b, lambda a, b, c: F32(0.3) - a - b),
}


def _same(got, want):
    """Bitwise equal (signed zeros included), NaN where numpy has NaN."""
    nan = np.isnan(want)
    return got.dtype == want.dtype and np.array_equal(np.isnan(got), nan) and \
        np.array_equal(got.view(np.uint32)[~nan], want.view(np.uint32)[~nan])


@pytest.mark.parametrize("n", [THR - 1, THR, THR + 33, 4 * THR + 15])
@pytest.mark.parametrize("chain", list(CHAINS))
def test_chains_bit_identical(defer, n, chain):
    f_nr, f_np = CHAINS[chain]
    an, bn, cn = _data(n, 1), _data(n, 2), _data(n, 3)
    a, b, c = nr.asarray(an), nr.asarray(bn), nr.asarray(cn)
    before = _count()
    got = np.asarray(f_nr(a, b, c))
    assert _count() - before == (1 if defer and n >= THR else 0)
    with np.errstate(all="ignore"):
        want = f_np(an, bn, cn)
    assert _same(got, want)


def test_non_contiguous_and_broadcast(defer):
    rows, cols = 512, 1024  # 2 * THR outputs
    wide = _data(rows * 2 * cols, 4).reshape(rows, 2 * cols)
    coln, rown, fulln = _data(rows, 5).reshape(rows, 1), _data(cols, 6), _data(rows * cols, 7).reshape(rows, cols)
    s, col, row, full = nr.asarray(wide)[:, 1::2], nr.asarray(coln), nr.asarray(rown), nr.asarray(fulln)
    before = _count()
    got1 = np.asarray(s * col + full)
    got2 = np.asarray(full * row - col)
    got3 = np.asarray(col * row + s)  # the deferred op itself broadcasts
    assert _count() - before == (3 if defer else 0)
    with np.errstate(all="ignore"):
        assert _same(got1, wide[:, 1::2] * coln + fulln)
        assert _same(got2, fulln * rown - coln)
        assert _same(got3, coln * rown + wide[:, 1::2])


def test_named_intermediate_stays_readable(defer):
    an, bn = _data(THR + 5, 8), _data(THR + 5, 9)
    a, b = nr.asarray(an), nr.asarray(bn)
    before = _count()
    t = a * 2
    u = t + b
    assert _count() == before  # t has a name: not fused
    assert _same(np.asarray(t), an * F32(2))
    assert _same(np.asarray(u), an * F32(2) + bn)
    v = a * 2
    w = [v]  # another reference
    r = w[0] + b
    assert _same(np.asarray(w[0]), an * F32(2)) and _same(np.asarray(r), an * F32(2) + bn)


def test_only_reference_held_by_foreign_c_code_is_not_fused_away(defer):
    # ctypes calls PyNumber_Add from libffi with an array whose only reference is the py_object
    # box (refcount 1), then the box still reads it: like a C extension owning a temporary. The
    # stack walk (sdk_python/bindings/temporary_check.h) must refuse to treat it as expiring.
    import ctypes
    add = ctypes.pythonapi.PyNumber_Add
    add.restype, add.argtypes = ctypes.py_object, [ctypes.py_object, ctypes.py_object]
    an, bn = _data(THR + 3, 30), _data(THR + 3, 31)
    a, b = nr.asarray(an), nr.asarray(bn)
    before = _count()
    box = ctypes.py_object(a * 2)
    r = add(box, b)
    assert _count() == before
    assert _same(np.asarray(box.value), an * F32(2)) and _same(np.asarray(r), an * F32(2) + bn)


def test_inplace_write_after_deferral(defer):
    an = _data(THR, 10)
    a = nr.asarray(an)
    t = a * 2
    a += 1
    assert _same(np.asarray(t), an * F32(2))
    assert _same(np.asarray(a), an + F32(1))
    t2 = a * 3
    a[...] = 0  # a host write into an input
    assert _same(np.asarray(t2), (an + F32(1)) * F32(3))


def test_dlpack_and_asarray_of_deferred_results(defer):
    an, bn = _data(THR, 11), _data(THR, 12)
    a, b = nr.asarray(an), nr.asarray(bn)
    assert _same(np.from_dlpack(a * 2), an * F32(2))
    t = a * b
    assert _same(np.from_dlpack(t), an * bn)
    assert _same(np.asarray(a * 2 + b), an * F32(2) + bn)
    t = a * 2
    nr.synchronize()
    assert _same(np.from_dlpack(t), an * F32(2))


def test_error_in_second_op_flushes(defer):
    an = _data(THR, 13)
    a = nr.asarray(an)
    with pytest.raises(ValueError, match="npurt.add"):
        a * 2 + nr.asarray(np.ones(3, F32))
    t = a * 2
    with pytest.raises(ValueError, match="npurt.add"):
        t + nr.asarray(np.ones(5, F32))
    assert _same(np.asarray(t), an * F32(2))
    assert _same(np.asarray(a * 2 + a), an * F32(2) + an)


def test_threads(defer):
    n = THR + 64

    def work(seed):
        an, bn = _data(n, seed), _data(n, seed + 100)
        a, b = nr.asarray(an), nr.asarray(bn)
        for _ in range(4):
            t = a * 2
            r = a * 2 + b
            if not (_same(np.asarray(r), an * F32(2) + bn) and _same(np.asarray(t), an * F32(2))):
                return False
        return True

    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        assert all(ex.map(work, range(4)))


def test_float16_and_small_ops_are_never_deferred(defer):
    before = _count()
    a16 = nr.asarray(np.ones(THR * 2, np.float16))
    np.asarray(a16 * 2 + a16)
    x = nr.asarray(np.ones(16, F32))
    np.asarray(x * 2 + x)
    assert _count() == before


def test_switch_and_environment():
    was = nr.deferred_fusion_enabled()
    assert was == (os.environ.get("NPURT_DEFER", "1") not in ("0", "off", "false"))
    nr.set_deferred_fusion(not was)
    try:
        assert nr.deferred_fusion_enabled() == (not was)
    finally:
        nr.set_deferred_fusion(was)
    code = "import npurt as nr; print(nr.deferred_fusion_enabled())"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NPURT_DEFER": "0"},
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
