"""array-api-extra (pinned in tools/test.sh) on npurt arrays against the same calls on
numpy arrays: array_api_compat.array_namespace(x) must return npurt itself, and every
function below runs through npurt's namespace on each dtype it accepts. Calls that fail
for a reason outside npurt's scope are strict xfails with that reason (they turn into
failures once they pass, so the list stays true); docs/numpy-users.md, "Third-party
array-API code", lists them."""
import numpy as np
import pytest

import npurt as nr
from third_party_compare import assert_same, both, rand

xpx = pytest.importorskip("array_api_extra", reason="array-api-extra not installed (tools/test.sh installs it)")
aac = pytest.importorskip("array_api_compat", reason="array-api-compat not installed (tools/test.sh installs it)")

REAL = ("float32", "float64", "float16", "int32", "int64", "uint8", "int8")
ALL = REAL + ("complex64", "bool")
FLOAT = ("float32", "float64", "float16")


def _sorted(x):
    return np.sort(x) if isinstance(x, np.ndarray) else nr.sort(x)


# name -> (function of the test arrays A (4, 5), V (7,), B (3, 2), dtypes)
CASES = {
    "atleast_nd": (lambda A, V, B: xpx.atleast_nd(V, ndim=4), ALL),
    "cov": (lambda A, V, B: xpx.cov(A), REAL + ("complex64",)),
    "cov_1d": (lambda A, V, B: xpx.cov(V), REAL),
    "create_diagonal": (lambda A, V, B: xpx.create_diagonal(V, offset=-1), ALL),
    "create_diagonal_batched": (lambda A, V, B: xpx.create_diagonal(A), ALL),
    "isclose": (lambda A, V, B: xpx.isclose(A, A[::-1] * 1, equal_nan=True), REAL + ("complex64",)),
    "isin": (lambda A, V, B: xpx.isin(A, A[:2, :2]), ALL),
    "kron": (lambda A, V, B: xpx.kron(A[:2, :3], B), REAL + ("complex64",)),
    "nunique": (lambda A, V, B: xpx.nunique(A), ALL),
    "pad": (lambda A, V, B: xpx.pad(A, (1, 2)), ALL),
    "pad_per_axis": (lambda A, V, B: xpx.pad(A, ((1, 0), (0, 2)), constant_values=3), REAL),
    "setdiff1d": (lambda A, V, B: xpx.setdiff1d(V, V[:3]), ALL),
    "union1d": (lambda A, V, B: xpx.union1d(V, A[0]), ALL),
    "sinc": (lambda A, V, B: xpx.sinc(A), FLOAT),
    "nan_to_num": (lambda A, V, B: xpx.nan_to_num(A / (A * 0)), FLOAT + ("complex64",)),
    "nanmean": (lambda A, V, B: xpx.nanmean(A / (A > 0), axis=0), FLOAT),
    "nansum": (lambda A, V, B: xpx.nansum(A / (A > 0), axis=1), FLOAT),
    "nanmax": (lambda A, V, B: xpx.nanmax(A / (A > 0)), FLOAT),
    "partition": (lambda A, V, B: xpx.partition(A, 2, axis=-1)[..., 2], REAL),
    "argpartition": (lambda A, V, B: xpx.argpartition(V, 3)[3:4] * 0 + _sorted(V)[3], REAL),
    "searchsorted": (lambda A, V, B: xpx.searchsorted(_sorted(V), A, side="right"), REAL),
    "at_set": (lambda A, V, B: xpx.at(A)[1:3, ::2].set(A[0, 0]), ALL),
    "at_set_mask": (lambda A, V, B: xpx.at(A)[A == A[0, 0]].set(A[1, 1]), ALL),
    "at_add_view": (lambda A, V, B: xpx.at(A, (slice(None), 1)).add(A[0, 0]), REAL + ("complex64",)),
    "at_multiply_view": (lambda A, V, B: xpx.at(A, (slice(None, None, 2), slice(1, 4))).multiply(A[0, 0]), REAL),
    "at_max": (lambda A, V, B: xpx.at(A, (slice(None), 1)).max(A[0, 0]), REAL),
    "one_hot": (lambda A, V, B: xpx.one_hot(V % 5, 5), ("int32", "int64", "uint8", "int8")),
    "unravel_index": (lambda A, V, B: xpx.unravel_index(V % 20, (4, 5)), ("int64",)),
    "angle": (lambda A, V, B: xpx.angle(A), FLOAT + ("complex64",)),
    "deg2rad": (lambda A, V, B: xpx.deg2rad(A), FLOAT),
    "rad2deg": (lambda A, V, B: xpx.rad2deg(A), FLOAT),
    "apply_where": (lambda A, V, B: xpx.apply_where(A > 0, A, lambda v: v ** 0.5, fill_value=-1), FLOAT),
    "apply_where_two_branches": (lambda A, V, B: xpx.apply_where(A > 0, (A, A), lambda a, b: a * b, lambda a, b: a - b),
                                 REAL),
}
# (case, dtype) -> why it cannot run on npurt (strict xfail with the exception it raises)
NOT_ON_NPURT = {
    ("kron", "bool"): (TypeError, "multiply of bool: the standard's multiply takes numeric dtypes"),
}
PARAMS = [pytest.param(name, dt, id=f"{name}-{dt}") for name, (_, dts) in CASES.items() for dt in dts]
PARAMS += [pytest.param(name, dt, id=f"{name}-{dt}", marks=pytest.mark.xfail(strict=True, raises=exc, reason=why))
           for (name, dt), (exc, why) in NOT_ON_NPURT.items()]


