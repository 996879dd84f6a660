#!/usr/bin/env bash
# memcheck.sh [--short] — valgrind memcheck over the built units (dist/):
#
#   * every C test of c_tests/ (*_test.c, linked as c_tests/run.sh links them),
#   * a sample of the differential cases of tests/parity (pa game/cgame, at
#     server/client): at least 100 per suite and flavour, spread over the case
#     list; each output must still equal the expected one of the suite's store
#     (or its SHA-256 digest, where the store holds one). The cases that read
#     game data are in the sample only when UO_DATA names it (as for
#     `make test`; tests/parity/README.md "Game data"); without it the sample
#     is drawn from the others,
#   * the fuzz regression corpus through the harness (fuzz/harness/replay.c),
#
# on x86_64 and i686, with --error-exitcode (any invalid access or read of
# uninitialised memory fails) and --leak-check=full: a definitely-lost block
# fails when the library allocated it (the first frame above the allocator is
# library code; blocks the test programs' own engine stubs allocate and never
# free are theirs). --short: 4 cases per suite and flavour, the C tests and
# the corpus (what `make test` runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
short=0
[ "${1:-}" = --short ] && short=1
# the differential suites, and the game data (UO_DATA; empty: none) some of
# their cases read; lib.sh finds it and the expected outputs as run.sh does
parity=tests/parity
game_data=${UO_DATA:-}
expected=""
. "$parity/lib.sh"
arches=${ARCHES:-x86_64 i686}
per_suite=$([ $short = 1 ] && echo 4 || echo 100)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (apt-get install valgrind)"; exit 1; }
# 32-bit programs: valgrind needs the i386 C library's symbols (libc6-dbg:i386
# on Debian); installed here when missing, as root, like make's other set-up
if [[ " $arches " == *" i686 "* ]]; then
  echo 'int main(void) { return 0; }' | gcc -m32 -x c - -o "$out/probe32"
  if ! valgrind -q "$out/probe32" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "memcheck: installing libc6-dbg:i386 (valgrind needs it for i686 programs)"
      apt-get install -y libc6-dbg:i386 >/dev/null || { apt-get update >/dev/null && apt-get install -y libc6-dbg:i386 >/dev/null; }
    fi
    valgrind -q "$out/probe32" >/dev/null 2>&1 ||
      { echo "memcheck: valgrind cannot run i686 programs; run: apt-get install libc6-dbg:i386"; exit 1; }
  fi
fi

failed=0 runs=0
# check LOG NAME: the valgrind log of one run passes?
check() {
  local log=$1 name=$2
  if ! python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
bad = []
allocators = ("malloc", "calloc", "realloc", "memalign", "posix_memalign", "aligned_alloc", "strdup", "strndup")
for record in re.split(r"\n==\d+== \n", text):
    if "definitely lost" not in record:
        continue
    frames = re.findall(r"(?:at|by) 0x[0-9A-F]+: (\S+) \(([^)]*)\)", record)
    for func, where in frames:
        if func in allocators or "vgpreload" in where or where.startswith("in /usr/lib") or where.startswith("in /lib"):
            continue
        # C code of the programs (built with -g) carries file:line; library
        # code (release, no line tables) only the binary it is in
        if re.search(r"\.[ch]:\d+$", where) is None:
            bad.append(record.strip())
        break
sys.exit(1 if bad else 0)
PY
  then
    echo "MEMCHECK FAIL $name: definitely-lost memory allocated by the library"; sed 's/^/  /' "$log" | head -40
    return 1
  fi
}

vg() {
  # vg NAME LOG CMD...: runs CMD under memcheck
  local name=$1 log=$2
  shift 2
  runs=$((runs + 1))
  local rc=0
  # valgrind runs a program some tens of times slower: the C tests' time
  # limits are scaled (c_tests/reliability_test.c)
  UOANIM_TEST_TIME_SCALE=50 valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=none \
      --track-origins=no --log-file="$log" "$@" >"$log.out" 2>"$log.err" || rc=$?
  if [ $rc != 0 ]; then
    echo "MEMCHECK FAIL $name (exit status $rc):"; sed 's/^/  /' "$log" | head -40; tail -5 "$log.err" | sed 's/^/  /'
    return 1
  fi
  check "$log" "$name"
}

