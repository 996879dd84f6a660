# lib.sh -- what pa/run.sh, bg-rest/run.sh and at/run.sh share: building the
# instrument and running it on the cases, finding the game data, telling the
# cases that need it, and comparing the outputs with the stored ones.
# Sourced; uses the callers' variables out, expected (empty: the stored
# layout of <suite>/expected) and data.

# resolve_data SUITE DIR FILE... -- sets data to the directory that holds the
# suite's game files (DIR, or DIR/SUITE/stock), or to "" with data_reason
# saying why there is none.  The files must be the stock ones: their digests
# are in SUITE/data.sha256 (a changed file would fail cases, not find bugs).
resolve_data() {
    local suite=$1 dir=$2 f
    shift 2
    data_reason=""
    if [ -z "$dir" ]; then
        data="" data_reason="no game data given (make test UO_DATA=DIR)"
        return
    fi
    [ -d "$dir/$suite/stock" ] && dir="$dir/$suite/stock"
    for f in "$@"; do
        if [ ! -e "$dir/$f" ]; then
            data="" data_reason="no $f in the game data $dir"
            return
        fi
    done
    if ! (cd "$dir" && sha256sum --quiet --status -c "$lib_here/$suite/data.sha256" 2>/dev/null); then
        data="" data_reason="the game data in $dir is not the stock version ($suite/data.sha256)"
        return
    fi
    data=$(cd "$dir" && pwd)
}

# needs_data_list SUITE PATHS -- the case files of PATHS (one a line) that read
# game data (the rule of gen/needs_data.py)
needs_data_list() {
    local re
    case "$1" in
        pa) re='^(script-file|include)[ 	]' ;;
        at) re='^(atrfile|atrdir|atrx|xanimauto)[ 	].*stock/' ;;
    esac
    [ -s "$2" ] || return 0
    xargs -d '\n' grep -a -l -E "$re" < "$2" || true
}

# expected_for SUITE FLAVOUR ARCH CASE -- prints the stored file that holds the
# case's expected output (<case>.out) or its digest (<case>.sha256), most
# specific first; nothing when there is none
expected_for() {
    local suite=$1 flavour=$2 arch=$3 name=$4 d ext
    if [ -n "$expected" ]; then
        [ -f "$expected/$name.out" ] && echo "$expected/$name.out"
        return 0
    fi
    for d in "$lib_here/$suite/expected/$flavour-$arch" "$lib_here/$suite/expected/$flavour" "$lib_here/$suite/expected"; do
        for ext in out sha256; do
            if [ -f "$d/$name.$ext" ]; then echo "$d/$name.$ext"; return 0; fi
        done
    done
}

# compare_all SUITE FLAVOUR ARCH -- compares every case of $out/cases.list
# (outputs in $out/actual) with its expected output, prints the failures and
# the summary line, and exits (0 only when nothing failed). The expected
# outputs are those of ARCH, or of $PARITY_EXPECTED_ARCH when set (a target
# the suite has no outputs of the C original for is compared with another's:
# scripts/ratchet.sh)
compare_all() {
    local suite=$1 flavour=$2 arch=$3 passed=0 failed=0 skipped=0 c name path rc exp first
    while IFS=$'\t' read -r c path; do
        name=${c%.case}
        if [ -z "$data" ] && grep -qxF "$path" "$out/data.paths"; then
            skipped=$((skipped + 1))
            continue
        fi
        rc=$(cat "$out/actual/$name.rc" 2>/dev/null || echo "?")
        exp=$(expected_for "$suite" "$flavour" "${PARITY_EXPECTED_ARCH:-$arch}" "$name")
        if [ "$rc" != 0 ]; then
            echo "FAIL $name: driver exit status $rc ($(head -c 200 "$out/actual/$name.err" | tr '\n' ' '))"
            failed=$((failed + 1))
        elif [ -z "$exp" ]; then
            echo "FAIL $name: no expected output"
            failed=$((failed + 1))
        elif [ "${exp##*.}" = sha256 ]; then
            if [ "$(sha256sum < "$out/actual/$name.out" | cut -d' ' -f1)" = "$(cat "$exp")" ]; then
                passed=$((passed + 1))
            else
                echo "FAIL $name: output differs (its SHA-256 is not the one in $exp; output in $out/actual/$name.out)"
                failed=$((failed + 1))
            fi
        elif ! cmp -s "$exp" "$out/actual/$name.out"; then
            first=$(diff "$exp" "$out/actual/$name.out" | grep -m1 '^[0-9]')
            echo "FAIL $name: output differs (first hunk $first; diff $exp $out/actual/$name.out)"
            failed=$((failed + 1))
        else
            passed=$((passed + 1))
        fi
    done < "$out/cases.pairs"
    if [ "$skipped" -gt 0 ]; then
        echo "$passed passed, $failed failed, $skipped skipped (they read game data: $data_reason)"
    else
        echo "$passed passed, $failed failed, 0 skipped"
    fi
    [ "$failed" = 0 ]
    exit $?
}

