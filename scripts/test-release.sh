#!/usr/bin/env bash
# test-release.sh VERSION ZIP TARBALL — what a user of the release archives
# (make release, scripts/release.sh) gets: each unpacked into a scratch
# directory holds exactly the expected files, in name order, with one time
# stamp and owner 0; the tool, the extension and the Vim files are those of
# the build; README.txt names the version, shows README.md's Neovim
# snippet and states the system each needs, which the binary bears out;
# and the tool answers --version: the Linux one directly, the Windows one
# under Wine (when Wine cannot run x86_64 programs, the line says why, as
# the Makefile's other Wine tests do). One line per check; the exit status
# is 1 when any failed.
set -euo pipefail
version=$1 zip=$2 tarball=$3
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { # DESCRIPTION COMMAND... — runs the command, reports the check
  local what=$1
  shift
  if "$@"; then
    echo "release: $what: ok"
    passed=$((passed + 1))
  else
    echo "release: $what: FAILED"
    failed=$((failed + 1))
  fi
}
same() { # EXPECTED ACTUAL
  [ "$1" = "$2" ] || { printf '  expected: %s\n  got:      %s\n' "${1//$'\n'/ }" "${2//$'\n'/ }"; return 1; }
}

# The names in an archive, in archive order; its distinct (owner, time)
# stamps, one a line.
listing() {
  python3 - "$1" "$2" <<'PYTHON'
import sys, tarfile, zipfile
what, path = sys.argv[1], sys.argv[2]
if path.endswith(".zip"):
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        rows = [(i.filename, "time %04d-%02d-%02d %02d:%02d:%02d" % i.date_time) for i in infos]
else:
    with tarfile.open(path) as t:
        rows = [(i.name + ("/" if i.isdir() else ""), "owner %d:%d time %d" % (i.uid, i.gid, i.mtime)) for i in t]
for line in ([r[0] for r in rows] if what == "names" else sorted({r[1] for r in rows})):
    print(line)
PYTHON
}
members() { # TOP EXE — the expected names, sorted
  printf '%s\n' "$1/" "$1/README.txt" "$1/$2" "$1/uoanim.vsix" "$1/vim/" \
    "$1/vim/ftdetect/" "$1/vim/ftdetect/uoanim.vim" "$1/vim/syntax/" "$1/vim/syntax/uoanim.vim" | LC_ALL=C sort
}
# every line of README.md's Neovim snippet is in README.txt
has_snippet() {
  local line
  while IFS= read -r line; do
    grep -qF -- "$line" "$1" || { echo "  README.txt lacks: $line"; return 1; }
  done < <("$root/scripts/readme-snippet.sh" 'for Neovim 0.7 or later')
}
same_files() { # DIR EXE TOOL — the archive's files are the build's
  cmp "$1/$2" "$3" && cmp "$1/uoanim.vsix" "$root/dist/uoanim.vsix" &&
    cmp "$1/vim/ftdetect/uoanim.vim" "$root/editors/vim/ftdetect/uoanim.vim" &&
    cmp "$1/vim/syntax/uoanim.vim" "$root/editors/vim/syntax/uoanim.vim"
}
windows_10() { # EXE README — the import that needs Windows 10, and the README saying so
  x86_64-w64-mingw32-objdump -p "$1" | sed -n '/DLL Name: bcryptprimitives.dll/,/^$/p' | grep -qw ProcessPrng &&
    grep -q "Windows 10 or later" "$2"
}
vsix_ok() { # the extension holds its manifest and both grammars
  python3 -c 'import sys, zipfile; n = set(zipfile.ZipFile(sys.argv[1]).namelist()); sys.exit(not {"extension/package.json", "extension/syntaxes/playeranim.tmLanguage.json", "extension/syntaxes/atr.tmLanguage.json"} <= n)' "$1"
}

for kind in linux windows; do
  if [ "$kind" = linux ]; then
    archive=$tarball exe=uoanim tool=$root/dist/bin/uoanim
  else
    archive=$zip exe=uoanim.exe tool=$root/dist/bin/x86_64-windows/uoanim.exe
  fi
  top=uoanim-$version-x86_64-$kind
  name=$(basename "$archive")
  if [ ! -f "$archive" ]; then
    check "$name exists" false
    continue
  fi
  mkdir -p "$work/$kind"
  if [ "$kind" = linux ]; then
    check "$name unpacks with tar" tar -xzf "$archive" -C "$work/$kind"
  else
    check "$name unpacks with python3 -m zipfile" python3 -m zipfile -e "$archive" "$work/$kind"
  fi
  dir=$work/$kind/$top
  check "$name holds $(members "$top" "$exe" | grep -vc /$) files under $top/, in name order" \
    same "$(members "$top" "$exe")" "$(listing names "$archive")"
  stamps=$(listing stamps "$archive")
  check "$name has one stamp (${stamps//$'\n'/, })" same 1 "$(wc -l <<<"$stamps")"
  check "$name: $exe, uoanim.vsix and vim/ are the build's" same_files "$dir" "$exe" "$tool"
  check "$name: uoanim.vsix holds the extension's manifest and grammars" vsix_ok "$dir/uoanim.vsix"
  check "$name: README.txt names uoanim $version" \
    grep -qx "uoanim $version for $([ "$kind" = linux ] && echo Linux || echo Windows), x86_64.\?" "$dir/README.txt"
  check "$name: README.txt shows README.md's Neovim snippet" has_snippet "$dir/README.txt"

  if [ "$kind" = linux ]; then
    check "$name: uoanim is executable" test -x "$dir/uoanim"
    glibc=$(objdump -T "$dir/uoanim" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
    check "$name: README.txt states the GNU C library ${glibc#GLIBC_} the binary needs" \
      grep -q "GNU C library ${glibc#GLIBC_} or later" "$dir/README.txt"
    out=$("$dir/uoanim" --version 2>&1) || true
    check "$top/uoanim --version: $out" same "uoanim $version" "$out"
  else
    check "$name: README.txt has Windows line ends" grep -q $'\r$' "$dir/README.txt"
    # Rust's standard library takes ProcessPrng from bcryptprimitives.dll,
    # which Windows has from Windows 10 on
    check "$name: uoanim.exe imports ProcessPrng of bcryptprimitives.dll, README.txt says Windows 10" \
      windows_10 "$dir/uoanim.exe" "$dir/README.txt"
    if why=$("$root/scripts/wine/can-run.sh" x86_64-windows); then
      # this Wine lacks bcryptprimitives.dll: the stand-in beside the program
      x86_64-w64-mingw32-gcc -shared -O2 -o "$dir/bcryptprimitives.dll" \
        "$root/scripts/wine/bcryptprimitives.c" "$root/scripts/wine/bcryptprimitives.def" -ladvapi32
      out=$(WINEDEBUG=-all "${WINE:-wine}" "$dir/uoanim.exe" --version 2>&1 | tr -d '\r') || true
      check "$top/uoanim.exe --version (under Wine): $out" same "uoanim $version" "$out"
    else
      echo "release: $top/uoanim.exe --version is not run: $why"
    fi
  fi
done
echo "release: $passed passed, $failed failed"
[ "$failed" = 0 ]
