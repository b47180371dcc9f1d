"""``python -m npurt info``: what this npurt build has and what it can reach.

Prints the version, every backend (and the reason an unavailable one is
missing), the devices with their chip profiles, the built-in profiles, the
library actually loaded (path, C API version), the SIMD instruction set the
simulated AI core uses, and the NPURT_* settings in effect.
"""
import ctypes
import os
import sys

import npurt as nr


def _mib(n):
    return f"{n / (1 << 20):.0f} MiB" if n < (1 << 30) else f"{n / (1 << 30):.1f} GiB"


def profile_line(p):
    return (f"{p.name}: arch {p.npu_arch}, {p.vector_cores} vector + {p.cube_cores} cube cores, "
            f"UB {p.ub_bytes // 1024} KiB, L1 {p.l1_bytes // 1024} KiB, "
            f"L0A/B/C {p.l0a_bytes // 1024}/{p.l0b_bytes // 1024}/{p.l0c_bytes // 1024} KiB, "
            f"HBM {_mib(p.hbm_bytes)}, bf16 {'yes' if p.has_bf16 else 'no'}")


SETTINGS = ("NPURT_SIM_ISA", "NPURT_SIM_CHECK", "NPURT_SIM_PROFILE", "NPURT_MEMORY_LIMIT", "NPURT_NO_CACHING",
            "NPURT_PROFILE", "NPURT_KERNELS_LIBRARY")


def loaded_library():
    """Path of the libnpurt this process loaded (from /proc/self/maps), or None."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as f:
            paths = [line.split()[-1] for line in f if "libnpurt.so" in line]
    except OSError:
        return None
    return paths[0] if paths else None


def library_facts(path):
    """(C API version, SIMD level of the simulated core) read from the loaded library
    through its exported functions; "unknown" when a symbol is missing."""
    lib = ctypes.CDLL(path)  # already loaded: the same handle, no second copy
    api = isa = "unknown"
    try:
        class Version(ctypes.Structure):
            _fields_ = [("struct_size", ctypes.c_size_t), ("major", ctypes.c_int), ("minor", ctypes.c_int),
                        ("patch", ctypes.c_int), ("c_api_major", ctypes.c_int), ("c_api_minor", ctypes.c_int)]
        v = Version(ctypes.sizeof(Version))
        if lib.npurtGetVersion(ctypes.byref(v)) == 0:
            api = f"{v.c_api_major}.{v.c_api_minor}"
    except AttributeError:
        pass
    try:
        f = getattr(lib, "_ZN5npurt6aicore3vec10active_isaEv")  # npurt::aicore::vec::active_isa()
        f.restype = ctypes.c_char_p
        isa = f().decode()
    except AttributeError:
        pass
    return api, isa


def cube_isa(path):
    """Host instruction sets of the simulated cube's Mmad (npurt::sim::cube_isa()), or "unknown"."""
    try:
        f = getattr(ctypes.CDLL(path), "_ZN5npurt3sim8cube_isaEv")
        f.restype = ctypes.c_char_p
        return f().decode()
    except AttributeError:
        return "unknown"


def main(out=sys.stdout):
    print(f"npurt {nr.__version__} (python {sys.version.split()[0]}, module {os.path.dirname(nr.__file__)})", file=out)
    print("backends:", file=out)
    for b in nr.backends():
        state = f"available, {b['device_count']} device(s)" if b["available"] else f"unavailable: {b['reason']}"
        print(f"  {b['name']:<7} {state}", file=out)
    print("devices:", file=out)
    for d in nr.devices():
        print(f"  {d}  {profile_line(d.profile)}; pool limit {nr.memory.get_limit(d) or 'none'}", file=out)
    print("chip profiles (NPURT_SIM_PROFILE selects the sim one):", file=out)
    for p in nr.chip_profiles():
        print(f"  {profile_line(p)}", file=out)
    path = loaded_library()
    if path:
        api, isa = library_facts(path)
        print(f"library: {path} (C API {api})", file=out)
        print(f"simulated AI core SIMD: {isa} (NPURT_SIM_ISA=generic|avx2|avx512 forces one)", file=out)
        print(f"simulated cube unit: {cube_isa(path)} (Mmad host kernels; bfloat16 uses AMX when listed)", file=out)
    settings = [f"{k}={os.environ[k]}" for k in SETTINGS if k in os.environ]
    print(f"settings: {' '.join(settings) if settings else 'none (defaults)'}", file=out)
    return 0
