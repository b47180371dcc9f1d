"""npurt.profiler_plot: a picture of a Profile (timeline per stream/core, memory over time).

matplotlib is optional: without it ``Profile.plot`` raises ImportError saying
how to install it. Rows of the timeline: one per stream (executed work, one
colour per op name) and one per simulated core of sim launches; below it,
the pool's allocated and reserved bytes as step lines. Times are ms since
the session started.
"""
from __future__ import annotations

import os


def _pyplot():
    try:
        import matplotlib
        if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
            matplotlib.use("Agg")  # headless: render to files
        import matplotlib.pyplot as plt
        return plt
    except ImportError as e:
        raise ImportError("npurt.Profile.plot: matplotlib is not installed; install it with "
                          "`pip install matplotlib` (or use export_chrome_trace and open the "
                          "trace in https://ui.perfetto.dev)") from e


def _rows(profile):
    """[(label, [(start_ms, dur_ms, name)])] for streams, then simulated cores."""
    t0 = profile._raw.start_ns
    streams, cores = {}, {}
    for a in profile.activities:
        if not a.executed:
            continue
        key = (str(a.device), a.stream_name)
        streams.setdefault(key, []).append(((a.start_ns - t0) / 1e6, a.device_ns / 1e6, a.name))
        for b in a.blocks:
            ck = (str(a.device), f"core {b.block}")
            cores.setdefault(ck, []).append(((b.start_ns - t0) / 1e6,
                                             (b.end_ns - b.start_ns) / 1e6, a.name))
    ordered = sorted(streams.items()) + sorted(cores.items(), key=lambda kv: (kv[0][0], int(kv[0][1][5:])))
    return [(f"{dev} {label}", spans) for (dev, label), spans in ordered]


def plot_profile(profile, path=None, *, show: bool = False):
    plt = _pyplot()
    rows = _rows(profile)
    names = sorted({n for _, spans in rows for _, _, n in spans})
    cmap = plt.get_cmap("tab20")
    colour = {n: cmap(i % 20) for i, n in enumerate(names)}
    height = max(2.0, 0.35 * len(rows) + 1.0)
    fig, (ax, mem) = plt.subplots(2, 1, figsize=(12, height + 2.5), sharex=True,
                                  gridspec_kw={"height_ratios": [height, 2.5]})
    for y, (_, spans) in enumerate(rows):
        ax.broken_barh([(s, max(d, 1e-4)) for s, d, _ in spans], (y - 0.4, 0.8),
                       facecolors=[colour[n] for _, _, n in spans])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_title(f"npurt profile: {len(profile.activities)} activities")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour[n]) for n in names[:20]]
    if handles:
        ax.legend(handles, names[:20], fontsize=7, loc="upper right", ncol=2)
    _plot_memory(mem, profile)
    mem.set_xlabel("time since profiling started (ms)")
    fig.tight_layout()
    if path is not None:
        fig.savefig(os.fspath(path), dpi=120)
    if show:
        plt.show()
    return fig


def _plot_memory(ax, profile):
    t0 = profile._raw.start_ns
    by_device = {}
    for m in profile.memory:
        by_device.setdefault(str(m.device), []).append(m)
    for dev, events in sorted(by_device.items()):
        events = events + [events[-1]]  # hold the last level until the session stopped
        ts = [(m.t_ns - t0) / 1e6 for m in events[:-1]] + [profile.duration_ns / 1e6]
        ax.step(ts, [m.allocated_after / 2**20 for m in events], where="post",
                label=f"{dev} allocated")
        ax.step(ts, [m.reserved_after / 2**20 for m in events], where="post", linestyle="--",
                label=f"{dev} reserved")
    ax.set_ylabel("pool MiB")
    if by_device:
        ax.legend(fontsize=7, loc="upper right")
    else:
        ax.text(0.5, 0.5, "no pool events recorded", ha="center", va="center",
                transform=ax.transAxes)
