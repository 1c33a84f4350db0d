#!/usr/bin/env bash
# Issue 15's GPU checks in ONE device call on nvidia-h200-x2 (2 x H200, NV18, /usr/bin/mpirun):
#   topology (nvidia-smi topo -m, memlab info, memlab info --json), the GPU tests of p2p,
#   collectives and multi_gpu_pipeline, `memlab run p2p collectives multi_gpu_pipeline --json`,
#   `memlab run --devices all` (idle, then with a load on GPU 1: the fleet summary must name it),
#   `mpirun -np 2 memlab run` (bandwidth, and collectives bootstrapped through MPI), and the
#   yardsticks nvbandwidth and nccl-tests (built here by scripts/device/build_yardsticks.sh),
#   compared with memlab by scripts/device/multigpu_compare.py (compare.json: within 5%?).
# Staged by scripts/device/stage_multigpu.sh into BUILD (.device); results: $OUT/multigpu.tgz and
# $OUT/summary.txt. Every step has a time limit: at most ~560 s in all (expected ~300 s).
set -u
BUILD=${BUILD:-.device}
BUILD=$(cd "$BUILD" && pwd)
OUT=${OUT:-out}
mkdir -p "$OUT"
dir=$(mktemp -d)/multigpu
mkdir -p "$dir"
here=$(pwd)
# NVLink multicast stays off everywhere (memlab sets it itself; nccl-tests and torch need it too).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH="$BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# OpenMPI's libraries carried from the build machine, only where this machine lacks them.
if ldd "$BUILD/memlab" | grep -q "not found"; then
  export LD_LIBRARY_PATH="$BUILD/mpi-lib:$LD_LIBRARY_PATH"
fi
# NCCL: the Python wheel's (nvidia-nccl-cu13 holds libnccl.so.2), for memlab and nccl-tests.
nccl_dir=$(python3 -c 'import importlib.util as u; s=u.find_spec("nvidia.nccl"); print(list(s.submodule_search_locations)[0])' 2>/dev/null)
if [ -n "$nccl_dir" ] && [ -f "$nccl_dir/lib/libnccl.so.2" ]; then
  export MEMLAB_NCCL_LIBRARY="$nccl_dir/lib/libnccl.so.2"
  export LD_LIBRARY_PATH="$nccl_dir/lib:$LD_LIBRARY_PATH"
fi
summary=$dir/summary.txt
log() { echo "$*" | tee -a "$summary"; }
step() {  # step NAME SECONDS COMMAND...: runs with a limit, logs, one line in the summary
  local name=$1 limit=$2
  shift 2
  local start rc
  start=$(date +%s)
  timeout "$limit" "$@" >"$dir/$name.log" 2>&1
  rc=$?
  log "$name: exit $rc after $(($(date +%s) - start)) s"
}
ML="$BUILD/memlab"
log "memlab multigpu $(date -u +%FT%TZ) NCCL=${MEMLAB_NCCL_LIBRARY:-none}"
ldd "$ML" >"$dir/ldd.txt" 2>&1
nvidia-smi topo -m >"$dir/nvidia-smi-topo.txt" 2>&1
nvidia-smi -L >"$dir/nvidia-smi-L.txt" 2>&1
nvidia-smi nvlink -s >"$dir/nvidia-smi-nvlink.txt" 2>&1

step info 15 "$ML" info
step info_json 15 sh -c "'$ML' info --json > '$dir/info.json'"
step gpu_tests 50 "$BUILD/memlab_gpu_tests" \
  --gtest_filter='*/p2p:*/collectives:*/multi_gpu_pipeline:MultiGpu.*'
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED \]" "$dir/gpu_tests.log" | tail -n 8 >>"$summary"

step lessons 120 "$ML" run p2p collectives multi_gpu_pipeline --seed 7 --json "$dir/lessons.json"
step devices 45 "$ML" run bandwidth --quick -v elem_f4 --seed 7 --devices all \
  --json "$dir/devices.json"
# A load on GPU 1 (a device-to-device copy loop through PyTorch) while both GPUs run the plan:
# the fleet summary must name GPU 1 as the slowest.
python3 - >"$dir/load.log" 2>&1 <<'PY' &
import time, torch
a = torch.empty(2**30, dtype=torch.uint8, device="cuda:1"); b = torch.empty_like(a)
end = time.time() + 40
while time.time() < end:
    for _ in range(20): b.copy_(a)
    torch.cuda.synchronize(1)
PY
load=$!
sleep 8  # torch's start-up
step devices_loaded 45 "$ML" run bandwidth --quick -v elem_f4 --seed 7 --devices all \
  --json "$dir/devices_loaded.json"
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null
python3 - "$dir/devices_loaded.json" >>"$summary" 2>&1 <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["fleet"]["summary"]
slow = sorted({(r["slowest"]["device"], r["slowest"]["name"]) for r in s})
print("devices_loaded: slowest per record:", slow, "max spread %.1f%%" % (100 * max(r["spread"] for r in s)))
PY

root=""
[ "$(id -u)" -eq 0 ] && root="--allow-run-as-root"
mpirun=$(command -v mpirun || echo /usr/bin/mpirun)
mpi_env="-x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x MEMLAB_NCCL_LIBRARY"
# shellcheck disable=SC2086
step mpi_bandwidth 45 "$mpirun" -np 2 $root $mpi_env "$ML" run bandwidth --quick -v elem_f4 \
  --seed 7 --json "$dir/mpi_bandwidth.json"
# shellcheck disable=SC2086
step mpi_collectives 60 "$mpirun" -np 2 $root $mpi_env "$ML" run collectives --quick --seed 7 \
  --json "$dir/mpi_collectives.json"

Y="$BUILD/yardsticks"
if [ -x "$Y/nvbandwidth" ]; then
  step nvbandwidth 60 sh -c "'$Y/nvbandwidth' -j -t device_to_device_memcpy_write_ce \
    device_to_device_memcpy_write_sm device_to_device_bidirectional_memcpy_write_ce \
    > '$dir/nvbandwidth.json'"
else
  log "nvbandwidth: not staged"
fi
for t in all_reduce all_gather reduce_scatter broadcast sendrecv; do
  if [ -x "$Y/${t}_perf" ]; then
    step "nccl_$t" 20 "$Y/${t}_perf" -b 8K -e 1G -f 8 -g 2 -c 1 -w 3 -n 20
  fi
done
step compare 15 python3 "$here/scripts/device/multigpu_compare.py" "$dir"
cat "$dir/compare.txt" >>"$summary" 2>/dev/null
cp "$summary" "$OUT/summary.txt"
tar -czf "$OUT/multigpu.tgz" -C "$(dirname "$dir")" multigpu
cat "$summary"