lib_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# build_driver NAME CFLAGS LDLIBS -- builds the suite's instrument
# ($here/driver.c and $here/stubs.c) against $lib: on Linux $out/NAME with
# gcc $m, for darwin-arm64 ($darwin non-empty) $out/NAME as below, on a
# Windows arch ($win: x86_64 or i686) $out/NAME.exe with
# mingw-w64 ($MINGW_CC, default $win-w64-mingw32-gcc), a static PE
# executable (no DLLs beside the system's; the system libraries are those a
# Rust *-pc-windows-gnu staticlib needs, the counterpart of -lpthread -ldl
# -lm) with the Linux default 8 MiB main-thread stack. CFLAGS and LDLIBS
# are the suite's own flags (the flavour's define among them). Where the C
# library's 32-bit headers lack the kernel's asm/ directory (a Debian system
# without gcc-multilib), an i686 driver takes the 64-bit one (errno's
# constants, the same there). Sets driver, and runner: empty on Linux, Wine
# ($WINE) on Windows, where one wineserver is kept alive for the run and a
# smoke run (the usage message, exit status 2) tells a Wine that cannot run
# the target (i686 without wine32) apart from failing cases.
# darwin-arm64 (macOS on Apple Silicon): on an arm64 Mac the system cc, the
# driver run natively; elsewhere a cross build for aarch64 Linux with clang
# that models Darwin's C ABI where the dumps see it (char signed, long double
# binary64), run under qemu-user, a smoke run telling a missing emulator
# apart from failing cases. $DARWIN_CC and $DARWIN_RUNNER (the suite's
# *_CC / *_RUNNER) override the compiler and the runner.
build_driver() {
    local name=$1 cflags=$2 ldlibs=$3 extra="" cc smoke
    runner=""
    if [ -n "${darwin:-}" ]; then
        driver="$out/$name"
        if [ "$(uname -s)-$(uname -m)" = Darwin-arm64 ]; then
            cc=${DARWIN_CC:-cc}
            runner=${DARWIN_RUNNER:-}
        else
            cc=${DARWIN_CC:-clang --target=aarch64-linux-gnu -fuse-ld=lld -fsigned-char -Xclang -mlong-double-64}
            runner=${DARWIN_RUNNER:-qemu-aarch64 -L /usr/aarch64-linux-gnu}
        fi
        # shellcheck disable=SC2086  # the flags are lists of words
        if ! $cc $cflags -o "$driver" "$here/driver.c" "$here/stubs.c" "$lib" \
                $ldlibs -lpthread -ldl -lm >"$out/build.log" 2>&1; then
            cat "$out/build.log" >&2
            fail_setup "run.sh: building the driver against $lib failed"
        fi
        if [ -n "$runner" ]; then
            # shellcheck disable=SC2086
            $runner "$driver" > "$out/smoke.out" 2> "$out/smoke.err"
            smoke=$?
            if [ "$smoke" != 2 ] || ! grep -q "usage: $name" "$out/smoke.err"; then
                head -c 600 "$out/smoke.err" >&2
                fail_setup "run.sh: '$runner $driver' does not run (exit status $smoke); are qemu-user and the aarch64 C library installed?"
            fi
        fi
        return 0
    fi
    if [ -z "$win" ]; then
        driver="$out/$name"
        if [ "$m" = -m32 ] && ! echo '#include <errno.h>' | gcc -m32 -E -x c - >/dev/null 2>&1 \
            && [ -d /usr/include/x86_64-linux-gnu/asm ]; then
            extra="-idirafter /usr/include/x86_64-linux-gnu"
        fi
        # shellcheck disable=SC2086  # the flags are lists of words
        if ! gcc $m $extra $cflags -o "$driver" "$here/driver.c" "$here/stubs.c" "$lib" \
                $ldlibs -lpthread -ldl -lm >"$out/build.log" 2>&1; then
            cat "$out/build.log" >&2
            fail_setup "run.sh: building the driver against $lib failed"
        fi
        return 0
    fi
    driver="$out/$name.exe"
    cc=${MINGW_CC:-$win-w64-mingw32-gcc}
    # shellcheck disable=SC2086
    if ! $cc $cflags -o "$driver" "$here/driver.c" "$here/stubs.c" "$lib" \
            $ldlibs -static -Wl,--stack,8388608 -lntdll -luserenv -lws2_32 -ldbghelp -lm >"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        fail_setup "run.sh: building the driver against $lib failed"
    fi
    runner=${WINE:-wine}
    export WINEDEBUG=${WINEDEBUG:--all}
    ${WINESERVER:-wineserver} -p 30 >/dev/null 2>&1 || true
    $runner "$driver" > "$out/smoke.out" 2> "$out/smoke.err"
    smoke=$?
    if [ "$smoke" != 2 ] || ! grep -q "usage: $name" "$out/smoke.err"; then
        head -c 600 "$out/smoke.err" >&2
        fail_setup "run.sh: '$runner $driver' does not run (exit status $smoke); is Wine installed for $arch?"
    fi
}

