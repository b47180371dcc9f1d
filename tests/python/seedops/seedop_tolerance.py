"""seedop_tolerance.py: the shared error model of the row-op tests
(test_norms.py, test_softmax.py) against float64 numpy references (tests only).

- DTYPES: the float dtypes the row ops take; U_OUT: the unit roundoff of the
  final rounding to that dtype (0 for float32, which the kernels compute in);
  ATOL: an absolute floor, the output dtype's smallest subnormal (one
  subnormal spacing: float32 2^-149, float16 2^-24, bfloat16 2^-133); until
  wave 13 float32 / bfloat16 used 1e-37, which accepted any subnormal output.
- k_int(d): K(D) = 2^-24 (64 + D / 16), the float32 bound of the kernels'
  row reductions over D elements (the 64-lane tree + sequential ReduceSum;
  each test's docstring says what else it covers there).
- assert_within: |got - ref| <= tol elementwise, where a non-finite reference
  must be matched exactly (NaN with NaN, inf with the same inf); the message
  says how many elements are off and the worst one.
"""
import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
DTYPES = [F32, F16, BF16]
U_OUT = {F32: 0.0, F16: 2.0**-11, BF16: 2.0**-8}
ATOL = {F32: 2.0**-149, F16: 2.0**-24, BF16: 2.0**-133}


def k_int(d):
    return 2.0**-24 * (64 + d / 16)


def assert_within(got, ref, tol, what):
    got = np.asarray(got, np.float64)
    err = np.abs(got - ref)
    same_nonfinite = (np.isnan(got) & np.isnan(ref)) | (got == ref)
    bad = ~((err <= tol) | same_nonfinite)
    assert not bad.any(), f"{what}: {bad.sum()} of {bad.size} off, worst err {err[bad].max():.3g} (tol {tol[bad].min():.3g})"
