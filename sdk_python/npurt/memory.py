"""npurt.memory: the caching device memory pool of each device.

Like PyTorch's ``torch.cuda`` memory API: statistics use PyTorch's key names
(``allocated_bytes.all.current``, ``reserved_bytes.all.peak``, ``num_ooms``,
...), ``empty_cache()`` returns cached segments, ``set_limit()`` caps the bytes
the pool may reserve. Every function takes ``device=None`` (the current device).
Environment: ``NPURT_MEMORY_LIMIT`` ("8G", "50%"), ``NPURT_NO_CACHING=1``.
"""
from ._npurt import _memory as _pool

caching = _pool.caching
describe = _pool.describe
empty_cache = _pool.empty_cache
get_limit = _pool.get_limit
memory_allocated = _pool.memory_allocated
memory_reserved = _pool.memory_reserved
reset_peak_stats = _pool.reset_peak_stats
round_size = _pool.round_size
set_caching = _pool.set_caching
set_limit = _pool.set_limit
stat = _pool.stat
stats = _pool.stats

__all__ = [
    "caching",
    "describe",
    "empty_cache",
    "get_limit",
    "memory_allocated",
    "memory_reserved",
    "reset_peak_stats",
    "round_size",
    "set_caching",
    "set_limit",
    "stat",
    "stats",
]
