#!/usr/bin/env bash
# Time IREE modules side by side on a GPU machine with no network and no Python packages.
#
# Built on a machine with Python by
#     python bench/iree_runtime.py --targets cuda --build-only --out DIR
# which copies this script to DIR/run_gpu.sh next to the CUDA modules, their inputs and IREE's
# runtime binaries (DIR/bin). On the GPU machine, from anywhere:
#     bash DIR/run_gpu.sh                        # results into $OUT, else DIR/results
#     bash DIR/run_gpu.sh --out RESULTS --rounds 15 --iterations 100
#     bash DIR/run_gpu.sh --dry-run              # print every command, run none
# Back on the Python machine: python bench/iree_runtime.py --gpu-results RESULTS [--write]
#
# Inputs too large to carry ("random" weights of the bigger models) are first remade from their
# seed by DIR/bundle_regen.py (python3 with numpy), which checks each against its recorded sha256.
#
# Protocol (the CPU benchmark's, bench/iree_runtime.py): per model, first every variant once on
# each input family with iree-run-module, outputs saved as RESULTS/outputs/M/FAMILY/VARIANT.rN.npy
# (agreement and NaN checks happen back home); then ROUNDS rounds, each running every variant
# once in a shuffled order (seeded: same order for the same --seed) as
# `iree-benchmark-module --benchmark_min_warmup_time=0.1 --benchmark_min_time=ITERATIONSx` (warm:
# a first call pays one-time costs) on the "random" inputs; a round's
# figure is the mean ms per call. Written: RESULTS/results.md (median/min ms per variant, ratios,
# A/A = aa/iree-default, the noise of this run), RESULTS/results.json, RESULTS/raw/*.json.
#
# Options: --out DIR, --rounds N (15), --iterations K (50), --seed S (0), --device D (cuda; any
# IREE device works, e.g. local-sync to try the script on a CPU), --models a,b (all),
# --families a,b|none (all built), --bundle DIR (the folder holding manifest.tsv; default: this
# script's folder), --dry-run.
set -euo pipefail

BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RESULTS=${OUT:-}
ROUNDS=15 ITERATIONS=50 SEED=0 DEVICE=cuda MODELS=all FAMILIES=all DRY=0
FUNCTION=main_graph

usage() { sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) RESULTS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --iterations) ITERATIONS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --device) DEVICE=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --families) FAMILIES=$2; shift 2 ;;
    --bundle) BUNDLE=$(cd "$2" && pwd); shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "unknown option: $1" >&2; usage 2 ;;
  esac
done
RESULTS=${RESULTS:-$BUNDLE/results}
BENCH=$BUNDLE/bin/iree-benchmark-module
RUN=$BUNDLE/bin/iree-run-module
[ -f "$BUNDLE/manifest.tsv" ] || { echo "no manifest.tsv in $BUNDLE (use --bundle)" >&2; exit 2; }
cd "$BUNDLE"  # input paths in args/*.args are relative to the bundle

run() {  # print in dry-run mode, execute otherwise
  if [ "$DRY" = 1 ]; then printf '%q ' "$@"; echo; else "$@"; fi
}

selected() {  # selected NAME LIST: LIST is "all" or comma separated
  [ "$2" = all ] || [[ ",$2," == *",$1,"* ]]
}

models() { cut -f1 manifest.tsv | awk '!seen[$0]++' | while read -r m; do selected "$m" "$MODELS" && echo "$m"; done; }
variants() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' manifest.tsv; }
field() { awk -F'\t' -v m="$1" -v v="$2" -v c="$3" '$1 == m && $2 == v { print $c }' manifest.tsv; }
families() {  # families built for model $1 (args/M.F.args), filtered by --families
  [ "$FAMILIES" = none ] && return 0
  for f in args/"$1".*.args; do
    [ -e "$f" ] || continue
    f=${f#args/"$1".}; f=${f%.args}
    selected "$f" "$FAMILIES" && echo "$f"
  done
  return 0
}
load_args() { mapfile -t ARGS < "args/$1.$2.args"; }

shuffled() {  # variants of model $1 for round $2, in a seeded (Fisher-Yates, awk rand) order
  local key
  key=$(printf '%s' "$SEED-$1-$2" | cksum | cut -d' ' -f1)
  variants "$1" | awk -v s="$key" '{ a[NR] = $0 }
    END { srand(s); for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = a[i]; a[i] = a[j]; a[j] = t }
          for (i = 1; i <= NR; i++) print a[i] }'
}

