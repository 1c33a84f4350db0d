#!/usr/bin/env python3
"""On the GPU machine: drive a running `memlab serve` through its HTTP API as the web lab does.

Starts a run (POST /api/runs with the token), polls it to the end, then sends ten exercise checks
in a row. Prints one line per step and writes the answers as JSON to the path given last.
Usage: serve_api.py PORT TOKEN SOLUTION.cu OUT.json
"""
import json
import sys
import time
import urllib.request

port, token, solution_path, out_path = sys.argv[1:5]
base = f"http://127.0.0.1:{port}"


def call(method, path, body=None, token_header=True):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token_header:
        req.add_header("X-Memlab-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


out = {}
status, info = call("GET", "/api/info")
print("info:", status, (info.get("device") or {}).get("name"))
status, bad = call("POST", "/api/runs", {"experiments": ["bandwidth"], "quick": True}, False)
print("run without token:", status, bad.get("error"))
status, job = call("POST", "/api/runs", {"experiments": ["bandwidth", "transpose"], "quick": True})
print("run:", status, job)
start = time.time()
state = {}
while status == 202 and time.time() - start < 150:
    time.sleep(1)
    _, state = call("GET", f"/api/runs/{job['id']}")
    if state.get("state") in ("done", "failed", "cancelled"):
        break
records = state.get("records") or {}
recs = records.get("records", []) if isinstance(records, dict) else records
print("run state:", state.get("state"), "records:", len(recs),
      "verified:", sum(1 for r in recs if r.get("verified")), f"{time.time() - start:.0f} s")
out["run"] = state
source = open(solution_path).read()
checks = []
for i in range(10):
    t = time.time()
    status, r = call("POST", "/api/exercises/smem_reverse_static/check", {"source": source})
    checks.append({"http": status, "status": r.get("status"), "s": round(time.time() - t, 1)})
    print("check", i, status, r.get("status"), f"{time.time() - t:.1f} s")
out["checks"] = checks
json.dump(out, open(out_path, "w"), indent=1)
