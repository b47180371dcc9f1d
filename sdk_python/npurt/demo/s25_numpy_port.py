"""Demo section: a numpy script ported to the NPU by changing its import.

`analyse` below is ordinary numpy code: it receives its array module as `np`.
Run once with numpy and once with npurt (`import npurt as np` in a real
script), every line of it computes on the device through npurt's kernels;
the results agree within float32 tolerance.
"""
import numpy

import npurt

TITLE = "A numpy script ported by changing one import"


def analyse(np):
    """Frames of a synthetic signal: energy, loudest frame, normalisation, ranking, a projection."""
    t = np.linspace(0.0, 1.0, 4097, dtype=np.float32)[:4096]
    signal = np.sin(2 * np.pi * 50 * t) + 0.5 * np.cos(2 * np.pi * 120 * t) * np.exp(-3.0 * t)
    frames = np.reshape(signal, (64, 64))
    energy = np.sqrt(np.sum(frames ** 2, axis=-1))
    loudest = np.argmax(energy)
    normalized = (frames - np.mean(frames, axis=1, keepdims=True)) / (np.std(frames, axis=1, keepdims=True) + 1e-6)
    order = np.argsort(energy)
    ranked = np.take(energy, order)
    loud = np.where(energy > np.mean(energy), energy, 0.0)
    projection = normalized @ np.transpose(normalized[:8])
    return {"energy": energy, "loudest": loudest, "normalized": normalized, "ranked": ranked,
            "loud": loud, "cumulative": np.cumsum(ranked), "projection": projection}


def run():
    expected = analyse(numpy)
    got = analyse(npurt)
    for name, want in expected.items():
        have = numpy.asarray(got[name])
        err = float(numpy.max(numpy.abs(have - want))) if numpy.size(want) else 0.0
        scale = float(numpy.max(numpy.abs(want))) if numpy.size(want) else 1.0
        if have.shape != numpy.shape(want) or not err <= 1e-4 * max(scale, 1.0):
            raise AssertionError(f"{name}: npurt {have.shape} differs from numpy {numpy.shape(want)}: max error {err}")
        print(f"{name:<11} shape {str(have.shape):<9} max |npurt - numpy| = {err:.2e}")
    print("same function body, `np` = numpy on the host or npurt on the device")
