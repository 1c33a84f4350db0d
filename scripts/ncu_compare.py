#!/usr/bin/env python3
"""Compares Nsight Compute counters with memlab's models and with memlab's own timings.

Usage: scripts/ncu_compare.py NCU_CSV MEMLAB_JSON [--memlab build-ci/memlab] > table.md
       scripts/ncu_compare.py --timing TIMED_JSON... --ncu NCU_CSV... [--min-us 100] > table.md

Timing mode (scripts/device/verify.sh ncu): memlab's median of every record >= --min-us against
the sum of ncu's gpu__time_duration over the kernels launched inside the record's NVTX range
("memlab:EXPERIMENT/VARIANT/POINT", renamed by ncu --print-nvtx-rename kernel), and the record's
useful bytes against dram__bytes_read.sum + dram__bytes_write.sum.

Each profiled launch is matched, in order, with the records of the verify-only run (one launch
per variant and axis point). For coalescing kernels the model's sectors per request
(memlab model coalescing) is compared with l1tex sectors / requests; for shared-memory kernels
the model's passes per request (memlab model banks) with wavefronts / instructions.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


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
    if "--timing" in sys.argv:
        from ncu_timing import timing_main
        return timing_main(sys.argv[1:])
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("json")
    ap.add_argument("--memlab", default="build-ci/memlab")
    a = ap.parse_args()
    launches = read_ncu(a.csv)
    records = [r for r in json.load(open(a.json))["records"] if r["verified"]]
    banks = []
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
        elif rec["experiment"] == "bank_conflicts":
            banks.append((rec, k))
    if banks:
        print()
        print("| variant | point | model passes/request | ncu wavefronts/instruction | "
              "model conflicts/request | ncu conflicts/instruction | agree |")
        print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for rec, k in banks:
        p = rec["params"]
        point = " ".join(f"{key}={v}" for key, v in p.items())
        args = {"stride1": ["--pattern", "stride", "--stride", "1"],
                "strided": ["--pattern", "stride", "--stride", p["stride"]],
                "col_32x32": ["--pattern", "column", "--width", "32"],
                "col_32x33": ["--pattern", "column", "--width", "33"],
                "broadcast": ["--pattern", "broadcast"]}[rec["variant"]]
        m = model(a.memlab, "banks", *args, "--elem-size", p["word"])
        op = "ld" if p["op"] == "read" else "st"
        wav = k.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum", 0)
        inst = k.get(f"smsp__sass_inst_executed_op_shared_{op}.sum", 0)
        conf = k.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum", 0)
        got = ratio(wav, inst)
        want = m["passes"]
        agree = "exact" if abs(got - want) < 0.01 * want else f"{got / want:.3f}x"
        print(f"| {rec['variant']} | {point} | {want} | {got:.3f} | {want - m['min_passes']} | "
              f"{ratio(conf, inst):.3f} | {agree} |")


if __name__ == "__main__":
    main()
