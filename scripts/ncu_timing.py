"""memlab's timings and useful bytes against Nsight Compute (the timing mode of ncu_compare.py).

Reads memlab JSON reports (timed runs) and ncu CSV logs written with
  ncu --nvtx --print-nvtx-rename kernel --csv --print-units base
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
and prints a markdown table. Kernels are matched to records by their NVTX range name, never by
launch order; kernels outside any memlab range (input generation) are ignored.
"""
import argparse
import csv
import json
import sys

# Lessons whose records are not one kernel's time: copies (no kernel for ncu), several streams
# overlapping (ncu serialises kernels), host-side event timing.
NOT_COMPARABLE = {
    "transfers": "copies, no kernel",
    "streams": "overlapping streams; ncu serialises kernels",
    "default_stream": "overlapping streams; ncu serialises kernels",
    "events": "host-side timing of API calls",
}

TIME_UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
              "second": 1e9, "s": 1e9}
BYTE_UNITS = {"byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
              "KB": 1e3, "MB": 1e6, "GB": 1e9}


def point_key(experiment, variant, params):
    """The one spelling of a record: params as sorted k=v pairs (JSON objects are unordered)."""
    return (experiment, variant, tuple(sorted(params)))


def parse_range(name):
    """'memlab:coalescing/strided_read/bytes=1 stride=2' -> key, or None."""
    at = name.find("memlab:")
    if at < 0:
        return None
    body = name[at + len("memlab:"):].strip().strip('"').rstrip("/")
    parts = body.split("/", 2)
    if len(parts) != 3:
        return None
    # ncu --print-nvtx-rename kernel appends "/<kernel signature>" to the range's name: the point
    # ends at the first "/" (a point label holds none).
    point = parts[2].split("/", 1)[0]
    pairs = [tuple(kv.split("=", 1)) for kv in point.split() if "=" in kv]
    return point_key(parts[0], parts[1], pairs)


def read_launches(paths):
    """[(kernel name, {metric: value in ns or bytes})], in launch order, over all logs."""
    out = []
    for path in paths:
        try:
            with open(path, newline="", errors="replace") as f:
                lines = [l for l in f if l.startswith('"')]
        except OSError as e:
            print(f"warning: {path}: {e}", file=sys.stderr)
            continue
        launches, order = {}, []
        for row in csv.DictReader(lines):
            key = row.get("ID")
            if key is None or "Metric Name" not in row:
                continue
            if key not in launches:
                launches[key] = (row.get("Kernel Name", ""), {})
                order.append(key)
            unit = row.get("Metric Unit", "")
            try:
                value = float(row["Metric Value"].replace(",", ""))
            except (ValueError, KeyError):
                continue
            value *= TIME_UNITS.get(unit, BYTE_UNITS.get(unit, 1.0))
            launches[key][1][row["Metric Name"]] = value
        out += [launches[k] for k in order]
    return out


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"warning: {path}: {e}", file=sys.stderr)
        return None