sample() {
  # sample N FILE...: every k-th of the files, N of them at least (all when fewer)
  local n=$1; shift
  local total=$#
  local step=$(( total / n )); [ "$step" -ge 1 ] || step=1
  local i=0
  for f in "$@"; do
    [ $((i % step)) = 0 ] && echo "$f"
    i=$((i + 1))
  done
}

for arch in $arches; do
  m=$([ "$arch" = i686 ] && echo -m32 || echo -m64)
  cflags=(-std=gnu11 $m -O1 -g -fno-short-enums -Idist/include -Ic_tests -w)
  # C tests
  for test in c_tests/*_test.c; do
    name=$(basename "$test" .c)
    libs=()
    for unit in $(sed -n 's|^// links: ||p' "$test" | head -1); do libs+=("dist/$arch/libuoanim_$unit.a"); done
    gcc "${cflags[@]}" "$test" "${libs[@]}" -Wl,--gc-sections -lpthread -ldl -lm -o "$out/$name-$arch"
    vg "$name ($arch)" "$out/$name-$arch.vg" "$out/$name-$arch" || failed=1
  done
  # the fuzz regression corpus and seeds through the harness
  for flavour in game cgame engine client; do
    case $flavour in
      game|cgame) files=(fuzz/harness/playeranim.c fuzz/harness/action.c); kind=PLAYERANIM; targets="playeranim action" ;;
      *) files=(fuzz/harness/animtree.c); kind=ANIMTREE; targets="atr xanim" ;;
    esac
    def=UOANIM_FLAVOUR_$(echo $flavour | tr a-z A-Z)
    gcc "${cflags[@]}" -Ifuzz/harness -D$def -DUOANIM_FUZZ_$kind "${files[@]}" fuzz/harness/replay.c \
      "dist/$arch/libuoanim_$flavour.a" -Wl,--gc-sections -lpthread -ldl -lm -o "$out/replay-$flavour-$arch"
    for t in $targets; do
      mapfile -t inputs < <(find "fuzz/regression/$t" "fuzz/seeds/$t" -type f 2>/dev/null | sort)
      [ ${#inputs[@]} -gt 0 ] || continue
      # the short run: a sample (valgrind makes every input slow)
      [ $short = 1 ] && mapfile -t inputs < <(sample 4 "${inputs[@]}")
      dirs=("${inputs[@]}")
      vg "corpus $t ($flavour, $arch)" "$out/corpus-$t-$flavour-$arch.vg" "$out/replay-$flavour-$arch" "$t" "${dirs[@]}" || failed=1
    done
  done
  # differential cases
  for suite in at:server at:client pa:game pa:cgame; do
    s=${suite%%:*} flavour=${suite#*:}
    here=$parity/$s
    case $suite in
      at:server) lib=engine def=; dirs=("$here/cases") ;;
      at:client) lib=client def=-DAT_FLAVOUR_CLIENT; dirs=("$here/cases" "$here/cases-client") ;;
      pa:game) lib=game def=; dirs=("$here/cases") ;;
      pa:cgame) lib=cgame def=-DPA_FLAVOUR_CGAME; dirs=("$here/cases" "$here/cases-cgame") ;;
    esac
    driver=$out/$s-$flavour-$arch
    if [ $s = at ]; then
      gcc -std=gnu11 -O1 -g -w $m $def -I"$here" "$here/driver.c" "$here/stubs.c" "dist/$arch/libuoanim_$lib.a" -lpthread -ldl -lm -o "$driver"
    else
      # the per-frame functions' imports, which the pa stubs do not define
      # (docs/ABI.md "The per-frame functions' imports")
      gcc $m $def -std=c11 -D_DEFAULT_SOURCE -O1 -g -w -o "$driver" "$here/driver.c" "$here/stubs.c" "dist/$arch/libuoanim_$lib.a" -lpthread -ldl -lm
    fi
    # the game data (as run.sh finds it) and the driver's arguments for it:
    # at reads it as stock/ under its root, pa from --data
    if [ $s = at ]; then
      resolve_data at "$game_data" animtrees looped_leaves.txt
      root_dir=$out/root-$s; rm -rf "$root_dir"; mkdir -p "$root_dir"
      [ -z "$data" ] || ln -s "$data" "$root_dir/stock"
      args=(-R "$root_dir")
    else
      resolve_data pa "$game_data" playeranim.script stock_tree.inc stock_weapons.inc
      args=(${data:+--data "$data"})
    fi
    # the cases, sorted by name (as run.sh orders them); without game data
    # those that read it are left out
    for d in "${dirs[@]}"; do ls "$d"/*.case; done |
      awk -F/ '{ n = $NF; sub(/\.case$/, "", n); print n "\t" $0 }' | sort -k1,1 | cut -f2 >"$out/$s-$flavour.paths"
    if [ -z "$data" ]; then
      needs_data_list $s "$out/$s-$flavour.paths" >"$out/$s-$flavour.data"
      grep -vxF -f "$out/$s-$flavour.data" "$out/$s-$flavour.paths" >"$out/$s-$flavour.run" || true
      [ "$arch" != "${arches%% *}" ] ||
        echo "memcheck $s $flavour: the $(wc -l <"$out/$s-$flavour.data") cases that read game data are not sampled ($data_reason); $(wc -l <"$out/$s-$flavour.run") are"
    else
      cp "$out/$s-$flavour.paths" "$out/$s-$flavour.run"
    fi
    with=()
    while IFS= read -r c; do
      if [ -n "$(expected_for $s $flavour $arch "$(basename "$c" .case)")" ]; then with+=("$c"); fi
    done <"$out/$s-$flavour.run"
    n=0 bad=0
    while IFS= read -r c; do
      name=$(basename "$c" .case)
      log=$out/$s-$flavour-$arch-$name.vg
      n=$((n + 1))
      vg "$s/$flavour $name ($arch)" "$log" "$driver" "${args[@]}" "$c" || { bad=$((bad + 1)); continue; }
      exp=$(expected_for $s $flavour $arch "$name")
      # where the store holds only the output's digest (the cases that read
      # game data), the output under valgrind passes when it has that digest;
      # otherwise it is compared, under the masks below, with the output of
      # the driver run without valgrind, which must have it
      ref=$exp
      if [ "${exp##*.}" = sha256 ]; then
        [ "$(sha256sum <"$log.out" | cut -d' ' -f1)" = "$(cat "$exp")" ] && continue
        ref=$log.native
        "$driver" "${args[@]}" "$c" >"$ref" 2>/dev/null || true
        if [ "$(sha256sum <"$ref" | cut -d' ' -f1)" != "$(cat "$exp")" ]; then
          echo "MEMCHECK FAIL $s/$flavour $name ($arch): the output differs from the expected one (its SHA-256 is not the one in $exp) also without valgrind"
          bad=$((bad + 1))
          continue
        fi
      fi
      # valgrind runs x87 arithmetic in binary64: the engine flavour's
      # long double lengths come out rounded there, so they are masked
      mask=cat
      [ "$suite" = at:server ] && mask="sed -E s/len=[^[:space:]]+[[:space:]][^[:space:]]+/len=*/g"
      # i686: the at driver names a cell value "->cK" only above 8 MiB, and
      # valgrind's heap lies lower: in cases with such links (the in-cell
      # reference list) cell values are masked
      if [ "$s" = at ] && [ "$arch" = i686 ] && grep -q -- '->c[0-9]' "$ref"; then
        mask="sed -E -e s/len=[^[:space:]]+[[:space:]][^[:space:]]+/len=*/g -e s/->c[0-9]+|0x[0-9a-f]{8}/CELL/g"
      fi
      if ! cmp -s <($mask <"$log.out") <($mask <"$ref"); then
        echo "MEMCHECK FAIL $s/$flavour $name ($arch): the output under valgrind differs from the expected one"
        bad=$((bad + 1))
      fi
    done < <(sample "$per_suite" "${with[@]}")
    echo "memcheck $s $flavour $arch: $n cases, $bad failed"
    [ $bad = 0 ] || failed=1
  done
done
echo "memcheck: $runs runs under valgrind, $([ $failed = 0 ] && echo "no errors" || echo "FAILURES")"
[ $failed = 0 ]
