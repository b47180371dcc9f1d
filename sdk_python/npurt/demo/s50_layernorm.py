"""Demo section: the seeds' running example, LayerNorm on [32, 256, 1024] float16.

The built-in `layer_norm` kernel (float32 statistics inside, tiling chosen by the
tiling engine) is compared with a float64 numpy reference computed from the same
float16 inputs. Bound (docs/kernels.md): |y - ref| <= 2^-11 |ref| + K (|xhat| |gamma|
+ |mean| rstd |gamma| + |beta| + 1) with K = 2^-24 (64 + D / 16); mean and rstd are
checked the same way. Then the backward kernel, the plan, and softmax.
"""
import time

import numpy as np

import npurt as nr

TITLE = "LayerNorm [32, 256, 1024] float16 (seed example) and the tiling engine"

SHAPE = (32, 256, 1024)


def _reference(x, gamma, beta, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(-1)
    rstd = 1.0 / np.sqrt(x64.var(-1) + eps)
    xhat = (x64 - mean[..., None]) * rstd[..., None]
    return xhat * gamma.astype(np.float64) + beta.astype(np.float64), mean, rstd, xhat


def run():
    rng = np.random.default_rng(0)
    d = SHAPE[-1]
    x = (rng.standard_normal(SHAPE) * 2 + 0.5).astype(np.float16)
    gamma = rng.standard_normal(d).astype(np.float16)
    beta = rng.standard_normal(d).astype(np.float16)
    xn, gn, bn = nr.asarray(x), nr.asarray(gamma), nr.asarray(beta)

    plan = nr.ops.describe("layer_norm", xn, gn, bn)
    print("plan:", next(line.strip() for line in plan.splitlines() if "tiling plan" in line))
    y, mean, rstd = nr.ops.layer_norm(xn, gn, bn, eps=1e-5)
    nr.synchronize()
    start = time.perf_counter()
    y, mean, rstd = nr.ops.layer_norm(xn, gn, bn, eps=1e-5)
    nr.synchronize()
    ms = (time.perf_counter() - start) * 1e3
    y, mean, rstd = y.numpy(), mean.numpy(), rstd.numpy()

    ref, mref, rref, xhat = _reference(x, gamma, beta, 1e-5)
    k = 2.0**-24 * (64 + d / 16)
    g = np.abs(gamma.astype(np.float64))
    tol = 2.0**-11 * np.abs(ref) + k * (np.abs(xhat) * g + (np.abs(mref) * rref)[..., None] * g
                                        + np.abs(beta.astype(np.float64)) + 1) + 2.0**-24
    err = np.abs(y.astype(np.float64) - ref)
    worst = float((err / tol).max())
    print(f"y: {y.dtype}{list(y.shape)} in {ms:.1f} ms; max |y - ref| = {err.max():.3g}, "
          f"worst error / bound = {worst:.3f}")
    if not worst <= 1.0:
        raise AssertionError(f"layer_norm float16 outside its bound (worst error / bound {worst:.3f})")
    if not (np.abs(mean - mref) <= k * np.abs(x.astype(np.float64)).mean(-1)).all():
        raise AssertionError("layer_norm mean outside its bound")
    if not (np.abs(rstd - rref) <= 4 * k * rref).all():
        raise AssertionError("layer_norm rstd outside its bound")
    print(f"mean/rstd: float32{list(mean.shape)}, within {k:.2g} (mean, relative to mean|x|) "
          f"and {4 * k:.2g} (rstd, relative)")

    dy = rng.standard_normal(SHAPE).astype(np.float16)
    dx, dgamma, dbeta = nr.ops.layer_norm_backward(nr.asarray(dy), xn, nr.asarray(mean), nr.asarray(rstd), gn)
    dbeta_ref = dy.astype(np.float64).reshape(-1, d).sum(0)
    rel = np.abs(dbeta.numpy().astype(np.float64) - dbeta_ref).max() / np.abs(dbeta_ref).max()
    print(f"backward: dx {dx.shape}, dgamma {dgamma.shape}, dbeta {dbeta.shape}; dbeta max relative error {rel:.2g}")
    if not rel < 2.0**-8:
        raise AssertionError("dbeta off")

    s = nr.ops.softmax(nr.asarray(x[0]), dtype="float32").numpy()
    print(f"softmax rows of x[0] sum to 1 within {np.abs(s.sum(-1) - 1).max():.2g}")
