#!/usr/bin/env bash
# test-runner.sh PROGRAM [ARGS...] — the cargo runner of the Windows targets
# (CARGO_TARGET_*_PC_WINDOWS_GNU_RUNNER): runs a test program under Wine,
# with the stand-in bcryptprimitives.dll beside it (see bcryptprimitives.c).
set -euo pipefail
program=$1
here=$(cd "$(dirname "$0")" && pwd)
case "$(x86_64-w64-mingw32-objdump -f "$program" 2>/dev/null | sed -n 's/.*file format //p')" in
  pei-x86-64) cc=x86_64-w64-mingw32-gcc ;;
  pei-i386) cc=i686-w64-mingw32-gcc ;;
  *) echo "test-runner.sh: $program is not a Windows program" >&2; exit 2 ;;
esac
dll=$(dirname "$program")/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
  "$cc" -shared -O2 -o "$dll" "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
fi
export WINEDEBUG=${WINEDEBUG:--all}
exec "${WINE:-wine}" "$@"