# collect_cases -- the case files of the directories in casedirs:
# $out/cases.list their names, $out/cases.paths their full paths (one a
# line, same order); fails on none and on a name found twice
collect_cases() {
    local d dups
    : > "$out/cases.pairs.tmp"
    for d in "${casedirs[@]}"; do
        d=$(abs "$d")
        [ -d "$d" ] || fail_setup "run.sh: no case directory $d"
        ls "$d" | grep '\.case$' | while IFS= read -r f; do printf '%s\t%s/%s\n' "$f" "$d" "$f"; done >> "$out/cases.pairs.tmp"
    done
    sort "$out/cases.pairs.tmp" > "$out/cases.pairs"
    cut -f1 "$out/cases.pairs" > "$out/cases.list"
    cut -f2- "$out/cases.pairs" > "$out/cases.paths"
    [ -s "$out/cases.list" ] || fail_setup "run.sh: no cases in ${casedirs[*]}"
    dups=$(uniq -d "$out/cases.list" | head -3 | tr '\n' ' ')
    [ -z "$dups" ] || fail_setup "run.sh: case names occur twice: $dups"
}

# run_one CASE -- runs the driver on one case (with the words of
# $driver_args before it): $out/actual/<case>.out, .err and .rc. Under Wine
# a start that fails (exit status 1, no output, e.g. "failed to map the
# shared user data"; the drivers never exit with 1 themselves) is repeated,
# at most 3 times.
run_one() {
    local name tries=0 rc
    name=$(basename "$1" .case)
    while :; do
        # shellcheck disable=SC2086
        timeout 120 $runner "$driver" $driver_args "$1" > "$out/actual/$name.out" 2> "$out/actual/$name.err"
        rc=$?
        [ -n "$runner" ] && [ "$rc" = 1 ] && [ ! -s "$out/actual/$name.out" ] && [ "$tries" -lt 3 ] || break
        tries=$((tries + 1))
    done
    echo $rc > "$out/actual/$name.rc"
}

# run_cases PATHS -- runs every case listed in the file PATHS, $jobs at a
# time, one process each
run_cases() {
    export runner driver driver_args out
    export -f run_one
    xargs -d '\n' -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} < "$1"
}
