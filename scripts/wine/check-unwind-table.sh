#!/usr/bin/env bash
# check-unwind-table.sh PROGRAM.exe — an x86_64 Windows program's function
# table (.pdata) is what the unwinder needs: entries sorted by start address,
# none overlapping the next. (A unit whose table entries point at the wrong
# code loses the unwinder of the engine's longjmp out of Com_Error.)
set -euo pipefail
exe=$1
x86_64-w64-mingw32-objdump -p "$exe" | awk -v exe="$exe" '
  /The Function Table/ { table = 1; next }
  table && $1 ~ /^[0-9a-f]+:$/ && length($2) == 16 && length($3) == 16 {
    # as strings: awk reads a field like 00000001400220e0 as the number
    # 1400220 (an exponent), and compares two of them numerically
    begin = $2 ""; end = $3 ""; n++
    if (n > 1 && begin < prev_end) {
      printf "%s: unwind table entry %d [%s, %s) starts before the end of the one before (%s)\n", exe, n, begin, end, prev_end
      bad = 1
    }
    prev_end = end
  }
  END {
    if (n == 0) { printf "%s: no function table\n", exe; exit 1 }
    exit bad
  }'
