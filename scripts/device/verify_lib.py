#!/usr/bin/env python3
"""Helpers of scripts/device/verify.sh (the one entry point on the GPU machine). Subcommands:

  gtest-list BINARY [FILTER]        one full test name a line, from BINARY --gtest_list_tests
  gtest-merge DIR OUT.json PART     one JSON from the per-test runs in DIR (N.json, N.log, N.rc,
                                    N.name): passed / failed / skipped per test, the failing output
  sanitize-merge DIR OUT.json       per tool and test: compute-sanitizer's error count, exit code
  run-summary PART RC SECONDS RUN.json OUT.json [LOG]   a `memlab run` part (suite, quick)
  json-summary PART RC SECONDS OUT.json [KEY=FILE...]   a part whose JSON embeds other files
  serve-probe PORT TOKEN SOLUTION.cu OUT.json            the web lab's API as the front end uses it
  ncu-summary OUT.json TABLE.json   memlab against ncu per kernel, printed one line each

Every summary holds {"part", "ok", "rc", "seconds"} first; verify.sh prints one line per part.
"""
import glob
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request


def load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def text(path, limit=None):
    try:
        with open(path, errors="replace") as f:
            s = f.read()
    except OSError:
        return ""
    return s if limit is None or len(s) <= limit else "...\n" + s[-limit:]


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def gtest_list(binary, flt=""):
    """Parses --gtest_list_tests: 'Suite.' lines, then '  Test  # GetParam() = ...' lines."""
    import subprocess
    args = [binary, "--gtest_list_tests"] + ([f"--gtest_filter={flt}"] if flt else [])
    out = subprocess.run(args, capture_output=True, text=True, timeout=120).stdout
    suite = ""
    for line in out.splitlines():
        if not line.strip() or line.startswith("Running main"):
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            print(suite + line.split("#")[0].strip())


def gtest_merge(d, out, part):
    tests, counts = [], {"passed": 0, "failed": 0, "skipped": 0}
    for name_file in sorted(glob.glob(os.path.join(d, "*.name")), key=lambda p: int(
            os.path.basename(p).split(".")[0])):
        base = name_file[:-len(".name")]
        name = text(name_file).strip()
        rc_text = text(base + ".rc").strip()
        rc = int(rc_text) if rc_text.lstrip("-").isdigit() else None
        report = load(base + ".json")
        entry = {"name": name, "rc": rc}
        found = None
        for suite in (report or {}).get("testsuites", []):
            for t in suite.get("testsuite", []):
                if f"{suite['name']}.{t['name']}" == name:
                    found = t
        if found is not None:
            entry["seconds"] = float(str(found.get("time", "0s")).rstrip("s") or 0)
            failures = [f.get("failure", "") for f in found.get("failures", [])]
            if failures:
                entry["status"] = "failed"
                entry["failures"] = failures
            elif found.get("result") == "SKIPPED":
                entry["status"] = "skipped"
                m = re.search(r"Skipped\n(.*?)\n", text(base + ".log"), re.S)
                entry["reason"] = m.group(1).strip() if m else ""
            else:
                entry["status"] = "passed" if rc == 0 else "failed"
        else:
            entry["status"] = "failed"
            entry["failures"] = ["no gtest report: the process ended early (crash, timeout "
                                 f"124/137, or a sticky CUDA error), exit {rc}"]
        if entry["status"] == "failed":
            entry["output"] = text(base + ".log", 6000)
        counts[entry["status"]] += 1
        tests.append(entry)
    not_run = [l for l in text(os.path.join(d, "not_run.txt")).splitlines() if l]
    doc = {"part": part, "ok": counts["failed"] == 0 and not not_run and bool(tests),
           **counts, "not_run": not_run, "tests": tests}
    write(out, doc)
    print(f"{part}: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} "
          f"skipped, {len(not_run)} not run (out of time)")
    for t in tests:
        if t["status"] == "failed":
            print(f"  FAILED {t['name']}: {(t.get('failures') or [''])[0].splitlines()[:1]}")


