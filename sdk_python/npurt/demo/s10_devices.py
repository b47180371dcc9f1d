"""Demo section: devices, backends and the chip profile of each device."""
import npurt as nr

TITLE = "Devices and chip profiles"


def run():
    for b in nr.backends():
        state = f"{b['device_count']} device(s)" if b["available"] else f"unavailable ({b['reason'].splitlines()[0]})"
        print(f"backend {b['name']}: {state}")
    for d in nr.devices():
        p = d.profile
        print(f"{d!r}: {p.name} (arch {p.npu_arch}), {p.vector_cores} vector cores, {p.cube_cores} cube cores, "
              f"UB {p.ub_bytes // 1024} KiB ({p.ub_usable_bytes} usable), L1 {p.l1_bytes // 1024} KiB, "
              f"UB alignment {p.ub_align} B")
