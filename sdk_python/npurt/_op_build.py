"""Building op plugins on the fly (nr.ops.build), with a content-hash cache.

The plugin is compiled by the host compiler ($CXX, default g++) against the
npurt headers (public API + the simulated "kernel_operator.h") and linked
against the libnpurt.so this process has loaded, so its ops register into the
same registry. The cache key hashes the sources' contents and names, the flags,
the compiler's version and the loaded libnpurt (path + mtime), like CuPy's
kernel cache; an up-to-date build is loaded without compiling. Builds write to
a temporary file and rename, so concurrent builders never see half a library.
"""
import collections
import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from . import _npurt

BuildResult = collections.namedtuple("BuildResult", "path ops cached")

_compiler_ids = {}


def cache_dir():
    root = os.environ.get("NPURT_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "npurt")
    return Path(root) / "ops"


def _loaded_libnpurt():
    """Path of the libnpurt shared library mapped in this process."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.rstrip("\n").split(" ", 5)[-1].strip()
            if os.path.basename(path).startswith("libnpurt.so"):
                return path
    raise _npurt.NotFoundError("npurt.ops.build: libnpurt.so is not loaded in this process (import npurt first)")


def include_dirs():
    """Directories holding <npurt/...> and "kernel_operator.h" (installed package or source tree)."""
    pkg = Path(__file__).resolve().parent
    env = os.environ.get("NPURT_INCLUDE_DIR")
    candidates = []
    if env:
        candidates.append((Path(env), Path(env) / "npurt" / "aicore"))
    candidates.append((pkg / "include", pkg / "include" / "npurt" / "aicore"))
    root = pkg.parent.parent  # source tree: sdk_python/npurt -> repo
    candidates.append((root / "runtime" / "include", root / "runtime" / "backends" / "sim" / "aicore" / "include"))
    for public, aicore in candidates:
        if (public / "npurt" / "op_registry.h").is_file() and (aicore / "kernel_operator.h").is_file():
            return [str(public), str(aicore)]
    raise _npurt.NotFoundError("npurt.ops.build: cannot find the npurt headers (looked in "
                               + ", ".join(str(c[0]) for c in candidates) + "); set NPURT_INCLUDE_DIR")


def _compiler_id(cxx):
    if cxx not in _compiler_ids:
        try:
            out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=False)
        except OSError as e:
            raise _npurt.CompileError(f"npurt.ops.build: cannot run the compiler {cxx!r}: {e}") from None
        _compiler_ids[cxx] = out.stdout.splitlines()[0] if out.stdout else cxx
    return _compiler_ids[cxx]


def _key(name, sources, flags, cxx, lib):
    h = hashlib.sha256()
    for part in (name, cxx, _compiler_id(cxx), lib, str(os.stat(lib).st_mtime_ns), *flags):
        h.update(part.encode() + b"\0")
    for src in sources:
        h.update(os.path.basename(src).encode() + b"\0")
        h.update(Path(src).read_bytes() + b"\0")
    return h.hexdigest()[:20]


def build_plugin(name, sources, extra_cflags=(), extra_ldflags=(), extra_includes=(), verbose=False):
    where = "npurt.ops.build"
    if not name or not name.replace("_", "").isalnum():
        raise _npurt.InvalidArgumentError(f"{where}: argument 'name': {name!r} is not an identifier")
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    sources = [os.path.abspath(os.fspath(s)) for s in sources]
    if not sources:
        raise _npurt.InvalidArgumentError(f"{where}: argument 'sources': is empty")
    for s in sources:
        if not os.path.isfile(s):
            raise _npurt.NotFoundError(f"{where}: argument 'sources': no such file {s!r}")
    cxx = os.environ.get("CXX", "g++")
    lib = _loaded_libnpurt()
    includes = [*map(os.fspath, extra_includes), *include_dirs()]
    flags = ["-std=c++17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", *map(str, extra_cflags)]
    key = _key(name, sources, [*flags, *includes, *map(str, extra_ldflags)], cxx, lib)
    out_dir = cache_dir() / f"{name}-{key}"
    target = out_dir / f"lib{name}.so"
    cached = target.is_file()
    if not cached:
        out_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".lib{name}.", suffix=".so", dir=out_dir)
        os.close(fd)
        cmd = [cxx, *flags, *(f"-I{d}" for d in includes), *sources, "-o", tmp, lib,
               f"-Wl,-rpath,{os.path.dirname(lib)}", "-Wl,--no-undefined", *map(str, extra_ldflags)]
        if verbose:
            print(" ".join(cmd))
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            os.unlink(tmp)
            raise _npurt.CompileError(f"{where}: building op library '{name}' failed (exit {proc.returncode}):\n"
                                      f"{proc.stderr.strip()}\ncommand: {' '.join(cmd)}")
        os.replace(tmp, target)
    ops = _npurt._load_library(str(target))
    return BuildResult(str(target), list(ops), cached)
