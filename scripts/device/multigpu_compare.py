#!/usr/bin/env python3
"""memlab's multi-GPU figures against NVIDIA's own tools on the same machine (issue 15's bar:
within 5%). Reads DIR/lessons.json (memlab run p2p collectives ...), DIR/nvbandwidth.json
(nvbandwidth -j) and DIR/nccl_<op>.log (nccl-tests' text output); writes DIR/compare.json and
DIR/compare.txt. Pairs compared:
  p2p copy_engine src=0 dst=1 size=512Mi one   <-> nvbandwidth device_to_device_memcpy_write_ce [0][1]
  p2p sm_copy     src=0 dst=1 size=512Mi one   <-> nvbandwidth device_to_device_memcpy_write_sm [0][1]
  p2p copy_engine src=0 dst=1 size=512Mi both / 2 (memlab counts both directions)
                                               <-> device_to_device_bidirectional_memcpy_write_ce [0][1]
  collectives <op> size=1Gi: memlab GB/s (algbw) x nccl-tests' bus factor
                                               <-> nccl-tests busbw (out of place) at 1073741824 B
nvbandwidth's 512 MiB is its default buffer (-b 512); nccl-tests' size is the same `size` memlab
uses (docs/collectives.md)."""
import json
import os
import sys

d = sys.argv[1]
rows = []


def load(name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def memlab_gbps(doc, exp, variant, **params):
    for r in (doc or {}).get("records", []):
        if r.get("experiment") == exp and r.get("variant") == variant and r.get("status") == "timed":
            if all(r["params"].get(k) == v for k, v in params.items()):
                return r.get("gbps")
    return None


def nvb(doc, name):
    if not doc:
        return None
    for t in doc.get("nvbandwidth", {}).get("testcases", []):
        if t.get("name") == name and "bandwidth_matrix" in t:
            try:
                return float(t["bandwidth_matrix"][0][1])
            except (ValueError, IndexError, TypeError):
                return None
    return None


def nccl_busbw(op, size=1073741824):
    try:
        with open(os.path.join(d, f"nccl_{op}.log")) as f:
            for line in f:
                tok = line.split()
                if len(tok) >= 9 and tok[0] == str(size):
                    return float(tok[7])  # out of place: time algbw busbw #wrong
    except OSError:
        pass
    return None


def add(what, memlab, nvidia, tool):
    ratio = memlab / nvidia if memlab and nvidia else None
    rows.append({"what": what, "memlab_GBps": memlab, "nvidia_GBps": nvidia, "tool": tool,
                 "ratio": ratio, "within_5pct": ratio is not None and abs(ratio - 1) <= 0.05})


lessons = load("lessons.json")
nv = load("nvbandwidth.json")
size = str(512 * 1024 * 1024)
add("p2p copy_engine 0->1 512Mi", memlab_gbps(lessons, "p2p", "copy_engine", src="0", dst="1", size=size, direction="one"),
    nvb(nv, "device_to_device_memcpy_write_ce"), "nvbandwidth write_ce")
add("p2p sm_copy 0->1 512Mi", memlab_gbps(lessons, "p2p", "sm_copy", src="0", dst="1", size=size, direction="one"),
    nvb(nv, "device_to_device_memcpy_write_sm"), "nvbandwidth write_sm")
both = memlab_gbps(lessons, "p2p", "copy_engine", src="0", dst="1", size=size, direction="both")
add("p2p copy_engine 0<->1 512Mi per direction", both / 2 if both else None,
    nvb(nv, "device_to_device_bidirectional_memcpy_write_ce"), "nvbandwidth bidirectional write_ce")
factor = {"all_reduce": 1.0, "all_gather": 0.5, "reduce_scatter": 0.5, "broadcast": 1.0, "send_recv": 1.0}
for op, f in factor.items():  # 2 ranks
    g = memlab_gbps(lessons, "collectives", op, size=str(1 << 30))
    add(f"collectives {op} 1Gi busbw", g * f if g else None,
        nccl_busbw("sendrecv" if op == "send_recv" else op),
        f"nccl-tests {op.replace('_', '') if op == 'send_recv' else op}_perf")
with open(os.path.join(d, "compare.json"), "w") as f:
    json.dump(rows, f, indent=2)
with open(os.path.join(d, "compare.txt"), "w") as f:
    for r in rows:
        fmt = lambda v: "-" if v is None else f"{v:.1f}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}"
        f.write(f"{r['what']:<45} memlab {fmt(r['memlab_GBps']):>7}  {r['tool']:<38} "
                f"{fmt(r['nvidia_GBps']):>7}  ratio {ratio} {'ok' if r['within_5pct'] else 'CHECK'}\n")
print(open(os.path.join(d, "compare.txt")).read(), end="")
