"""npurt: a standalone runtime and NumPy-style SDK for Huawei Ascend NPUs.

    import numpy as np, npurt as nr
    x = nr.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))   # host -> device
    s = nr.Stream()
    with s:                                 # work below is queued on s
        y = nr.zeros((2, 3), nr.bfloat16)
    s.synchronize()
    print(x.numpy(), nr.memory.stats()["allocated_bytes.all.current"])

Everything here is the C++ runtime (libnpurt) bound with nanobind in the
extension module ``npurt._npurt``; this package only gathers the names.
Without an NPU, the default backend ``sim`` simulates one on the host CPU.
"""
from . import _npurt
from ._npurt import (
    # errors (npurt::Error by status code)
    NpurtError,
    InvalidArgumentError,
    UnsupportedDtypeError,
    ArgumentTypeError,
    IndexingError,
    OutOfRangeError,
    OutOfMemoryError,
    KernelFault,
    NotFoundError,
    AlreadyExistsError,
    FailedPreconditionError,
    UnimplementedError,
    UnavailableError,
    InternalError,
    CaptureError,
    CompileError,
    # devices
    Device,
    ChipProfile,
    devices,
    device_count,
    current_device,
    set_device,
    chip_profiles,
    chip_profile,
    backends,
    # streams and events
    Stream,
    Event,
    current_stream,
    default_stream,
    synchronize,
    # arrays
    ndarray,
    dtype,
    asarray,
    empty,
    zeros,
)
from . import memory

# dtype objects, named like numpy's (nr.bool shadows the builtin only as an attribute).
from ._npurt import (  # noqa: E402  (kept last: `bool` must not shadow the builtin above)
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128,
)

__version__ = _npurt.runtime_version()

# Tools (owner: tools): precision checks, the profiler, op debugging.
from . import testing, profiler, debug  # noqa: E402
from .profiler import profile  # noqa: E402

# Ops from the registry (owner: registry): nr.ops.<name>(...), nr.load_library(path).
from . import ops  # noqa: E402
from .ops import load_library  # noqa: E402

# Stream graphs (owner: graphs): nr.Graph capture/replay, nr.graphed.
from .graphs import Graph, graphed, graph_pool_handle, is_capturing, exchange_thread_capture_mode  # noqa: E402

profiler.install_from_env()  # NPURT_PROFILE=trace.json profiles the whole run

# The array API namespace (owner: arrays-elementwise): dtype functions, elementwise
# functions, operators on nr.ndarray, creation (sdk_python/npurt/array_api/).
from . import array_api  # noqa: E402
from .array_api import *  # noqa: E402,F401,F403
from .array_api import __array_api_version__, __array_namespace_info__  # noqa: E402,F401

# The standard's linalg extension (owner: linalg): nr.linalg.det / inv / solve / cholesky / ... on the
# LU and Cholesky kernels of kernels/linalg/ and composed ops (sdk_python/npurt/linalg/).
from . import linalg  # noqa: E402

# numpy's spellings (concatenate, transpose, cumsum, power, x.astype, x.argmax, ...) so a numpy
# script runs with its import changed; each maps onto a standard function (array_api/numpy_names.py).
from .array_api import numpy_names as _numpy_names  # noqa: E402
globals().update({_k: _v for _k, _v in _numpy_names.namespace().items() if _k not in globals()})
_numpy_names.install_methods(ndarray)

# Fused elementwise kernels (owner: fuse): @nr.fuse, one kernel per expression (sdk_python/npurt/fuse.py).
from .fuse import fuse  # noqa: E402

# Deferred elementwise fusion of float32 `a * x + y`-style pairs in npurt::array::binary (owner: lazy;
# npurt/array_ops.h, docs/numpy-users.md). On by default; NPURT_DEFER=0 or set_deferred_fusion(False) turns it off.
from ._npurt import set_deferred_fusion, deferred_fusion_enabled, flush_deferred  # noqa: E402,F401
