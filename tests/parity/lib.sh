# lib.sh -- what pa/run.sh and at/run.sh share: finding the game data, telling
# the cases that need it, and comparing the outputs with the stored ones.
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
