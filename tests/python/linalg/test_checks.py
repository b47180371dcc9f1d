"""nr.linalg's refusals (sdk_python/npurt/linalg/_checks.py): dtypes the kernels do not take,
arrays that are not stacks of square matrices, mismatched shapes: each error names the function,
the argument and the reason, and the runtime stays usable afterwards."""
import numpy as np
import pytest

import npurt as nr

L = nr.linalg
FACTORED = ("det", "slogdet", "inv", "cholesky")


@pytest.mark.parametrize("fn", FACTORED)
@pytest.mark.parametrize("dtype,reason", [("int32", "not a floating-point dtype"), ("bool", "not a floating-point"),
                                          ("float16", "too narrow"), ("bfloat16", "too narrow"),
                                          ("complex64", "complex matrices are not supported")])
def test_refused_dtypes(fn, dtype, reason):
    x = nr.ones((3, 3), dtype=getattr(nr, dtype))
    with pytest.raises(TypeError, match=f"npurt.linalg.{fn}: argument 'x': .*{reason}"):
        getattr(L, fn)(x)
    with pytest.raises(nr.UnsupportedDtypeError):
        getattr(L, fn)(x)


@pytest.mark.parametrize("fn", FACTORED)
def test_not_a_stack_of_square_matrices(fn):
    for shape, reason in (((), "0-dimensional"), ((3,), "1-dimensional"), ((2, 3), "2 x 3"),
                          ((4, 3, 2), "3 x 2")):
        with pytest.raises(L.LinAlgError, match=f"npurt.linalg.{fn}: argument 'x': .*{reason}"):
            getattr(L, fn)(nr.ones(shape, dtype=nr.float32))
    assert float(L.det(nr.asarray(np.eye(2)))) == 1.0


def test_solve_shape_and_dtype_errors():
    a = nr.asarray(np.eye(3))
    with pytest.raises(L.LinAlgError, match="'x2': has 2 rows"):
        L.solve(a, nr.ones((2,), dtype=nr.float64))
    with pytest.raises(L.LinAlgError, match="'x2': has 4 rows"):
        L.solve(a, nr.ones((4, 3), dtype=nr.float64))
    with pytest.raises(ValueError, match="cannot be broadcast"):
        L.solve(nr.ones((2, 3, 3)), nr.ones((4, 3, 1)))
    with pytest.raises(L.LinAlgError, match="'x1': the last two dimensions must be square"):
        L.solve(nr.ones((3, 2)), nr.ones((3,)))
    with pytest.raises(TypeError, match="'x2': .*not a floating-point"):
        L.solve(a, nr.ones((3,), dtype=nr.int64))
    with pytest.raises(TypeError, match="expected an npurt.ndarray"):
        L.solve(a, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(L.solve(a, nr.ones((3,), dtype=nr.float64))), np.ones(3))


def test_matrix_power_argument_errors():
    a = nr.asarray(np.eye(2))
    for n, match in ((1.5, "got float"), (True, "got bool"), ("2", "got str")):
        with pytest.raises(TypeError, match=f"npurt.linalg.matrix_power: argument 'n': expected an integer, {match}"):
            L.matrix_power(a, n)
    with pytest.raises(TypeError, match="int32 is not a floating-point"):
        L.matrix_power(nr.ones((2, 2), dtype=nr.int32), 2)
    with pytest.raises(L.LinAlgError, match="2 x 3"):
        L.matrix_power(nr.ones((2, 3)), 2)
    with pytest.raises(TypeError, match="too narrow"):  # a negative power inverts: float32/float64 only
        L.matrix_power(nr.ones((2, 2), dtype=nr.float16), -1)
    assert np.asarray(L.matrix_power(nr.ones((2, 2), dtype=nr.float16), 2)).tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_diagonal_and_trace_errors():
    with pytest.raises(ValueError, match="npurt.linalg.diagonal: argument 'x': needs at least 2 dimensions"):
        L.diagonal(nr.ones((3,)))
    with pytest.raises(TypeError, match="'offset': expected an integer"):
        L.diagonal(nr.ones((3, 3)), offset=1.0)
    with pytest.raises(TypeError, match="npurt.linalg.trace: argument 'x': bool is not a numeric"):
        L.trace(nr.ones((3, 3), dtype=nr.bool))
