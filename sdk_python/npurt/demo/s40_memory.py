"""Demo section: the caching memory pool, its statistics, limit and OOM error."""
import npurt as nr

TITLE = "Memory pool"

# short label -> PyTorch-style stats key
KEYS = {"allocated": "allocated_bytes.all.current", "reserved": "reserved_bytes.all.current",
        "peak": "allocated_bytes.all.peak", "segments": "segment.all.current",
        "alloc_retries": "num_alloc_retries", "ooms": "num_ooms"}


def _show(label):
    s = nr.memory.stats()
    print(f"{label:<22} " + "  ".join(f"{short}={s.get(key, 0)}" for short, key in KEYS.items()))


def run():
    _show("start")
    arrays = [nr.empty(n, nr.uint8) for n in (1000, 1 << 20, 8 << 20)]
    print(f"requests 1000 B, 1 MiB, 8 MiB are rounded to "
          f"{[nr.memory.round_size(a.nbytes) for a in arrays]} bytes")
    _show("after 3 allocations")
    del arrays
    nr.synchronize()
    _show("after del (cached)")
    nr.memory.empty_cache()
    _show("after empty_cache()")
    nr.memory.set_limit("64M")
    try:
        nr.empty(128 << 20, nr.uint8)
        raise AssertionError("a 128 MiB allocation under a 64 MiB limit succeeded")
    except nr.OutOfMemoryError as e:
        print(f"128 MiB under a 64 MiB limit -> nr.OutOfMemoryError: {e}")
    finally:
        nr.memory.set_limit(None)
    print(f"runtime still usable: {nr.asarray([1, 2, 3]).numpy()}")
    _show("end")
