#!/usr/bin/env python3
"""Compares Nsight Compute counters (scripts/device/ncu_models.sh) with memlab's models.

Usage: scripts/ncu_compare.py NCU_CSV MEMLAB_JSON [--memlab build-ci/memlab] > table.md
Each profiled launch is matched, in order, with the records of the verify-only run (one launch
per variant and axis point). For coalescing kernels the model's sectors per request
(memlab model coalescing) is compared with l1tex sectors / requests; for shared-memory kernels
the model's passes per request (memlab model banks) with wavefronts / instructions.
"""
import argparse
import csv
import json
import subprocess
import sys


def read_ncu(path):
    launches = {}
    order = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        key = row["ID"]
        if key not in launches:
            launches[key] = {"kernel": row["Kernel Name"]}
            order.append(key)
        value = row["Metric Value"].replace(",", "")
        try:
            launches[key][row["Metric Name"]] = float(value)
        except ValueError:
            pass
    return [launches[k] for k in order]


def model(memlab, *args):
    out = subprocess.run([memlab, "model", *args, "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)["result"]


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("json")
    ap.add_argument("--memlab", default="build-ci/memlab")
    a = ap.parse_args()
    launches = read_ncu(a.csv)
    records = [r for r in json.load(open(a.json))["records"] if r["verified"]]
    if len(launches) != len(records):
        print(f"warning: {len(launches)} profiled launches, {len(records)} records",
              file=sys.stderr)
    print("| experiment | variant | point | model sectors/request (warp 0) | ncu sectors/request "
          "| model DRAM read MB | ncu DRAM read MB | ncu/model DRAM |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for rec, k in zip(records, launches):
        p = rec["params"]
        point = " ".join(f"{key}={v}" for key, v in p.items())
        if rec["experiment"] in ("coalescing", "misalignment"):
            stride, offset, elem = p["stride"], p["offset"], p["elem"]
            pattern = "strided" if stride != "1" else "offset"
            m = model(a.memlab, "coalescing", "--pattern", pattern, "--stride", stride,
                      "--offset", offset, "--elem-size", elem)
            want = m["sectors"]
            got = ratio(k.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0),
                        k.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0))
            read_bytes = int(p["bytes"])
            # DRAM: 64-byte units on the H200 (memlab::model::kDramGranuleBytes).
            e, d = int(elem), int(stride) * int(elem)
            dram_model = read_bytes * min(max(d, e), 64) / e / 1e6
            dram = k.get("dram__bytes_read.sum", 0) / 1e6
            print(f"| {rec['experiment']} | {rec['variant']} | {point} | {want} | {got:.3f} | "
                  f"{dram_model:.1f} | {dram:.1f} | {ratio(dram, dram_model):.3f} |")
        else:
            ld = k.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0)
            n = k.get("smsp__sass_inst_executed_op_shared_ld.sum", 0)
            conf = k.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0)
            print(f"| {rec['experiment']} | {rec['variant']} | {point} | - | - | - | - | "
                  f"{ratio(ld, n):.3f} wavefronts/instr, {conf:.0f} conflicts |")


if __name__ == "__main__":
    main()
