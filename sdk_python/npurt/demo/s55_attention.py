"""Demo section: the seed's running example, fused flash attention on [2, 512, 64] fp16, scale 0.125.

The reference SDPA is computed here in float64 with numpy (a reference only;
the device result comes from the `attention` kernel), from the same fp16 inputs.
"""
import numpy as np

import npurt as nr

TITLE = "Fused flash attention (seed example: [2, 512, 64] fp16, scale 0.125)"

SHAPE = (2, 512, 64)
SCALE = 0.125
TOLERANCE = 1.5e-3  # fp16 bound of docs/kernels.md: 1.5e-3 * max|v|


def _reference(q, k, v, causal):
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    s = q64 @ np.swapaxes(k64, -1, -2) * SCALE
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return p / p.sum(-1, keepdims=True) @ v64


def run():
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(SHAPE).astype(np.float16) for _ in range(3))
    xq, xk, xv = (nr.asarray(a) for a in (q, k, v))
    print(nr.ops.describe("attention", xq, xk, xv, scale=SCALE).splitlines()[-2].strip())
    for causal in (False, True):
        out, lse = nr.ops.attention(xq, xk, xv, scale=SCALE, causal=causal)
        got = out.numpy().astype(np.float64)
        err = np.abs(got - _reference(q, k, v, causal)).max()
        bound = TOLERANCE * np.abs(v).max()
        print(f"causal={causal!s:5}  out {out.dtype}{list(out.shape)}  lse {lse.dtype}{list(lse.shape)}  "
              f"max |out - float64 SDPA| = {err:.2e} (bound {bound:.2e})")
        if not err <= bound:
            raise AssertionError(f"attention error {err} above the fp16 bound {bound}")
