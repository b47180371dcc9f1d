"""examples/custom_layernorm from Python: built with nr.ops.build, against numpy."""
from pathlib import Path

import numpy as np
import pytest

import npurt as nr

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "custom_layernorm"


@pytest.fixture(scope="module")
def layer_norm(tmp_path_factory):
    import os

    os.environ.setdefault("NPURT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    nr.ops.build("npurt_layernorm", sources=[EXAMPLE / "layernorm_kernel.cc", EXAMPLE / "layernorm_op.cc"],
                 extra_cflags=[f"-I{EXAMPLE}"])
    return nr.ops.get("layer_norm_custom")


def reference(x, gamma, beta, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(-1, keepdims=True)
    var = x64.var(-1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 3, 15), (2, 5, 33), (4, 7, 1023), (32, 256, 64)])
def test_layer_norm_matches_numpy(layer_norm, shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(shape[-1]).astype(np.float32)
    b = rng.standard_normal(shape[-1]).astype(np.float32)
    y = layer_norm(nr.asarray(x), nr.asarray(g), nr.asarray(b), eps=1e-5).numpy()
    np.testing.assert_allclose(y, reference(x, g, b, 1e-5), rtol=1e-4, atol=1e-4)  # float32
    y = layer_norm(nr.asarray(x)).numpy()
    np.testing.assert_allclose(y, reference(x, None, None, 1e-5), rtol=1e-4, atol=1e-4)


def test_signature_and_plan(layer_norm):
    import inspect

    sig = inspect.signature(layer_norm)
    assert list(sig.parameters)[:4] == ["x", "gamma", "beta", "eps"]
    assert sig.parameters["gamma"].default is None and sig.parameters["eps"].default == 1e-5
    text = nr.ops.describe("layer_norm_custom", (32, 256, 1024))
    assert "rows_per_tile=" in text and "buffers=2" in text


def test_bad_gamma(layer_norm):
    x = nr.asarray(np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match=r"argument 'gamma': must have shape \(4,\)"):
        layer_norm(x, nr.asarray(np.zeros(3, np.float32)))
