#!/usr/bin/env python3
"""Lists the GPU code embedded in CUDA binaries: which architectures have native code
(SASS, an ELF cubin: sm_XX) and which have PTX (compute_XX, compiled by the driver at
load time). A small stand-in for `cuobjdump --list-elf --list-ptx`, which the CUDA
toolkit here (nvcc from the pip wheels) does not include.

Reads executables, shared libraries, object files and static archives (.a): the
.nv_fatbin section of each ELF file, and the fat binaries in it.

Usage: scripts/gpu-code.py [--require-sass 80,90] FILE...
  prints one line per file; with --require-sass, exits 1 unless every file has native
  code for each listed compute capability.
"""
import argparse
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND = {1: "ptx", 2: "sass"}


def elf_sections(data):
    """Yields (name, bytes) for each section of a little-endian 64-bit ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        name, _type, _flags, _addr, offset, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        headers.append((name, _type, offset, size))
    strtab = headers[shstrndx]
    for name, stype, offset, size in headers:
        end = data.index(b"\0", strtab[2] + name)
        section_name = data[strtab[2] + name:end].decode()
        if stype != 8:  # SHT_NOBITS has no bytes in the file
            yield section_name, data[offset:offset + size]


def ar_members(data):
    """Yields the contents of each member of a System V / GNU ar archive."""
    pos = 8
    while pos + 60 <= len(data):
        size = int(data[pos + 48:pos + 58].decode().strip())
        yield data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)


def fatbin_entries(blob):
    """Yields (kind, sm) for each image in a .nv_fatbin section (one or more fat binaries)."""
    pos = 0
    while pos + 16 <= len(blob):
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", blob, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # fat binaries are 8-byte aligned in the section
            continue
        entry, end = pos + header_size, pos + header_size + fat_size
        while entry < end:
            kind, _, entry_header_size, payload_size = struct.unpack_from("<HHIQ", blob, entry)
            sm, = struct.unpack_from("<I", blob, entry + 28)
            yield KIND.get(kind, f"kind{kind}"), sm
            entry += entry_header_size + payload_size
        pos = end


def gpu_code(path):
    data = open(path, "rb").read()
    files = ar_members(data) if data[:8] == b"!<arch>\n" else [data]
    found = set()
    for member in files:
        for name, section in elf_sections(member):
            if name == ".nv_fatbin":
                found.update(fatbin_entries(section))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--require-sass", default="",
                        help="comma-separated compute capabilities that must have native code")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    required = {int(cc) for cc in args.require_sass.split(",") if cc}
    status = 0
    for path in args.files:
        try:
            found = gpu_code(path)
        except (OSError, ValueError, struct.error) as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
            status = 2
            continue
        sass = sorted(sm for kind, sm in found if kind == "sass")
        ptx = sorted(sm for kind, sm in found if kind == "ptx")
        print(f"{path}: sass {' '.join(f'sm_{sm}' for sm in sass) or '-'}; "
              f"ptx {' '.join(f'compute_{sm}' for sm in ptx) or '-'}")
        missing = required - set(sass)
        if missing:
            print(f"{path}: no native code for {', '.join(f'sm_{sm}' for sm in sorted(missing))}",
                  file=sys.stderr)
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
