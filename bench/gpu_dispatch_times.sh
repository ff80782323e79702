#!/usr/bin/env bash
# Per-dispatch GPU times of IREE CUDA modules, with Nsight Compute (ncu), on the GPU machine.
#
# Why: IREE 3.13 has no HAL-native profiling for CUDA (../shared/reference/iree-per-dispatch-timing.md),
# and whole-module times do not say which dispatch a variant wins or loses on. ncu times every
# kernel it sees (the kernels carry IREE's dispatch names) without touching the clocks
# (`--clock-control none`: the card is measured as found).
#
#     bash bench/gpu_dispatch_times.sh --bundle DIR --out FOLDER MODEL:VARIANT[,VARIANT...] ...
#     bash bench/gpu_dispatch_times.sh --module M.vmfb --function F --out FOLDER [--input=...]
#
# The first form reads a GPU bundle (bench/iree_bench_gpu.py: manifest.tsv, args/M.random.args);
# the second times one function of any module. Each run is `iree-benchmark-module
# --benchmark_min_time=ITERSx` (default 5) under ncu; the CSV (one row per kernel launch, metric
# gpu__time_duration.sum) goes to FOLDER/<model>.<variant>.csv (or <function>.csv). Back home:
# `python bench/gpu_dispatch_table.py FOLDER/*.csv` sums and compares them.
set -uo pipefail

BUNDLE="" OUTDIR="" MODULE="" FUNCTION=main_graph ITERS=5 INPUTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) BUNDLE=$(cd "$2" && pwd); shift 2 ;;
    --out) OUTDIR=$2; shift 2 ;;
    --module) MODULE=$2; shift 2 ;;
    --function) FUNCTION=$2; shift 2 ;;
    --iterations) ITERS=$2; shift 2 ;;
    --input=*) INPUTS+=("$1"); shift ;;
    *) break ;;
  esac
done
[ -n "$OUTDIR" ] && { [ -n "$BUNDLE" ] || [ -n "$MODULE" ]; } || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "ncu not found" >&2; exit 2; }
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

profile() {  # csv bench-binary module function inputs...
  local csv=$1 bench=$2 module=$3 function=$4; shift 4
  "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv --log-file "$csv" \
    "$bench" --device=cuda --module="$module" --function="$function" "$@" \
    --benchmark_min_time="${ITERS}x" > "$csv.log" 2>&1
  echo "$(basename "$csv"): exit $?, $(grep -c '"gpu__time_duration.sum"' "$csv" 2>/dev/null) kernel launches"
}

if [ -n "$MODULE" ]; then
  bench=$(command -v iree-benchmark-module)
  profile "$OUTDIR/$FUNCTION.csv" "$bench" "$MODULE" "$FUNCTION" "${INPUTS[@]}"
  exit 0
fi
cd "$BUNDLE"
# inputs too large to carry are remade first, as run_gpu.sh does (bundle_regen.py)
if compgen -G "inputs/*/random/regen.json" > /dev/null || compgen -G "inputs/*/*/random/regen.json" > /dev/null; then
  python3 bundle_regen.py . || exit 1
fi
for pair in "$@"; do
  model=${pair%%:*}
  mapfile -t args < "args/$model.random.args"
  IFS=, read -ra variants <<< "${pair#*:}"
  for variant in "${variants[@]}"; do
    module=$(awk -F'\t' -v m="$model" -v v="$variant" '$1 == m && $2 == v { print $3 }' manifest.tsv)
    [ -n "$module" ] || { echo "$model:$variant not in the bundle" >&2; continue; }
    profile "$OUTDIR/${model//\//_}.$variant.csv" "$BUNDLE/bin/iree-benchmark-module" "$module" main_graph "${args[@]}"
  done
done
