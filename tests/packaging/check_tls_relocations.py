#!/usr/bin/env python3
"""Checks the thread-local-storage relocations of ELF shared libraries.

Why: GNU gold (which Bazel's auto-configured Linux toolchain passes as
-fuse-ld=gold) mis-links initial-exec accesses to internal-linkage TLS
variables of a shared library when the same library also reaches a
local TLS variable through __tls_get_addr: the R_X86_64_TPOFF64 dynamic
relocations of those variables then name an empty, undefined .dynsym entry
with addend 0 instead of the variable (GNU ld writes symbol 0 plus the
variable's offset), so the loader resolves every one of them to offset 0 of
the library's TLS block: the variables alias each other and whatever lives
there. In libnpurt (wave 10) the sim's copy-elision counter shard pointer
and the cube prefetcher's state pointer (both `tls_model("initial-exec")`)
became one word, the prefetcher wrote its ~370-byte state over a 16-byte
counter shard, and the heap corruption crashed the stream worker later, in
launch_regions (docs/embedding-build.md).

Rule: every TLS dynamic relocation (x86-64 DTPMOD64/DTPOFF64/TPOFF64/TPOFF32,
AArch64 TLS_DTPMOD64/DTPREL64/TPREL64/TLSDESC) that names a symbol must name
a defined or a named one (symbol index 0 plus an addend is GNU ld's form for a
local variable, a section symbol gold's for a module id). The ELF file is
parsed here, so no binutils are needed.

--no-gold also fails every library gold linked (its .note.gnu.gold-version
section), sound relocations or not: tools/build_checks.sh passes it for every
shared object Bazel built, so a Bazel .so that does not go through
runtime/shared_object.bzl (GNU ld) is caught before it grows a thread-local.

Exit status: 0 when every library passes, 1 when one has a bad relocation
(or, with --no-gold, was linked by gold), 2 on usage errors (not an ELF64
little-endian file, unreadable).
Usage: check_tls_relocations.py [--no-gold] LIBRARY [LIBRARY...]
"""
import struct
import sys

# (e_machine, relocation type) -> name, for the TLS types checked.
TLS_TYPES = {
    (62, 16): "R_X86_64_DTPMOD64",
    (62, 17): "R_X86_64_DTPOFF64",
    (62, 18): "R_X86_64_TPOFF64",
    (62, 23): "R_X86_64_TPOFF32",
    (183, 1028): "R_AARCH64_TLS_DTPMOD64",
    (183, 1029): "R_AARCH64_TLS_DTPREL64",
    (183, 1030): "R_AARCH64_TLS_TPREL64",
    (183, 1031): "R_AARCH64_TLSDESC",
}
SHT_RELA, SHT_DYNSYM = 4, 11
GOLD_NOTE = b".note.gnu.gold-version"


class NotElf(Exception):
    pass


def sections(data):
    """Section headers as dicts (name_off, type, offset, size, link, entsize)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NotElf("not a little-endian ELF64 file")
    machine = struct.unpack_from("<H", data, 18)[0]
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    out = []
    for i in range(shnum):
        name_off, typ, _, _, off, size, link, _, _, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        out.append({"name_off": name_off, "type": typ, "offset": off, "size": size, "link": link,
                    "entsize": entsize})
    return machine, out


def unusable_symbols(data, secs, index):
    """Per symbol of section `index` (a symbol table): True for an entry that
    is undefined and has no name (what gold's bad relocations point at; a
    section symbol or any defined or named symbol is a real target)."""
    symtab = secs[index]
    strtab = secs[symtab["link"]]
    out = []
    for off in range(symtab["offset"], symtab["offset"] + symtab["size"], symtab["entsize"] or 24):
        name_off, _, _, shndx = struct.unpack_from("<IBBH", data, off)
        start = strtab["offset"] + name_off
        named = data[start:data.index(b"\0", start)] != b""
        out.append(shndx == 0 and not named)
    return out


def linked_by_gold(data, secs):
    """True when the file has gold's version note (gold adds it to every link)."""
    shstrndx, = struct.unpack_from("<H", data, 62)
    if shstrndx == 0 or shstrndx >= len(secs):
        return False
    names = secs[shstrndx]["offset"]
    return any(data[names + s["name_off"]:data.index(b"\0", names + s["name_off"])] == GOLD_NOTE
               for s in secs)


def bad_tls_relocations(path, no_gold=False):
    """The library's TLS relocations that name an unnamed symbol (and, with
    no_gold, a gold link), as strings."""
    with open(path, "rb") as f:
        data = f.read()
    machine, secs = sections(data)
    bad = []
    if no_gold and linked_by_gold(data, secs):
        bad.append("linked by GNU gold (.note.gnu.gold-version), which mis-relocates TLS: "
                   "build it with runtime/shared_object.bzl's shared_object()")
    for sec in secs:
        if sec["type"] != SHT_RELA or secs[sec["link"]]["type"] != SHT_DYNSYM:
            continue
        unusable = unusable_symbols(data, secs, sec["link"])
        for off in range(sec["offset"], sec["offset"] + sec["size"], sec["entsize"] or 24):
            r_offset, r_info, addend = struct.unpack_from("<QQq", data, off)
            kind = TLS_TYPES.get((machine, r_info & 0xFFFFFFFF))
            sym = r_info >> 32
            if kind and sym != 0 and (sym >= len(unusable) or unusable[sym]):
                bad.append(f"{kind} at {r_offset:#x} names .dynsym entry {sym}, undefined and unnamed "
                           f"(addend {addend}): resolves to offset 0 of the TLS block")
    return bad


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    no_gold = argv[0] == "--no-gold"
    argv = argv[1:] if no_gold else argv
    if not argv:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    failed = 0
    for path in argv:
        try:
            bad = bad_tls_relocations(path, no_gold)
        except (OSError, NotElf, struct.error, ValueError) as e:
            print(f"check_tls_relocations: {path}: {e}", file=sys.stderr)
            return 2
        for b in bad:
            print(f"BAD {path}: {b}")
        failed += bool(bad)
        if bad:
            print(f"{path}: relink with GNU ld (-fuse-ld=bfd): gold mis-relocates "
                  "initial-exec TLS variables of internal linkage")
    print(f"tls relocations: {len(argv) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
