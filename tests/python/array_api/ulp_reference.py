"""ulp_reference.py: the error, in units in the last place, of npurt's results
against numpy computed in float64 (the reference; tests only).

Shared by the dense-accuracy tests of the vector transcendental kernels
(test_trig_log_vec.py, test_transcendental_vec.py). Rules:
- where the float64 reference rounded to the tested dtype is not finite
  (overflow to +-inf, NaN), the result must equal it exactly (NaN == NaN);
- elsewhere the error is |got - ref64| / ulp(ref rounded to dtype), with the
  ulp floored at the dtype's smallest subnormal (so results in the subnormal
  range are measured in subnormal steps, and a zero reference has ulp > 0).
"""
import numpy as np


def ulp_error(got, x, fn, dtype):
    """Largest ulp error of got = <fn>(x) in dtype, against numpy.<fn> in float64."""
    with np.errstate(all="ignore"):
        ref = getattr(np, fn)(x.astype(np.float64))
        r = ref.astype(dtype)
    ok = np.isfinite(r)
    assert np.array_equal(got[~ok], r[~ok], equal_nan=True), f"{fn}: non-finite results differ"
    spacing = np.maximum(np.spacing(np.abs(r[ok])).astype(np.float64), np.finfo(dtype).smallest_subnormal)
    return np.max(np.abs(got[ok].astype(np.float64) - ref[ok]) / spacing, initial=0.0)
