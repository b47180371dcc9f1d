"""nr.linalg holds the whole 2024.12 linalg extension: every function the standard lists, each one
callable on npurt arrays and returning npurt arrays (a partial module would let consumers that test
`hasattr(xp, "linalg")` walk into a missing function)."""
import numpy as np
import pytest

import npurt as nr

# The extension's function list, 2024.12 (extensions/linear_algebra_functions).
STANDARD_2024_12 = ("cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank "
                    "matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot "
                    "vector_norm").split()


def test_every_function_of_the_extension_is_there():
    assert sorted(nr.linalg.__all__) == sorted(STANDARD_2024_12)
    missing = [name for name in STANDARD_2024_12 if not callable(getattr(nr.linalg, name, None))]
    assert missing == []


def test_the_reference_namespace_agrees_on_the_list():
    strict = pytest.importorskip("array_api_strict")
    # eig/eigvals arrived with 2025.12; the reference is pinned to 2024.12 elsewhere (tools/conformance).
    later = {"eig", "eigvals"}
    strict_functions = {name for name in dir(strict.linalg) if callable(getattr(strict.linalg, name))
                        and name in set(STANDARD_2024_12) | later}
    assert strict_functions - later == set(STANDARD_2024_12)


def test_the_namespace_is_found_from_an_array():
    x = nr.asarray(np.eye(3, dtype=np.float32) * 2)
    xp = x.__array_namespace__()
    assert xp.linalg is nr.linalg
    for name, call in [("det", lambda: xp.linalg.det(x)), ("svdvals", lambda: xp.linalg.svdvals(x)),
                       ("eigvalsh", lambda: xp.linalg.eigvalsh(x)), ("inv", lambda: xp.linalg.inv(x))]:
        result = call()
        assert isinstance(result, nr.ndarray), name
    np.testing.assert_allclose(np.asarray(xp.linalg.det(x)), 8.0, rtol=2e-6)
    np.testing.assert_allclose(np.asarray(xp.linalg.svdvals(x)), [2, 2, 2], rtol=2e-6)