def timing_main(argv):
    ap = argparse.ArgumentParser(prog="ncu_compare.py --timing")
    ap.add_argument("--timing", nargs="+", required=True, help="memlab run --json reports")
    ap.add_argument("--ncu", nargs="+", required=True, help="ncu CSV logs")
    ap.add_argument("--min-us", type=float, default=100.0)
    ap.add_argument("--time-tolerance", type=float, default=0.02)
    ap.add_argument("--bytes-tolerance", type=float, default=0.03)
    ap.add_argument("--warm", nargs="*", default=[],
                    help="memlab run --warm reports of the same points (a column beside cold)")
    ap.add_argument("--json", help="also write the rows as JSON here (scripts/device/verify.sh)")
    a = ap.parse_args(argv)

    warm = {}
    for path in a.warm:
        for r in (load_report(path) or {}).get("records", []):
            if r.get("timed"):
                params = [(k, str(v)) for k, v in r.get("params", {}).items()]
                warm[point_key(r["experiment"], r["variant"], params)] = r
    rows_json = []

    records = {}
    device = ""
    l2_mb = 0.0
    for path in a.timing:
        report = load_report(path)
        if report is None:
            continue
        dev = report.get("context", {}).get("device", {})
        device = dev.get("name", device)
        l2_mb = dev.get("l2_bytes", 0) / 1e6 or l2_mb
        for r in report.get("records", []):
            if not r.get("timed"):
                continue
            params = [(k, str(v)) for k, v in r.get("params", {}).items()]
            records[point_key(r["experiment"], r["variant"], params)] = r

    sums, unmatched = {}, 0
    for name, m in read_launches(a.ncu):
        key = parse_range(name)
        if key is None:
            continue
        s = sums.setdefault(key, {"ns": 0.0, "dram": 0.0, "kernels": 0})
        s["ns"] += m.get("gpu__time_duration.sum", 0.0)
        s["dram"] += m.get("dram__bytes_read.sum", 0.0) + m.get("dram__bytes_write.sum", 0.0)
        s["kernels"] += 1
    if not sums:
        print("warning: no kernel inside a memlab NVTX range (ncu without --nvtx "
              "--print-nvtx-rename kernel?)", file=sys.stderr)

    print(f"Device: {device or 'unknown'}. memlab: cold median (L2 flushed by a read-only pass);"
          f" ncu: sum of gpu__time_duration over the record's kernels (--cache-control all, "
          f"--clock-control none). Records with a median >= {a.min_us:g} us.\n")
    print("| experiment | variant | point | memlab us | ncu us | memlab/ncu | kernels "
          "| useful MB | DRAM R+W MB | DRAM/useful | note |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    n = time_ok = bytes_n = bytes_ok = skipped = 0
    worst = []
    for key in sorted(records):
        r = records[key]
        med_us = r["stats"]["median_ms"] * 1e3
        exp, var, params = key
        point = " ".join(f"{k}={v}" for k, v in params)
        s = sums.get(key)
        if med_us < a.min_us:
            # Below the bar: not judged, but kept in the JSON (a tiny kernel's memlab - ncu is
            # the event pair's fixed cost, the floor every record carries).
            if s and s["kernels"]:
                rows_json.append({"experiment": exp, "variant": var, "point": point,
                                  "memlab_us": med_us, "ncu_us": s["ns"] / 1e3,
                                  "diff_pct": 100 * (med_us / (s["ns"] / 1e3) - 1),
                                  "offset_us": med_us - s["ns"] / 1e3, "kernels": s["kernels"],
                                  "warm_us": None, "note": f"below {a.min_us:g} us: not judged"})
            continue
        note = NOT_COMPARABLE.get(exp, "")
        if s is None or s["kernels"] == 0:
            print(f"| {exp} | {var} | {point} | {med_us:.1f} | - | - | 0 | | | | "
                  f"{note or 'not profiled'} |")
            skipped += 1
            continue
        ncu_us = s["ns"] / 1e3
        ratio = med_us / ncu_us if ncu_us > 0 else float("nan")
        useful = r.get("bytes", 0.0) / 1e6
        dram = s["dram"] / 1e6
        bratio = dram / useful if useful > 0 else float("nan")
        flags = []
        if not note:
            n += 1
            if abs(ratio - 1) <= a.time_tolerance:
                time_ok += 1
            else:
                flags.append(f"time off {100 * (ratio - 1):+.1f}%")
                worst.append((abs(ratio - 1), exp, var, point))
            if useful > 0:
                bytes_n += 1
                if abs(bratio - 1) <= a.bytes_tolerance:
                    bytes_ok += 1
                elif dram < useful and useful - dram <= l2_mb:
                    bytes_ok += 1
                    flags.append(f"DRAM {useful - dram:.0f} MB short: output left dirty in the "
                                 f"{l2_mb:.0f} MB L2 when the kernel ends")
                else:
                    flags.append(f"bytes off {100 * (bratio - 1):+.1f}%")
        else:
            skipped += 1
            flags.append(note)
        print(f"| {exp} | {var} | {point} | {med_us:.1f} | {ncu_us:.1f} | {ratio:.3f} | "
              f"{s['kernels']} | {useful:.1f} | {dram:.1f} | {bratio:.3f} | {'; '.join(flags)} |")
        w = warm.get(key)
        rows_json.append({"experiment": exp, "variant": var, "point": point, "memlab_us": med_us,
                          "memlab_min_us": r["stats"]["min_ms"] * 1e3, "ncu_us": ncu_us,
                          "diff_pct": 100 * (ratio - 1), "offset_us": med_us - ncu_us,
                          "kernels": s["kernels"],
                          "warm_us": w["stats"]["median_ms"] * 1e3 if w else None,
                          "dram_over_useful": bratio, "note": "; ".join(flags)})
    print()
    print(f"**Summary**: {time_ok} of {n} comparable records within "
          f"{100 * a.time_tolerance:g}% of ncu's time; {bytes_ok} of {bytes_n} with useful bytes "
          f"within {100 * a.bytes_tolerance:g}% of DRAM bytes read + written; {skipped} rows not "
          f"comparable or not profiled.")
    for w in sorted(worst, reverse=True)[:10]:
        print(f"- worst: {w[1]} {w[2]} {w[3]}: {100 * w[0]:.1f}% off")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": device, "tolerance": a.time_tolerance, "min_us": a.min_us,
                       "comparable": n, "within": time_ok, "rows": rows_json}, f, indent=1)
    return 0 if n and time_ok == n else 1
