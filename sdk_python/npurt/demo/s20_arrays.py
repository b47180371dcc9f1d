"""Demo section: host <-> device round trips of arrays of several dtypes."""
import numpy as np

import npurt as nr

TITLE = "Arrays: host -> device -> host round trips"


def run():
    rng = np.random.default_rng(0)
    cases = [
        ("float32", rng.standard_normal((2, 3)).astype(np.float32)),
        ("float16", np.array([0.0, -0.0, 6.1e-5, np.inf, np.nan], dtype=np.float16)),
        ("bfloat16", np.array([1.5, -2.25, 3.0e38], dtype=nr.bfloat16.dtype)),
        ("int64", np.array([np.iinfo(np.int64).min, -1, np.iinfo(np.int64).max])),
        ("bool", np.array([[True, False], [False, True]])),
        ("complex64", np.array([1 + 2j, -3.5j], dtype=np.complex64)),
        ("non-contiguous float64", np.arange(12.0).reshape(3, 4)[:, ::2]),
    ]
    for label, host in cases:
        x = nr.asarray(host)
        back = x.numpy()
        same = back.dtype == host.dtype and back.tobytes() == np.ascontiguousarray(host).tobytes()  # bit-exact
        if not same:
            raise AssertionError(f"{label}: round trip changed the values: {host} -> {back}")
        print(f"{label:<24} shape {x.shape} strides {x.strides} {x.nbytes:>3} bytes on {x.device}: ok")
    z = nr.zeros((2, 2), nr.int32)
    print(f"nr.zeros((2, 2), nr.int32) -> {z!r}")
    print(f"nr.asarray([[1.5, 2], [3, 4]]) -> {nr.asarray([[1.5, 2], [3, 4]])!r}")