@pytest.mark.parametrize("name, dtype", PARAMS)
def test_array_api_extra(name, dtype):
    f = CASES[name][0]
    with np.errstate(divide="ignore", invalid="ignore"):
        got, want = both(f, rand((4, 5), dtype, 1), rand((7,), dtype, 2), rand((3, 2), dtype, 3))
    assert_same(got, want, name)


_Z, _E, _E2 = np.asarray(2.5, np.float32), np.zeros((0,), np.float32), np.zeros((0, 3), np.float32)
_INDEX = np.asarray([0, 2], np.int64)
# 0-d and empty operands, integer-array and other `at` updates, lazy_apply
EDGE = {
    "atleast_nd_0d": lambda: both(lambda x: xpx.atleast_nd(x, ndim=2), _Z),
    "cov_empty": lambda: both(xpx.cov, _E2.T.copy()),
    "create_diagonal_empty": lambda: both(xpx.create_diagonal, _E),
    "pad_empty": lambda: both(lambda x: xpx.pad(x, 1), _E2),
    "nunique_empty": lambda: both(xpx.nunique, _E),
    "setdiff1d_empty": lambda: both(xpx.setdiff1d, _E, _E),
    "sinc_0d": lambda: both(xpx.sinc, _Z),
    "isclose_0d": lambda: both(xpx.isclose, _Z, rand((4, 5), "float32", 1)),
    "kron_0d": lambda: both(xpx.kron, _Z, rand((4, 5), "float32", 1)),
    "one_hot_axis0": lambda: both(lambda x: xpx.one_hot(x, 4, axis=0), rand((3, 2), "int64", 1) % 4),
    "at_integer_array": lambda: both(lambda x, i: xpx.at(x)[i].add(1.0), rand((4, 5), "float32", 1), _INDEX),
    "at_divide": lambda: both(lambda x: xpx.at(x)[1:].divide(2.0), rand((4, 5), "float32", 1)),
    "at_power": lambda: both(lambda x: xpx.at(x)[1:, ::2].power(2.0), rand((4, 5), "float32", 1)),
    "nanmin_all_nan": lambda: both(lambda x: xpx.nanmin(x, axis=0), np.full((2, 3), np.nan, np.float32)),
    "lazy_apply": lambda: both(lambda x: xpx.lazy_apply(lambda v: np.cumsum(np.asarray(v)), x, shape=(20,),
                                                        dtype=x.dtype), rand((20,), "float32", 1)),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy and xpx warn on empty/all-NaN input, as they should
@pytest.mark.parametrize("name", EDGE)
def test_array_api_extra_edge_operands(name):
    with np.errstate(invalid="ignore", divide="ignore"):
        got, want = EDGE[name]()
    assert_same(got, want, name)


def test_array_namespace_is_npurt():
    x = nr.asarray(np.ones((2, 3), np.float32))
    assert aac.array_namespace(x) is nr
    assert aac.array_namespace(x, nr.asarray(np.zeros(3, np.int64))) is nr
    assert aac.is_array_api_obj(x) and aac.is_writeable_array(x) and not aac.is_lazy_array(x)
    assert aac.size(x) == 6 and aac.device(x) == x.device
    assert aac.to_device(x, x.device).device == x.device
    assert xpx.default_dtype(nr) == nr.float32 and xpx.default_dtype(nr, "integral") == nr.int64


def test_at_writes_in_place_only_when_asked():
    a = rand((3, 4), "float32", 4)
    x = nr.asarray(a)
    y = xpx.at(x)[1].set(0.0, copy=True)  # copy=True leaves x alone
    assert_same(x, a)
    want = a.copy()
    want[1] = 0
    assert_same(y, want)
    z = xpx.at(x)[:, 1:3].add(1.0, copy=False)  # copy=False writes into x (npurt arrays are writeable)
    want = a.copy()
    want[:, 1:3] += 1
    assert z is x
    assert_same(x, want)