ms_per_call() {  # the process_time row of an iree-benchmark-module JSON report, in ms
  awk -F'[:,]' '/"name": *"BM_.*process_time/ { p = 1 }
    p && /"real_time"/ { t = $2 + 0 }
    p && /"time_unit"/ { gsub(/[" ]/, "", $2); u = $2;
      s = (u == "ns") ? 1e-6 : (u == "us") ? 1e-3 : (u == "s") ? 1e3 : 1; printf "%.6f\n", t * s; exit }' "$1"
}

save_outputs() {  # model family variant
  local n dir out=()
  n=$(field "$1" "$3" 5); dir=$RESULTS/outputs/$1/$2
  [ "$DRY" = 1 ] || mkdir -p "$dir"
  for ((i = 0; i < n; i++)); do out+=("--output=@$dir/$3.r$i.npy"); done
  load_args "$1" "$2"
  local cmd=("$RUN" --device="$DEVICE" --module="$(field "$1" "$3" 3)" --function=$FUNCTION "${ARGS[@]}" "${out[@]}")
  if [ "$DRY" = 1 ]; then run "${cmd[@]}"; else "${cmd[@]}" > /dev/null; fi
}

declare -A TIMES
time_round() {  # model round
  local v raw
  load_args "$1" random
  for v in $(shuffled "$1" "$2"); do
    raw=$RESULTS/raw/$1.$v.r$2.json  # a corpus model may be "cnn/NAME"
    [ "$DRY" = 1 ] || mkdir -p "$(dirname "$raw")"
    if [ "$DRY" = 1 ]; then
      run "$BENCH" --device="$DEVICE" --module="$(field "$1" "$v" 3)" --function=$FUNCTION "${ARGS[@]}" \
        --benchmark_min_warmup_time=0.1 --benchmark_min_time="${ITERATIONS}x" --benchmark_format=json
      continue
    fi
    "$BENCH" --device="$DEVICE" --module="$(field "$1" "$v" 3)" --function=$FUNCTION "${ARGS[@]}" \
      --benchmark_min_warmup_time=0.1 --benchmark_min_time="${ITERATIONS}x" --benchmark_format=json > "$raw" 2> "$raw.log"
    TIMES[$1|$v]="${TIMES[$1|$v]:-} $(ms_per_call "$raw")"
  done
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minimum() { tr ' ' '\n' | grep . | sort -g | head -1; }

write_results() {
  local m v header="" first=1 json
  {
    echo "Device: $DEVICE ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo unknown));" \
      "$(head -1 build.txt); rounds $ROUNDS x $ITERATIONS calls; seed $SEED; $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "| model | variant | dispatches | median ms | min ms | median / iree-default | min / iree-default |"
    echo "|---|---|---:|---:|---:|---:|---:|"
  } > "$RESULTS/results.md"
  json="{\"device\": \"$DEVICE\", \"rounds\": $ROUNDS, \"iterations\": $ITERATIONS, \"seed\": $SEED, \"models\": {"
  for m in $(models); do
    local base_med base_min vjson=""
    base_med=$(echo "${TIMES[$m|iree-default]:-}" | median); base_min=$(echo "${TIMES[$m|iree-default]:-}" | minimum)
    for v in $(variants "$m"); do
      local med low list
      list=${TIMES[$m|$v]:-}; med=$(echo "$list" | median); low=$(echo "$list" | minimum)
      echo "| $m | $v | $(field "$m" "$v" 4) | $med | $low | $(awk -v a="$med" -v b="$base_med" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }') | $(awk -v a="$low" -v b="$base_min" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }') |" >> "$RESULTS/results.md"
      vjson+="${vjson:+, }\"$v\": {\"dispatches\": $(field "$m" "$v" 4), \"ms\": [$(echo "$list" | xargs | tr ' ' ',')]}"
    done
    json+="$( [ $first = 1 ] || echo ", ")\"$m\": {$vjson}"; first=0
  done
  echo "$json}}" > "$RESULTS/results.json"
  echo "(aa is a separately loaded copy of iree-default: its ratio is this run's noise)" >> "$RESULTS/results.md"
}

regen_inputs() {  # a "random" family too large to carry is replayed here (bundle_regen.py)
  compgen -G "inputs/*/random/regen.json" > /dev/null || compgen -G "inputs/*/*/random/regen.json" > /dev/null || return 0
  run python3 "$BUNDLE/bundle_regen.py" "$BUNDLE"
}

main() {
  [ "$DRY" = 1 ] || mkdir -p "$RESULTS/raw"
  [ "$DRY" = 1 ] || [ -x "$BENCH" ] || { echo "missing $BENCH" >&2; exit 2; }
  regen_inputs
  local m f v r
  for m in $(models); do
    for f in $(families "$m"); do
      for v in $(variants "$m"); do save_outputs "$m" "$f" "$v"; done
    done
    for ((r = 0; r < ROUNDS; r++)); do time_round "$m" "$r"; done
  done
  if [ "$DRY" = 1 ]; then echo "# dry run: nothing executed"; return; fi
  write_results
  cat "$RESULTS/results.md"
  echo "results: $RESULTS (results.md, results.json, raw/, outputs/)"
}

main
