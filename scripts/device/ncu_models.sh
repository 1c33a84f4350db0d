#!/usr/bin/env bash
# Runs on the GPU machine: Nsight Compute counters for the kernels the models describe, one launch
# per axis point (memlab run --verify-only), clocks left alone (--clock-control none).
# Writes $OUT/ncu_<name>.csv and $OUT/ncu_<name>.json (memlab's record order = launch order).
# Usage: scripts/device/ncu_models.sh NAME KERNEL_REGEX -- MEMLAB_RUN_ARGS...
set -uo pipefail
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
name="$1"; regex="$2"; shift 3
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
ncu --clock-control none --csv --metrics "$metrics" -k "regex:$regex" \
  --log-file "$OUT/ncu_$name.csv" \
  "$BUILD/memlab" run "$@" --verify-only --seed 1 --json "$OUT/ncu_$name.json" >"$OUT/ncu_$name.log" 2>&1
echo "ncu $name: exit $? ($(grep -c '"' "$OUT/ncu_$name.csv") csv lines)"
