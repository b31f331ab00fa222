#!/usr/bin/env bash
# tests/fuzz/run.sh: runs the fuzz harnesses (builds them first; see build.sh).
#
#   run.sh smoke [target...]  replays the committed seed corpus and regressions of every
#                             harness, then a fixed number of deterministic mutations
#                             (POSENC_FUZZ_RUNS, default 200): what `npm test` runs, through
#                             tests/fuzz.test.js
#   run.sh fuzz [target...]   fuzzes every harness for a share of POSENC_FUZZ_SECONDS
#                             (default 240 s in all): `npm run fuzz`
#   run.sh merge [target...]  adds to the committed seed corpus (tests/fuzz/corpus/) the inputs
#                             of the fuzzing corpora (tests/fuzz/build/corpus/) that reach new
#                             edges (libFuzzer -merge)
#   run.sh list               prints the targets (one per C entry point)
#
# POSENC_FUZZ_VARIANTS: "scalar simd" (default: both that exist). Exit status: 0 when every
# run was clean, 1 when any crashed or a sanitizer reported, 77 when clang is unavailable.
# New corpus entries and crash inputs go to tests/fuzz/build/ (git ignores it); a crash input
# becomes a regression by copying it to tests/fuzz/regressions/<target>/.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-smoke}
shift || true
case "$mode" in
  smoke | fuzz | merge | list) ;;
  *) echo "run.sh: unknown mode \"$mode\"; use smoke, fuzz, merge or list" >&2; exit 2 ;;
esac

rc=0
bash tests/fuzz/build.sh || rc=$?
[ "$rc" = 0 ] || exit "$rc"

out=tests/fuzz/build
variants=()
for v in ${POSENC_FUZZ_VARIANTS:-scalar simd}; do
  [ -x "$out/$v/posenc_fuzz" ] && variants+=("$v")
done
[ "${#variants[@]}" -gt 0 ] || { echo "run.sh: no harness binary built" >&2; exit 1; }
first="$out/${variants[0]}/posenc_fuzz"
all=$(POSENC_FUZZ_TARGET=list "$first")
if [ "$mode" = list ]; then echo "$all"; exit 0; fi
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || mapfile -t targets <<<"$all"

# Common libFuzzer flags: inputs up to 1 KiB (sizes come from a few bytes; longer inputs only
# fill arrays), 10 s per input at most, 2 GiB RSS. To read a lab crash input, run it with
# POSENC_FUZZ_VERBOSE=1: the harness prints the configuration of each model it builds.
common=(-max_len=1024 -timeout=10 -rss_limit_mb=2048 -print_final_stats=0)
runs=${POSENC_FUZZ_RUNS:-200}
total=${POSENC_FUZZ_SECONDS:-240}
count=$(( ${#targets[@]} * ${#variants[@]} ))
each=$(( total / count )); [ "$each" -ge 1 ] || each=1
mkdir -p "$out/crashes"

if [ "$mode" = merge ]; then
  for t in "${targets[@]}"; do
    mkdir -p tests/fuzz/corpus/"$t"
    for v in "${variants[@]}"; do
      [ -d "$out/corpus/$v/$t" ] || continue
      # edge coverage only (-use_counters=0): a seed corpus of hundreds, not thousands, of files
      POSENC_FUZZ_TARGET="$t" "$out/$v/posenc_fuzz" "${common[@]}" -merge=1 -use_counters=0 tests/fuzz/corpus/"$t" "$out/corpus/$v/$t" \
        >"$out/$v-$t-merge.log" 2>&1 || { echo "run.sh: merge of $t ($v) failed; log: $out/$v-$t-merge.log" >&2; exit 1; }
    done
    echo "run.sh: tests/fuzz/corpus/$t: $(ls tests/fuzz/corpus/"$t" | wc -l) inputs" >&2
  done
  exit 0
fi

failed=()
for v in "${variants[@]}"; do
  bin="$out/$v/posenc_fuzz"
  for t in "${targets[@]}"; do
    seeds=()
    for d in tests/fuzz/corpus/"$t" tests/fuzz/regressions/"$t"; do [ -d "$d" ] && seeds+=("$d"); done
    log="$out/$v-$t.log"
    if [ "$mode" = smoke ]; then
      work=$(mktemp -d)
      args=(-seed=1 -runs="$runs" "$work")
    else
      work="$out/corpus/$v/$t"
      mkdir -p "$work"
      args=(-max_total_time="$each" "$work")
      echo "run.sh: fuzzing $t ($v) for ${each} s" >&2
    fi
    if POSENC_FUZZ_TARGET="$t" "$bin" "${common[@]}" -artifact_prefix="$out/crashes/$v-$t-" "${args[@]}" "${seeds[@]}" >"$log" 2>&1; then
      :
    else
      failed+=("$v/$t")
      echo "run.sh: $t ($v) FAILED; log: $log" >&2
      grep -E 'posenc fuzz:|ERROR:|runtime error|SUMMARY|Test unit written' "$log" | head -8 >&2 || true
    fi
    [ "$mode" = smoke ] && rm -rf "$work"
  done
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "run.sh: ${#failed[@]} failed: ${failed[*]}" >&2
  echo "  reproduce: POSENC_FUZZ_TARGET=<target> $out/<variant>/posenc_fuzz <crash file>" >&2
  exit 1
fi
echo "run.sh: $mode: ${#targets[@]} targets x ${#variants[@]} variants clean" >&2
