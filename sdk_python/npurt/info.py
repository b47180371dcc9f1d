"""``python -m npurt info``: what this npurt build has and what it can reach.

Prints the version, every backend (and the reason an unavailable one is
missing), the devices with their chip profiles, and the built-in profiles.
"""
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
    return 0
