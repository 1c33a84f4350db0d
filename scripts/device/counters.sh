#!/usr/bin/env bash
# Runs on the GPU machine (one call): `memlab run --counters` against the models and against
# Nsight Compute (docs/ncu.md, "Counters in the run").
#   1. memlab run --counters over a short plan (coalescing strides, bank_conflicts layouts,
#      bandwidth, transpose, matmul), --seed 1: each record's CUPTI counters beside its model;
#   2. ncu over the same plan with --verify-only (one launch per variant and point; caches
#      flushed, clocks left alone), the same ten metrics, kernels named after memlab's NVTX range;
#   3. $OUT/counters.json: per record memlab's counters, ncu's sums over the record's kernels and
#      the model's figures, with the ratios memlab/ncu and memlab/model; $OUT/counters.md the
#      table for docs/ncu.md. Also checks the unavailable path (MEMLAB_CUPTI_LIBRARY=/nonexistent:
#      one line, exit 0, records without counters).
# Usage: BUILD=.device OUT=/tmp/memlab-out scripts/device/counters.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
NCU="${NCU:-ncu}"
mkdir -p "$OUT"
command -v "$NCU" >/dev/null 2>&1 || NCU=$(ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$BUILD/memlab" ] || { echo "counters: $BUILD/memlab not found (scripts/device/stage.sh)" >&2; exit 2; }

# One plan for all three steps (experiment and its axes), short enough for one call.
plans=(
  "coalescing -a elem=4 -a stride=1,2,4,8,32 -a bytes=64Mi"
  "bank_conflicts -a op=read -a word=4 -a stride=1,2,32"
  "bandwidth -a n=2^26"
  "transpose -a rows=4096 -a cols=4096"
  "matmul -v naive,tiled32 -a m=1024 -a n=1024 -a k=1024"
)
metrics=dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum

i=0
for p in "${plans[@]}"; do
  # shellcheck disable=SC2086
  timeout -k 5 120 "$BUILD/memlab" run $p --seed 1 --budget 0.05 --counters \
    --json "$OUT/counters_run_$i.json" >"$OUT/counters_run_$i.log" 2>&1
  echo "counters: memlab run $p --counters: exit $?" >&2
  if [ -n "$NCU" ]; then
    # shellcheck disable=SC2086
    timeout -k 5 150 "$NCU" --nvtx --print-nvtx-rename kernel --clock-control none \
      --cache-control all --csv --print-units base --metrics "$metrics" \
      --log-file "$OUT/counters_ncu_$i.csv" "$BUILD/memlab" run $p --seed 1 --verify-only \
      >"$OUT/counters_ncu_$i.log" 2>&1
    echo "counters: ncu over $p: exit $?" >&2
  fi
  i=$((i + 1))
done

# The unavailable path on a real GPU: one line, exit 0, no counters in the records.
MEMLAB_CUPTI_LIBRARY=/nonexistent/libcupti.so timeout 60 "$BUILD/memlab" run bandwidth \
  -a n=2^20 --quick --counters --json "$OUT/counters_unavailable.json" \
  >"$OUT/counters_unavailable.log" 2>&1
echo "unavailable_exit=$?" >"$OUT/counters_unavailable.exit"

python3 - "$OUT" "$metrics" <<'PY'
import csv, glob, json, os, sys
out, metrics = sys.argv[1], sys.argv[2].split(",")

def point_key(text):  # "m=1024 n=1024" or {"m": "1024", ...} -> sorted tuple
    if isinstance(text, dict):
        return tuple(sorted((k, str(v)) for k, v in text.items()))
    return tuple(sorted(tuple(t.split("=", 1)) for t in text.split() if "=" in t))

def read_ncu(path):
    sums = {}
    if not os.path.exists(path):
        return sums
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        name = row.get("Kernel Name", "")
        if not name.startswith("memlab:"):
            continue
        exp, variant, point = (name[len("memlab:"):].split("/", 2) + ["", ""])[:3]
        key = (exp, variant, point_key(point))
        try:
            v = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        per = sums.setdefault(key, {}).setdefault(row["ID"], {})
        per[row["Metric Name"]] = v
    # Sum each metric over the kernels (IDs) of the range.
    return {k: {m: sum(d.get(m, 0.0) for d in ids.values()) for m in metrics}
            for k, ids in sums.items()}

rows = []
for run in sorted(glob.glob(os.path.join(out, "counters_run_*.json"))):
    i = run.rsplit("_", 1)[1].split(".")[0]
    ncu = read_ncu(os.path.join(out, f"counters_ncu_{i}.csv"))
    try:
        report = json.load(open(run))
    except (OSError, ValueError) as e:
        rows.append({"file": run, "error": str(e)})
        continue
    for r in report["records"]:
        if r.get("status") == "skipped":
            continue
        c = r.get("counters")
        key = (r["experiment"], r["variant"], point_key(r["params"]))
        n = ncu.get(key)
        row = {"experiment": r["experiment"], "variant": r["variant"], "params": r["params"],
               "context_counters": report["context"].get("counters", ""),
               "memlab": c, "ncu": n}
        if c and n:
            row["memlab_over_ncu"] = {m: (c["metrics"][m] / n[m] if n.get(m) else None)
                                      for m in c["metrics"]}
        rows.append(row)

unavail = {}
try:
    u = json.load(open(os.path.join(out, "counters_unavailable.json")))
    log = open(os.path.join(out, "counters_unavailable.log")).read()
    unavail = {"exit": open(os.path.join(out, "counters_unavailable.exit")).read().strip(),
               "context_counters": u["context"].get("counters"),
               "lines_naming_counters": sum("--counters: unavailable" in l for l in log.splitlines()),
               "records_with_counters": sum("counters" in r for r in u["records"])}
except (OSError, ValueError, KeyError) as e:
    unavail = {"error": str(e)}
json.dump({"rows": rows, "unavailable": unavail}, open(os.path.join(out, "counters.json"), "w"),
          indent=1)

def f(x, spec=".3g"):
    return "-" if x is None else format(x, spec)

with open(os.path.join(out, "counters.md"), "w") as md:
    md.write("| experiment | variant | point | DRAM memlab | DRAM ncu | DRAM model | sectors/req memlab | ncu | model | wavefronts/access memlab | ncu | model |\n")
    md.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        if "error" in r:
            continue
        c, n = r["memlab"] or {}, r["ncu"] or {}
        pred = c.get("predicted", {})
        nd = (n.get("dram__bytes_read.sum", 0) + n.get("dram__bytes_write.sum", 0)) if n else None
        nreq = n.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") if n else None
        nsec = (n["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] / nreq) if nreq else None
        nacc = (n.get("smsp__inst_executed_op_shared_ld.sum", 0) + n.get("smsp__inst_executed_op_shared_st.sum", 0)) if n else None
        nwav = (n["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"] / nacc) if nacc else None
        point = " ".join(f"{k}={v}" for k, v in sorted(r["params"].items()))
        md.write(f"| {r['experiment']} | {r['variant']} | {point} | {f(c.get('dram_bytes'))} | {f(nd)} | "
                 f"{f(pred.get('dram_bytes'))} | {f(c.get('sectors_per_load_request'))} | {f(nsec)} | "
                 f"{f(pred.get('sectors_per_request'))} | {f(c.get('wavefronts_per_shared_access'))} | "
                 f"{f(nwav)} | {f(pred.get('wavefronts_per_request'))} |\n")
    md.write(f"\nunavailable path: {json.dumps(unavail)}\n")
print(f"counters: {len(rows)} records -> {out}/counters.json, {out}/counters.md", file=sys.stderr)
PY
