#!/usr/bin/env python3
"""kill -9 at random moments (issue 22 #3): memlab-serve --class takes checks from a few
learners, is killed with SIGKILL, restarted, again and again. Every attempt a learner saw
acknowledged (a job's result with attempt_id, or a compile error's 400 with attempt_id) must be
there after the restart with the same status, no attempt may be half-written (each row's result
JSON parses and agrees with its columns), no job may have two attempts, and PRAGMA
integrity_check must say ok.

Usage: kill_test.py MEMLAB_SERVE [--rounds N] [--seed S]"""
import argparse
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time

import classlab


def learner_loop(base, token, sources, stop, acked, rnd):
    while not stop.is_set():
        exercise, source = rnd.choice(sources)
        try:
            st, body, _ = classlab.request(base, "POST", "/api/exercises/%s/check" % exercise,
                                           token, {"source": source}, timeout=10)
            if st == 400 and isinstance(body, dict) and body.get("attempt_id"):
                acked.append((token, body["attempt_id"], body["status"]))
                continue
            if st != 202:
                time.sleep(0.2)
                continue
            job = body["job"]
            while not stop.is_set():
                st, j, _ = classlab.request(base, "GET", "/api/jobs/" + job, token, timeout=10)
                if st == 200 and j["state"] not in ("queued", "running"):
                    if j["state"] == "done" and j["result"].get("attempt_id"):
                        acked.append((token, j["result"]["attempt_id"], j["result"]["status"]))
                    break
                time.sleep(0.05)
        except OSError:
            return  # the server is gone: this round is over for this learner


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("serve_bin")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    work = tempfile.mkdtemp(prefix="memlab-kill-")
    folder = work + "/class"
    names = ["Learner%d" % i for i in range(6)]
    c = classlab.init_class(a.serve_bin, folder, "kill -9", names)
    tokens = list(c["learners"].values())
    probe = classlab.Server(a.serve_bin, folder)
    st, ex, _ = classlab.request(probe.base, "GET", "/api/exercises/smem_reverse_static")
    starter = ex["starter"]
    probe.stop()
    sources = [("smem_reverse_static", starter),
               ("smem_reverse_static", starter + "\n// edited\n"),
               ("smem_reverse_static", "this is not a kernel;\n"),
               ("vecadd_gridstride", "__global__ void nope() {}\n")]
    acked = []
    for r in range(a.rounds):
        server = classlab.Server(a.serve_bin, folder, ["--checks-per-minute", "600"])
        stop = threading.Event()
        threads = [threading.Thread(target=learner_loop,
                                    args=(server.base, t, sources, stop, acked,
                                          random.Random(rnd.random())))
                   for t in tokens]
        for t in threads:
            t.start()
        time.sleep(rnd.uniform(0.3, 2.5))
        server.kill9()
        stop.set()
        for t in threads:
            t.join(30)
        print("round %d: %d acknowledged so far" % (r, len(acked)), flush=True)
    # Restart once more and look every acknowledged attempt up through the API.
    server = classlab.Server(a.serve_bin, folder)
    failures = []
    for token, attempt_id, status in acked:
        st, body, _ = classlab.request(server.base, "GET", "/api/attempts/%d" % attempt_id, token)
        if st != 200:
            failures.append("attempt %d: HTTP %d after restart" % (attempt_id, st))
        elif body["status"] != status:
            failures.append("attempt %d: status %s, acknowledged %s" % (attempt_id, body["status"],
                                                                        status))
    server.stop()
    db = sqlite3.connect(folder + "/class.db")
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    rows = db.execute("SELECT id, job_id, status, result FROM attempts").fetchall()
    jobs = [r[1] for r in rows if r[1] is not None]
    for aid, _, status, result in rows:
        try:
            if json.loads(result).get("status") != status:
                failures.append("attempt %d: result JSON disagrees with its status" % aid)
        except ValueError:
            failures.append("attempt %d: result is not JSON (half-written)" % aid)
    if len(jobs) != len(set(jobs)):
        failures.append("a job has two attempts")
    if integrity != "ok":
        failures.append("integrity_check: " + integrity)
    if len(acked) < a.rounds:
        failures.append("only %d acknowledged attempts in %d rounds: nothing was tested" %
                        (len(acked), a.rounds))
    ids = [x[1] for x in acked]
    if len(ids) != len(set(ids)):
        failures.append("one attempt id acknowledged twice")
    print(json.dumps({"seed": seed, "rounds": a.rounds, "acknowledged": len(acked),
                      "rows": len(rows), "integrity_check": integrity, "failures": failures}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
