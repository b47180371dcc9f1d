"""scipy (pinned in tools/test.sh) in its array-API mode (SCIPY_ARRAY_API=1) on npurt
arrays against the same calls on numpy arrays: scipy.special (logsumexp, softmax and the
elementwise special functions) and scipy.stats (moments, means, tests, zscore).
docs/numpy-users.md, "Third-party array-API code", says what scipy does with a namespace
it does not know (it runs some functions on npurt, converts for others)."""
import numpy as np
import pytest

from sklearn_setup import scipy_array_api
from third_party_compare import assert_same, both, rand

_why_not = scipy_array_api()
if _why_not:
    pytest.skip(_why_not, allow_module_level=True)
import scipy.special as special  # noqa: E402
import scipy.stats as stats  # noqa: E402

FLOATS = ("float32", "float64")


def X(dt, seed=1):
    return rand((6, 5), dt, seed)


def P(dt, seed=1):
    return rand((6, 5), dt, seed, positive=True)


CASES = {
    "logsumexp": lambda dt: both(special.logsumexp, X(dt)),
    "logsumexp_axis_b": lambda dt: both(special.logsumexp, X(dt), axis=1, b=P(dt, 2)),
    "logsumexp_return_sign": lambda dt: both(special.logsumexp, X(dt), axis=0, b=X(dt, 2), return_sign=True),
    "softmax": lambda dt: both(special.softmax, X(dt), axis=1),
    "log_softmax": lambda dt: both(special.log_softmax, X(dt), axis=0),
    "moment": lambda dt: both(stats.moment, X(dt), order=3),
    "skew": lambda dt: both(stats.skew, X(dt)),
    "kurtosis": lambda dt: both(stats.kurtosis, X(dt), axis=1),
    "zscore": lambda dt: both(stats.zscore, X(dt)),
    "zmap": lambda dt: both(stats.zmap, X(dt), X(dt, 2)),
    "variation": lambda dt: both(stats.variation, P(dt)),
    "gmean": lambda dt: both(stats.gmean, P(dt)),
    "hmean": lambda dt: both(stats.hmean, P(dt)),
    "pmean": lambda dt: both(stats.pmean, P(dt), 2.5),
    "sem": lambda dt: both(stats.sem, X(dt)),
    "tmean": lambda dt: both(stats.tmean, X(dt), (-1, 2)),
    "tvar": lambda dt: both(stats.tvar, X(dt)),
    "tstd": lambda dt: both(stats.tstd, X(dt)),
    "tmin": lambda dt: both(stats.tmin, X(dt), -1.0),
    "tmax": lambda dt: both(stats.tmax, X(dt), 1.0),
    "entropy": lambda dt: both(stats.entropy, P(dt), P(dt, 2)),
    "differential_entropy": lambda dt: both(stats.differential_entropy, X(dt)[0]),
    "describe": lambda dt: both(lambda x: tuple(stats.describe(x))[2:], X(dt)),
    "ttest_1samp": lambda dt: both(lambda x: tuple(stats.ttest_1samp(x, 0.0)), X(dt)),
    "ttest_ind": lambda dt: both(lambda x, y: tuple(stats.ttest_ind(x, y)), X(dt), P(dt)),
    "ttest_rel": lambda dt: both(lambda x, y: tuple(stats.ttest_rel(x, y)), X(dt), P(dt)),
    "pearsonr": lambda dt: both(lambda x, y: tuple(stats.pearsonr(x, y))[:2], X(dt)[:, 0], X(dt, 2)[:, 0]),
    "skewtest": lambda dt: both(lambda x: tuple(stats.skewtest(x)), rand((20,), dt, 3)),
    "kurtosistest": lambda dt: both(lambda x: tuple(stats.kurtosistest(x)), rand((20,), dt, 3)),
    "jarque_bera": lambda dt: both(lambda x: tuple(stats.jarque_bera(x)), X(dt)[0]),
    "chisquare": lambda dt: both(lambda x: tuple(stats.chisquare(x)), P(dt)[0]),
    "bartlett": lambda dt: both(lambda x, y: tuple(stats.bartlett(x, y)), X(dt)[0], X(dt, 2)[0] * 2),
    "circmean": lambda dt: both(stats.circmean, X(dt)),
    "circstd": lambda dt: both(stats.circstd, X(dt)),
    "trim_mean": lambda dt: both(stats.trim_mean, X(dt), 0.2),
    "iqr": lambda dt: both(stats.iqr, X(dt)),
    "quantile": lambda dt: both(stats.quantile, X(dt)[0], 0.3),
    "skew_axis_none": lambda dt: both(stats.skew, X(dt), axis=None),
    "moment_keepdims": lambda dt: both(stats.moment, X(dt), order=2, axis=1, keepdims=True),
    "zscore_ddof": lambda dt: both(stats.zscore, X(dt), axis=1, ddof=1),
    "gmean_weights": lambda dt: both(stats.gmean, P(dt), weights=P(dt, 2)),
    "tmean_inclusive": lambda dt: both(stats.tmean, X(dt), (-1, 1), inclusive=(False, True), axis=1),
    "describe_unbiased": lambda dt: both(lambda x: tuple(stats.describe(x, ddof=0, bias=False))[2:], X(dt)),
    "logsumexp_tuple_axis_keepdims": lambda dt: both(special.logsumexp, X(dt), axis=(0, 1), keepdims=True),
    "logsumexp_all_minus_inf": lambda dt: both(special.logsumexp, np.full(2, -np.inf, dt)),
    "softmax_all_axes": lambda dt: both(special.softmax, X(dt)),
    "xlogy_zeros": lambda dt: both(special.xlogy, np.zeros(3, dt), np.zeros(3, dt)),
}
_UNARY = {"entr": P, "erf": X, "erfc": X, "erfcx": X, "expit": X, "logit": lambda dt: P(dt) / 4, "gammaln": P,
          "ndtr": X, "ndtri": lambda dt: P(dt) / 4, "log_ndtr": X, "i0": X, "i0e": X, "i1": X, "i1e": X,
          "psi": P, "gamma": P, "sinc": X, "spence": P, "cosm1": X}
for _f, _arg in _UNARY.items():
    CASES[_f] = lambda dt, f=_f, arg=_arg: both(getattr(special, f), arg(dt))
for _f in ("xlogy", "xlog1py", "rel_entr", "kl_div", "huber", "pseudo_huber", "gammainc", "gammaincc", "stdtr",
           "chdtr", "poch", "betaln", "binom", "zeta"):
    CASES[_f] = lambda dt, f=_f: both(getattr(special, f), P(dt), P(dt, 2) + 1)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", CASES)
def test_scipy(name, dtype):
    with np.errstate(divide="ignore", invalid="ignore"):
        got, want = CASES[name](dtype)
    assert_same(got, want, name, scalar_itemsize=np.dtype(dtype).itemsize)
