#!/usr/bin/env bash
# Fair baselines (issue 14): NVIDIA's cuda-samples matrixMul (0_Introduction/matrixMul, the same
# 32 x 32 shared-memory tiling as memlab's tiled32) and transpose (6_Performance/transpose: naive,
# coalesced = memlab's smem, optimized = smem_padded, coarse-grained) beside memlab's variants on
# the same GPU in the same call. Nothing of cuda-samples is copied into memlab: the samples are
# built from a cuda-samples checkout, here or on the GPU machine.
#   Here (build only):   CUDA_SAMPLES=/path/to/cuda-samples scripts/device/baselines.sh --build
#                        (binaries into .device/baselines/, which stage.sh's .device carries;
#                        run it after stage.sh, which empties .device)
#   GPU machine:         BUILD=.device OUT=/tmp/memlab-out scripts/device/baselines.sh
#                        (uses $BUILD/baselines/*; else builds from $CUDA_SAMPLES if set)
# Writes $OUT/baselines.json: per pair the sample's figure, memlab's, and memlab / sample; the
# logs beside it. matrixMul at 4096 (300 launches back to back, warm L2) against memlab's
# `run matmul -a m=4096 -a n=4096 -a k=4096` (cold L2, median); the transpose sample caps its
# size near 1024 x 1024 (4 MiB: L2-resident, 100 launches back to back), so memlab runs it at
# 1024 x 1024 with --warm (and its batch figure) beside the cold 4096 x 4096 numbers.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-.device}"
OUT="${OUT:-/tmp/memlab-out}"
ARCH="${ARCH:-sm_90}"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"

build() {  # build DIR: matrixMul and transpose from $CUDA_SAMPLES into DIR
  local dir=$1 s=${CUDA_SAMPLES:-}
  [ -n "$s" ] && [ -f "$s/Samples/0_Introduction/matrixMul/matrixMul.cu" ] || {
    echo "baselines: set CUDA_SAMPLES to a cuda-samples checkout (github.com/NVIDIA/cuda-samples)" >&2
    return 2
  }
  mkdir -p "$dir"
  "$NVCC" -O3 -arch="$ARCH" -I"$s/Common" -o "$dir/matrixMul" \
    "$s/Samples/0_Introduction/matrixMul/matrixMul.cu" || return 1
  "$NVCC" -O3 -arch="$ARCH" -I"$s/Common" -o "$dir/transpose" \
    "$s/Samples/6_Performance/transpose/transpose.cu" || return 1
  (cd "$s" && git rev-parse HEAD 2>/dev/null) >"$dir/cuda-samples.commit" || true
  echo "baselines: built $dir/matrixMul and $dir/transpose" >&2
}

if [ "${1:-}" = "--build" ]; then
  build "${2:-.device/baselines}"
  exit $?
fi

. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
mkdir -p "$OUT"
bin="$BUILD/baselines"
if [ ! -x "$bin/matrixMul" ] || [ ! -x "$bin/transpose" ]; then
  bin="$OUT/baselines-bin"
  build "$bin" >"$OUT/baselines_build.log" 2>&1 || echo "baselines: samples not built (see baselines_build.log)" >&2