def sanitize_merge(d, out):
    rows, errors = [], 0
    for log in sorted(glob.glob(os.path.join(d, "*.log"))):
        base = log[:-len(".log")]
        body = text(log)
        # memcheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards displayed
        # (E errors, W warnings)".
        m = re.findall(r"ERROR SUMMARY: (\d+) error", body) or re.findall(
            r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?", body)
        n = int(m[-1]) if m else None
        rc_text = text(base + ".rc").strip()
        rc = int(rc_text) if rc_text.lstrip("-").isdigit() else None
        tool, name = text(base + ".name").strip().split(" ", 1)
        gtest_ok = "[  PASSED  ]" in body and "[  FAILED  ]" not in body
        ok = n == 0 and rc == 0 and gtest_ok
        errors += (n or 0)
        row = {"tool": tool, "test": name, "errors": n, "rc": rc, "ok": ok}
        if not ok:
            row["output"] = "\n".join(l for l in body.splitlines() if l.startswith("=========")
                                      or "FAILED" in l)[-6000:] or body[-3000:]
        rows.append(row)
    not_run = [l for l in text(os.path.join(d, "not_run.txt")).splitlines() if l]
    bad = [r for r in rows if not r["ok"]]
    doc = {"part": "sanitize", "ok": bool(rows) and not bad and not not_run,
           "errors": errors, "runs": len(rows), "not_ok": len(bad), "not_run": not_run,
           "results": rows}
    write(out, doc)
    by_tool = {}
    for r in rows:
        t = by_tool.setdefault(r["tool"], [0, 0])
        t[0] += 1
        t[1] += 0 if r["ok"] else 1
    for tool, (n, b) in by_tool.items():
        print(f"sanitize {tool}: {n} tests, {b} with errors or failures")
    for r in bad:
        print(f"  {r['tool']} {r['test']}: errors {r['errors']}, exit {r['rc']}")
    if not_run:
        print(f"  not run: {len(not_run)} ({not_run[0][:100]})")


def run_summary(part, rc, seconds, run_json, out, log=None):
    run = load(run_json)
    recs = (run or {}).get("records", [])
    summary = {
        "records": len(recs),
        "timed": sum(1 for r in recs if r.get("timed")),
        "skipped": sum(1 for r in recs if r.get("skipped") or r.get("status") == "skipped"),
        "failed_checks": [f"{r['experiment']}/{r['variant']} {r.get('params')}" for r in recs
                          if not r.get("skipped") and r.get("verified") is False
                          and not r.get("expected_failure")],
        "expected_failures": sum(1 for r in recs if r.get("expected_failure")),
    }
    ok = rc == 0 and run is not None and not summary["failed_checks"]
    doc = {"part": part, "ok": ok, "rc": rc, "seconds": seconds, **summary, "run": run}
    if run is None and log:
        doc["output"] = text(log, 6000)
    write(out, doc)
    print(f"{part}: exit {rc} in {seconds} s, {summary['records']} records, {summary['timed']} "
          f"timed, {summary['skipped']} skipped, {len(summary['failed_checks'])} failed checks")
    for f in summary["failed_checks"][:20]:
        print(f"  FAILED {f}")


def json_summary(part, rc, seconds, out, pairs):
    doc = {"part": part, "ok": rc == 0, "rc": rc, "seconds": seconds}
    for p in pairs:
        key, path = p.split("=", 1)
        doc[key] = load(path) if path.endswith(".json") else text(path, 20000)
    write(out, doc)
    print(f"{part}: exit {rc} in {seconds} s")


def serve_probe(port, token, solution_path, out_path):
    base = f"http://127.0.0.1:{port}"

    def call(method, path, body=None, with_token=True):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if with_token:
            req.add_header("X-Memlab-Token", token)
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    for _ in range(50):  # the server's start
        try:
            call("GET", "/api/info")
            break
        except (urllib.error.URLError, ConnectionError, ValueError):
            time.sleep(0.2)
    doc, ok = {}, True
    status, info = call("GET", "/api/info")
    doc["info"] = {"http": status, "device": (info.get("device") or {}).get("name")}
    status, bad = call("POST", "/api/runs", {"experiments": ["bandwidth"], "quick": True}, False)
    doc["run_without_token"] = {"http": status, "error": bad.get("error")}
    ok &= status == 401
    status, job = call("POST", "/api/runs", {"experiments": ["bandwidth", "transpose"],
                                             "quick": True})
    start, state = time.time(), {}
    while status == 202 and time.time() - start < 150:
        time.sleep(1)
        _, state = call("GET", f"/api/runs/{job['id']}")
        if state.get("state") in ("done", "failed", "cancelled"):
            break
    records = state.get("records") or {}
    recs = records.get("records", []) if isinstance(records, dict) else records
    doc["run"] = {"http": status, "state": state.get("state"), "records": len(recs),
                  "verified": sum(1 for r in recs if r.get("verified")),
                  "seconds": round(time.time() - start, 1)}
    ok &= state.get("state") == "done" and bool(recs)
    source = open(solution_path).read()
    checks = []
    for _ in range(10):
        # A check is a job in the one GPU queue (issue 22): 202, then GET /api/jobs/<id>.
        t = time.time()
        status, r = call("POST", "/api/exercises/smem_reverse_static/check", {"source": source})
        job = r.get("job") if status == 202 else None
        while job and time.time() - t < 120:
            time.sleep(0.2)
            _, j = call("GET", f"/api/jobs/{job}")
            if j.get("state") not in ("queued", "running"):
                r = j.get("result") or {"status": j.get("state")}
                break
        checks.append({"http": status, "status": r.get("status"), "s": round(time.time() - t, 1),
                       "limits": r.get("limits")})
    doc["checks"] = checks
    ok &= all(c["http"] == 202 and c["status"] == "passed" for c in checks)
    doc["ok"] = bool(ok)
    write(out_path, doc)
    print(json.dumps({k: v for k, v in doc.items() if k != "checks"}))
    print("checks:", [c["status"] for c in checks])
    return 0 if ok else 1


def ncu_summary(out, table_json):
    rows = load(table_json, {}).get("rows", [])
    for r in rows:
        ncu = "-" if r.get("ncu_us") is None else f"{r['ncu_us']:9.1f}"
        diff = "-" if r.get("diff_pct") is None else f"{r['diff_pct']:+6.2f}%"
        warm = "" if r.get("warm_us") is None else f"  warm {r['warm_us']:9.1f} us"
        off = "" if r.get("offset_us") is None else f" ({r['offset_us']:+.2f} us)"
        print(f"  {r['experiment']}/{r['variant']} {r['point']}: memlab {r['memlab_us']:9.1f} us"
              f"  ncu {ncu} us  {diff}{off}{warm}  {r.get('note', '')}")


def runs_summary(out, rc, seconds, files):
    """The records of each `memlab run` plan of the runs part, one line each."""
    plans, ok = [], rc == 0 and bool(files)
    for f in files:
        doc = load(f, {})
        recs = []
        for r in doc.get("records", []):
            st = r.get("stats") or {}
            recs.append({k: r.get(k) for k in ("experiment", "variant", "params", "status",
                                                "verified", "gbps", "gflops", "pct_memcpy",
                                                "pct_fp32_peak", "speedup_over_baseline",
                                                "notes")} | {"median_ms": st.get("median_ms"),
                                                             "rel_stdev": st.get("relative_stdev")})
            if r.get("status") not in ("timed", "skipped"):
                ok = False
            pts = ",".join(f"{k}={v}" for k, v in sorted((r.get("params") or {}).items()))
            ms = st.get("median_ms")
            print(f"  {r.get('experiment')}/{r.get('variant')} [{pts}] {r.get('status')}: "
                  + (f"{ms:.4f} ms, {r.get('gbps', 0):.0f} GB/s, {r.get('gflops', 0):.0f} GFLOP/s, "
                     f"{r.get('pct_memcpy', 0):.1f}% memcpy, {r.get('pct_fp32_peak', 0):.1f}% FP32"
                     if ms else "; ".join(r.get("notes") or [])))
        plans.append({"file": os.path.basename(f), "records": recs})
    write(out, {"part": "runs", "ok": ok, "rc": rc, "seconds": seconds, "plans": plans})
    print(f"runs: {len(plans)} plans; ok={ok}")


PROFILE_METRICS = [
    "gpu__time_duration.sum", "launch__grid_size", "launch__block_size",
    "launch__registers_per_thread", "launch__shared_mem_per_block_dynamic",
    "launch__shared_mem_per_block_static", "launch__cluster_size",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum",
    "dram__bytes_write.sum", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct", "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__warps_eligible.avg.per_cycle_active", "smsp__warps_active.avg.per_cycle_active",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__inst_executed.sum", "lts__t_sector_hit_rate.pct",
    "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
]


def _num(v):
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return v


def profile_summary(out, rc, seconds, pairs):
    """Per profiled kernel (ncu --page raw --csv), the figures that name a limiter."""
    import csv
    import re
    kernels = []
    for pair in pairs:
        name, path = pair.split("=", 1)
        try:
            rows = list(csv.reader(open(path, newline="")))
        except OSError:
            continue
        rows = [r for r in rows if r and not r[0].startswith("==")]
        if len(rows) < 2:
            continue
        head, body = rows[0], rows[1:]
        if body and body[0] and body[0][0] == "":
            body = body[1:]  # the units row
        for r in body:
            d = dict(zip(head, r))
            k = {"plan": name, "kernel": d.get("Kernel Name", "")[:160]}
            for m in PROFILE_METRICS:
                if m in d:
                    k[m] = _num(d[m])
            stalls = {c: _num(v) for c, v in d.items()
                      if re.match(r"smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$", c)}
            stalls = {c: v for c, v in stalls.items() if isinstance(v, float)}
            k["top_stalls"] = {c.replace("smsp__average_warps_issue_stalled_", "").replace(
                "_per_issue_active.ratio", ""): round(v, 3) for c, v in
                sorted(stalls.items(), key=lambda x: -x[1])[:6]}
            pipes = {c: _num(v) for c, v in d.items()
                     if re.match(r"sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active$", c)}
            pipes = {c: v for c, v in pipes.items() if isinstance(v, float)}
            k["top_pipes"] = {c.replace("sm__pipe_", "").replace(
                "_cycles_active.avg.pct_of_peak_sustained_active", ""): round(v, 1) for c, v in
                sorted(pipes.items(), key=lambda x: -x[1])[:4]}
            kernels.append(k)
            us = k.get("gpu__time_duration.sum")
            print(f"  {name} {k['kernel'][:70]}: "
                  f"{(us or 0) / 1e3 if isinstance(us, float) else us} us, "
                  f"dram {k.get('gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', k.get('dram__throughput.avg.pct_of_peak_sustained_elapsed'))}%, "
                  f"sm {k.get('sm__throughput.avg.pct_of_peak_sustained_elapsed')}%, "
                  f"occ {k.get('sm__warps_active.avg.pct_of_peak_sustained_active')}%, "
                  f"regs {k.get('launch__registers_per_thread')}, stalls {k['top_stalls']}, "
                  f"pipes {k['top_pipes']}")
    write(out, {"part": "profile", "ok": rc == 0 and bool(kernels), "rc": rc,
                "seconds": seconds, "kernels": kernels})
    print(f"profile: {len(kernels)} kernels profiled; exit {rc}")


# One SASS instruction of cuobjdump -sass: /*offset*/ [@predicate] OPCODE[.MODIFIERS] operands ;
SASS_LINE = re.compile(
    r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)\s*([^;]*);")


def sass_stats(text):
    """Per kernel of `cuobjdump -sass` output: the instruction mix and the FFMA's operand reuse.

    For each function: instructions (NOPs left out), the count per opcode (its first name, e.g.
    FFMA, LDS), the wide shared loads (LDS.128), and of the FFMA's register source operands (RZ
    left out) how many carry the .reuse flag (read from the operand reuse cache, not the register
    file), and how many FFMA read three registers none of which is reused and all of the same index
    parity (a heuristic for a register-bank conflict, not a measured stall)."""
    kernels, name, cur = {}, None, None
    for line in text.splitlines():
        m = re.search(r"Function\s*:\s*(\S+)", line)
        if m:
            name = m.group(1)
            cur = None if name in kernels else kernels.setdefault(name, {
                "instructions": 0, "opcodes": {}, "lds128": 0, "ffma": 0, "ffma_reg_sources": 0,
                "ffma_reused_sources": 0, "ffma_3_same_parity_unreused": 0})
            continue
        m = SASS_LINE.search(line)
        if cur is None or not m:
            continue
        op, mods, operands = m.group(1), m.group(2), m.group(3)
        if op == "NOP":
            continue
        cur["instructions"] += 1
        cur["opcodes"][op] = cur["opcodes"].get(op, 0) + 1
        if op == "LDS" and ".128" in mods:
            cur["lds128"] += 1
        if op != "FFMA":
            continue
        cur["ffma"] += 1
        regs = re.findall(r"\b(R(\d+)|RZ)(\.reuse)?", operands)[1:]  # sources: after the dest
        regs = [(int(n), bool(r)) for full, n, r in regs if full != "RZ"]
        cur["ffma_reg_sources"] += len(regs)
        cur["ffma_reused_sources"] += sum(1 for _, r in regs if r)
        plain = [n for n, r in regs if not r]
        if len(plain) == 3 and len({n % 2 for n in plain}) == 1:
            cur["ffma_3_same_parity_unreused"] += 1
    for k in kernels.values():
        k["opcodes"] = dict(sorted(k["opcodes"].items(), key=lambda x: -x[1])[:12])
    return kernels


def sass_summary(out, rc, seconds, sass_path, res_path, pattern):
    text = open(sass_path, errors="replace").read() if os.path.exists(sass_path) else ""
    kernels = {n: k for n, k in sass_stats(text).items() if re.search(pattern, n)}
    res = open(res_path, errors="replace").read() if os.path.exists(res_path) else ""
    for m in re.finditer(r"Function ([^:\s]+):\s*REG:(\d+)", res):
        if m.group(1) in kernels:
            kernels[m.group(1)]["registers"] = int(m.group(2))
    for n, k in kernels.items():
        print(f"  {n[:90]}: {k['instructions']} instructions, FFMA {k['ffma']}, LDS.128 "
              f"{k['lds128']}, reused FFMA sources {k['ffma_reused_sources']} of "
              f"{k['ffma_reg_sources']}, 3 unreused same-parity {k['ffma_3_same_parity_unreused']}, "
              f"registers {k.get('registers')}")
    write(out, {"part": "sass", "ok": rc == 0 and bool(kernels), "rc": rc, "seconds": seconds,
                "pattern": pattern, "kernels": kernels})
    print(f"sass: {len(kernels)} kernels matched /{pattern}/; exit {rc}")


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "gtest-list":
        gtest_list(*args)
    elif cmd == "gtest-merge":
        gtest_merge(*args)
    elif cmd == "sanitize-merge":
        sanitize_merge(*args)
    elif cmd == "run-summary":
        run_summary(args[0], int(args[1]), int(args[2]), args[3], args[4],
                    args[5] if len(args) > 5 else None)
    elif cmd == "json-summary":
        json_summary(args[0], int(args[1]), int(args[2]), args[3], args[4:])
    elif cmd == "serve-probe":
        return serve_probe(*args)
    elif cmd == "runs-summary":
        runs_summary(args[0], int(args[1]), int(args[2]), args[3:])
    elif cmd == "profile-summary":
        profile_summary(args[0], int(args[1]), int(args[2]), args[3:])
    elif cmd == "sass-summary":
        sass_summary(args[0], int(args[1]), int(args[2]), args[3], args[4], args[5])
    elif cmd == "sass-stats":  # sass-stats FILE: the per-kernel figures as JSON (tests, by hand)
        print(json.dumps(sass_stats(open(args[0]).read()), indent=1, sort_keys=True))
    elif cmd == "ncu-summary":
        ncu_summary(*args)
    else:
        print(f"verify_lib.py: unknown subcommand {cmd}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
