#!/usr/bin/env python3
"""Checks that an installed library folder holds each shared library once.

Why: a wheel is a zip and holds no symlinks, so a CMake library with
VERSION/SOVERSION (libnpurt.so -> .so.0 -> .so.0.1.0) lands in a pip install,
editable or not, as three full copies. The loader maps the SONAME copy
(.so.0) only, so replacing libnpurt.so by a rebuilt one changed nothing (a
measurement trap of wave 11, docs/performance.md) and the package carried the
runtime three times. npurt's Python build therefore ships one unversioned
libnpurt.so (CMakeLists.txt).

Rules, for FOLDER (npurt/lib of the Python package, or a CMake prefix's lib):
  copies   no two distinct regular files with identical bytes (symlinks to one
           file are fine: that is what `cmake --install` makes);
  soname   every library's SONAME names a file in FOLDER (the name the loader
           and the linker record in DT_NEEDED);
  needed   every DT_NEEDED libnpurt* of the libraries and of each EXTRA file
           (the extension npurt/_npurt*.so) names a file in FOLDER.
A WHEEL (.whl) is unpacked into a temporary folder and checked as its
npurt/lib with the extension npurt/_npurt*.so as EXTRA (tools/build_checks.sh's
wheel step). The ELF files are parsed here (check_tls_relocations.py's section
reader).

Exit status: 0 when every rule holds, 1 when one fails (each failure printed),
2 on usage errors.
Usage: check_library_copies.py FOLDER [EXTRA...] | WHEEL
"""
import hashlib
import os
import struct
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_tls_relocations import NotElf, sections  # noqa: E402

SHT_DYNAMIC, DT_NEEDED, DT_SONAME = 6, 1, 14


def dynamic_names(path):
    """(SONAME or None, [DT_NEEDED names]) of an ELF64 shared object."""
    with open(path, "rb") as f:
        data = f.read()
    _, secs = sections(data)
    soname, needed = None, []
    for sec in secs:
        if sec["type"] != SHT_DYNAMIC:
            continue
        strtab = secs[sec["link"]]["offset"]
        for off in range(sec["offset"], sec["offset"] + sec["size"], sec["entsize"] or 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag in (DT_NEEDED, DT_SONAME):
                name = data[strtab + val:data.index(b"\0", strtab + val)].decode()
                if tag == DT_SONAME:
                    soname = name
                else:
                    needed.append(name)
    return soname, needed


def libraries(folder):
    """Names of the shared libraries directly in folder (lib*.so and lib*.so.*)."""
    return sorted(n for n in os.listdir(folder)
                  if n.startswith("lib") and (n.endswith(".so") or ".so." in n)
                  and os.path.isfile(os.path.join(folder, n)))


def copies(folder, names):
    """Groups (as strings) of distinct regular files with identical bytes."""
    by_digest = {}
    for name in names:
        real = os.path.realpath(os.path.join(folder, name))
        with open(real, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        by_digest.setdefault(digest, {}).setdefault(real, []).append(name)
    return [" = ".join(sorted(n for names in files.values() for n in names))
            for files in by_digest.values() if len(files) > 1]


def problems(folder, extras):
    names = libraries(folder)
    out = [f"copies: {group} are separate files with the same bytes (one file, or symlinks)"
           for group in copies(folder, names)]
    present = set(os.listdir(folder))
    for path in [os.path.join(folder, n) for n in names] + list(extras):
        soname, needed = dynamic_names(path)
        if path not in extras and soname and soname not in present:
            out.append(f"soname: {path} has SONAME {soname}, which is not in {folder}")
        out += [f"needed: {path} needs {n}, which is not in {folder}"
                for n in needed if n.startswith("libnpurt") and n not in present]
    return names, out


def wheel_problems(wheel):
    """problems() of the wheel's npurt/lib, unpacked (zip entries hold no symlinks)."""
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        package = os.path.join(tmp, "npurt")
        extras = [os.path.join(package, n) for n in os.listdir(package)
                  if n.startswith("_npurt") and n.endswith(".so")]
        if not extras or not os.path.isdir(os.path.join(package, "lib")):
            raise ValueError(f"{wheel}: no npurt/_npurt*.so and npurt/lib in the wheel")
        names, bad = problems(os.path.join(package, "lib"), extras)
        return names, [b.replace(tmp + os.sep, "") for b in bad]


def main(argv):
    is_wheel = len(argv) == 1 and argv[0].endswith(".whl") and os.path.isfile(argv[0])
    if not argv or argv[0] in ("-h", "--help") or not (is_wheel or os.path.isdir(argv[0])):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        names, bad = wheel_problems(argv[0]) if is_wheel else problems(argv[0], argv[1:])
    except (OSError, NotElf, struct.error, ValueError, zipfile.BadZipFile) as e:
        print(f"check_library_copies: {e}", file=sys.stderr)
        return 2
    for b in bad:
        print(f"BAD {b}")
    print(f"library copies: {len(names)} libraries in {argv[0]}, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