fi
[ -x "$BUILD/memlab" ] || { echo "baselines: $BUILD/memlab not found (scripts/device/stage.sh)" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$OUT/baselines_gpu.txt" 2>&1

# Interleaved, three rounds: sample, memlab, sample, ... so that clocks and temperature drift
# hit both alike.
for round in 1 2 3; do
  [ -x "$bin/matrixMul" ] && timeout 120 "$bin/matrixMul" -wA=4096 -hA=4096 -wB=4096 -hB=4096 \
    >"$OUT/baselines_matrixMul_$round.log" 2>&1
  timeout 240 "$BUILD/memlab" run matmul -v naive,tiled16,tiled32 -a m=4096 -a n=4096 -a k=4096 \
    --seed "$round" --json "$OUT/baselines_matmul_$round.json" >"$OUT/baselines_matmul_$round.log" 2>&1
  [ -x "$bin/transpose" ] && timeout 120 "$bin/transpose" \
    >"$OUT/baselines_transpose_$round.log" 2>&1
  timeout 120 "$BUILD/memlab" run transpose -a rows=1024 -a cols=1024 --warm --seed "$round" \
    --json "$OUT/baselines_transpose_warm_$round.json" >"$OUT/baselines_transpose_warm_$round.log" 2>&1
  timeout 120 "$BUILD/memlab" run transpose -a rows=4096 -a cols=4096 --seed "$round" \
    --json "$OUT/baselines_transpose_cold_$round.json" >"$OUT/baselines_transpose_cold_$round.log" 2>&1
done

python3 - "$OUT" <<'PY'
import glob, json, os, re, statistics, sys
out = sys.argv[1]

def sample_values(pattern, regex):
    vals = {}
    for path in sorted(glob.glob(os.path.join(out, pattern))):
        for line in open(path, errors="replace"):
            m = re.search(regex, line)
            if m:
                vals.setdefault(m.group(1).strip() if m.lastindex > 1 else "matrixMul", []).append(
                    float(m.group(m.lastindex)))
    return vals

def memlab_values(pattern, key):
    vals = {}
    for path in sorted(glob.glob(os.path.join(out, pattern))):
        try:
            recs = json.load(open(path))["records"]
        except (OSError, ValueError, KeyError):
            continue
        for r in recs:
            if r.get("timed"):
                vals.setdefault(r["variant"], []).append(r[key])
                if key == "gbps" and r.get("batch"):
                    vals.setdefault(r["variant"] + " (batch)", []).append(
                        r["bytes"] / (r["batch"]["median_ms"] * 1e-3) / 1e9)
    return vals

med = lambda v: statistics.median(v) if v else None
mm = sample_values("baselines_matrixMul_*.log", r"Performance=\s*([0-9.]+) GFlop/s")
tr = sample_values("baselines_transpose_[0-9].log",
                   r"transpose (.+?), Throughput = ([0-9.]+) GB/s")
ml_mm = memlab_values("baselines_matmul_*.json", "gflops")
ml_warm = memlab_values("baselines_transpose_warm_*.json", "gbps")
ml_cold = memlab_values("baselines_transpose_cold_*.json", "gbps")
pairs = []
def pair(what, sample, memlab, unit):
    s, m = med(sample), med(memlab)
    pairs.append({"pair": what, "unit": unit, "sample": s, "memlab": m,
                  "memlab_over_sample": (m / s) if s and m else None,
                  "sample_runs": sample or [], "memlab_runs": memlab or []})
pair("matrixMul 4096 vs memlab tiled32", mm.get("matrixMul"), ml_mm.get("tiled32"), "GFLOP/s")
pair("matrixMul 4096 vs memlab tiled16", mm.get("matrixMul"), ml_mm.get("tiled16"), "GFLOP/s")
for sample_name, variant in [("naive", "naive"), ("coalesced", "smem"), ("optimized", "smem_padded"),
                             ("coarse-grained", "padded_coarse"), ("simple copy", "copy")]:
    for suffix in ("", " (batch)"):
        pair(f"transpose {sample_name} vs memlab {variant}{suffix} 1024 warm",
             tr.get(sample_name), ml_warm.get(variant + suffix), "GB/s")
json.dump({"pairs": pairs, "memlab_transpose_4096_cold_gbps": {k: med(v) for k, v in ml_cold.items()},
           "memlab_matmul_4096_gflops": {k: med(v) for k, v in ml_mm.items()},
           "transpose_sample_gbps": {k: med(v) for k, v in tr.items()}},
          open(os.path.join(out, "baselines.json"), "w"), indent=1)
for p in pairs:
    print(f"{p['pair']}: sample {p['sample']} memlab {p['memlab']} {p['unit']}", file=sys.stderr)
PY
