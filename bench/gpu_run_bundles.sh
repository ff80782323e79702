#!/usr/bin/env bash
# Run GPU bundles (bench/iree_bench_gpu.py) model by model under one deadline, then pack every
# result folder into one archive.
#
# Why: a lent GPU machine gives a fixed number of device seconds and returns at most a few files,
# so the most important models go first, each in its own results folder (a model cut off by the
# deadline loses only itself), and everything comes back as RESULTS.tgz.
#
#     bash bench/gpu_run_bundles.sh --deadline SECONDS --archive RESULTS.tgz \
#         [--rounds N] [--iterations K] [--families a,b] [--device D] [--dry-run] BUNDLE:MODEL[,MODEL...] ...
#
# Each BUNDLE:MODELS pair runs `BUNDLE/run_gpu.sh --models MODEL --out WORK/<model>` in the order
# given (a model "cnn/x" writes WORK/cnn_x). Back home, per folder:
# `python bench/iree_runtime.py --gpu-results FOLDER`.
set -uo pipefail

DEADLINE=420 ARCHIVE="" PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --deadline) DEADLINE=$2; shift 2 ;;
    --archive) ARCHIVE=$2; shift 2 ;;
    --rounds|--iterations|--families|--seed|--device) PASS+=("$1" "$2"); shift 2 ;;
    --dry-run) PASS+=("$1"); shift ;;
    *) break ;;
  esac
done
[ -n "$ARCHIVE" ] && [ $# -gt 0 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

WORK=$(mktemp -d)
END=$((SECONDS + DEADLINE))
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1; } > "$WORK/device.txt"
for pair in "$@"; do
  bundle=${pair%%:*}
  IFS=, read -ra models <<< "${pair#*:}"
  for model in "${models[@]}"; do
    left=$((END - SECONDS))
    if [ "$left" -le 5 ]; then echo "skipped (deadline): $model" | tee -a "$WORK/skipped.txt"; continue; fi
    start=$SECONDS
    timeout "$left" bash "$bundle/run_gpu.sh" --models "$model" --out "$WORK/${model//\//_}" "${PASS[@]}" \
      > "$WORK/${model//\//_}.log" 2>&1
    echo "$model: exit $? in $((SECONDS - start)) s" | tee -a "$WORK/summary.txt"
  done
done
tar czf "$ARCHIVE" -C "$WORK" .
echo "archive: $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1))"
