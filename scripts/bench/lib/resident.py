#!/usr/bin/env python3
"""resident.py PID — what of a process's RSS it uses, and what the kernel mapped around it.

Prints one line of KEY VALUE pairs (MiB, one decimal; a share in %):
  anon            RssAnon: heap, stacks, malloc, written copies of file pages
  file            RssFile: pages of mapped files (the executable, libraries, an AOT cache)
  referenced      pages of any kind whose accessed bit was set since `echo 1 > /proc/PID/clear_refs`
                  (the caller clears them when its window begins): the working set of that window
  whole_blocks    of the resident file pages, the share lying in 64 KiB-aligned blocks of 16 pages
                  that are resident whole. A read fault on a file mapping makes Linux map up to
                  16 pages around it that are already in the page cache (fault-around,
                  fault_around_bytes, 64 KiB by default), so a share near 100 % says RssFile counts
                  the pages around each one touched, not only the touched ones.

Needs root (pagemap, smaps of another user's process). Reads only /proc.
"""
import re
import struct
import sys

PAGE = 4096
BLOCK = 16  # pages in fault-around's default 64 KiB


def mib(kib):
    return f"{kib / 1024:.1f}"


def rollup(pid):
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup_file:
        for line in rollup_file:
            key, _, rest = line.partition(":")
            if rest.strip().endswith("kB"):
                values[key] = int(rest.split()[0])
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(("RssAnon:", "RssFile:")):
                key, rest = line.split(":")
                values[key] = int(rest.split()[0])
    return values


def file_mappings(pid):
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5].startswith("/") and fields[4] != "0":
                start, end = (int(x, 16) for x in fields[0].split("-"))
                yield start, end


def whole_block_share(pid):
    resident = in_whole = 0
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for start, end in file_mappings(pid):
            first = start // PAGE
            pagemap.seek(first * 8)
            data = pagemap.read((end - start) // PAGE * 8)
            blocks = {}
            for i in range(len(data) // 8):
                if struct.unpack_from("<Q", data, i * 8)[0] >> 63:
                    blocks[(first + i) // BLOCK] = blocks.get((first + i) // BLOCK, 0) + 1
            resident += sum(blocks.values())
            in_whole += sum(n for n in blocks.values() if n == BLOCK)
    return 100.0 * in_whole / resident if resident else 0.0


def main():
    if len(sys.argv) != 2 or not re.fullmatch(r"[0-9]+", sys.argv[1]):
        sys.exit("usage: resident.py PID")
    pid = sys.argv[1]
    values = rollup(pid)
    print(f"anon {mib(values['RssAnon'])} file {mib(values['RssFile'])} "
          f"referenced {mib(values['Referenced'])} whole_blocks {whole_block_share(pid):.0f}")


if __name__ == "__main__":
    main()
