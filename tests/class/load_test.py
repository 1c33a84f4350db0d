#!/usr/bin/env python3
"""A bounded load test of the class lab (issue 22 #6): LEARNERS simulated learners join with the
class code and work for DURATION seconds at a student's pace: page loads (the bundle, the
exercise, their attempts, the queue) every few seconds, a check every THINK seconds (a few
eager learners more often), each check followed by polling its job. Without a GPU the checks
compile on the CPU and end "no CUDA device"; with one they run (--sources: exercises/*/*.cu).

Eager learners send --burst checks at once; the first of each burst counts for fairness (the
others wait behind the other learners by design: round-robin), the rest are reported.
Asserts: no lost or duplicated attempt (every acknowledged attempt in the export exactly once,
no other rows), bounded server memory (RSS), fairness (no learner's mean wait above twice the
mean wait of all, plus TOLERANCE seconds for sub-second noise), p99 page latency < 200 ms.
Writes the summary (per-learner waits) to --out.

Usage: load_test.py MEMLAB_SERVE [--learners 40] [--duration 300] [--out FILE] [--sources DIR]
Env: MEMLAB_LOAD_S overrides --duration (a quick local run: MEMLAB_LOAD_S=20)."""
import argparse
import glob
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time

import classlab

PAGES = ["/", "/api/exercises", "/api/exercises/{ex}", "/api/me", "/api/queue", "/api/attempts"]


class Learner:
    def __init__(self, name, eager):
        self.name, self.eager = name, eager
        self.token = None
        self.waits, self.burst_waits, self.page_ms, self.acked, self.jobs = [], [], [], [], []
        self.errors, self.refused = [], 0


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))] if xs else 0.0


def run_learner(base, me, sources, end, think, rnd, burst):
    def page(path):
        t0 = time.perf_counter()
        st, body, hdr = classlab.request(base, "GET", path, me.token)
        me.page_ms.append((time.perf_counter() - t0) * 1e3)
        return st, body
    next_check = time.time() + rnd.uniform(1, think)
    while time.time() < end:
        exercise, source = rnd.choice(sources)
        page(rnd.choice(PAGES).format(ex=exercise))
        if time.time() < next_check:
            time.sleep(rnd.uniform(1.0, 3.0))
            continue
        next_check = time.time() + rnd.uniform(0.5 * think, 1.5 * think) / (4 if me.eager else 1)
        # An eager learner sends a burst (checks of different exercises in several tabs).
        picks = [(exercise, source)]
        if me.eager and burst > 1:
            picks = rnd.sample(sources, min(burst, len(sources)))
        jobs = []
        for exercise, source in picks:
            st, body, hdr = classlab.request(base, "POST", "/api/exercises/%s/check" % exercise,
                                             me.token, {"source": source})
            if st == 400 and isinstance(body, dict) and body.get("attempt_id"):
                me.acked.append(body["attempt_id"])
            elif st == 429:
                me.refused += 1
                time.sleep(float(hdr.get("Retry-After", "1")))
            elif st != 202:
                me.errors.append("check: HTTP %d %s" % (st, str(body)[:200]))
            else:
                jobs.append(body["job"])
                me.jobs.append(body["job"])
        for n, job in enumerate(jobs):
            while True:  # the page polls its job once a second
                time.sleep(1.0)
                st, j = page("/api/jobs/" + job)
                if st != 200:
                    me.errors.append("job %s: HTTP %d" % (job, st))
                    break
                if j["state"] in ("queued", "running"):
                    continue
                if j["state"] == "superseded":
                    break
                if j["state"] != "done" or j["result"].get("attempt_id") is None:
                    me.errors.append("job %s ended %s" % (job, j["state"]))
                else:
                    me.acked.append(j["result"]["attempt_id"])
                    # The first of a burst is what every learner waits for; the rest queue
                    # behind the other learners by design (round-robin).
                    (me.waits if n == 0 else me.burst_waits).append(j.get("wait_s", 0.0))
                break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("serve_bin")
    ap.add_argument("--learners", type=int, default=40)
    ap.add_argument("--duration", type=float, default=300)
    ap.add_argument("--think", type=float, default=30, help="mean seconds between checks")
    ap.add_argument("--eager", type=int, default=4, help="learners who check 4x as often")
    ap.add_argument("--burst", type=int, default=3, help="checks an eager learner sends at once")
    ap.add_argument("--tolerance", type=float, default=0.25)
    ap.add_argument("--rss-mib", type=float, default=256)
    ap.add_argument("--sources", default="", help="exercises/ folder: use its *.cu files")
    ap.add_argument("--out", default="")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if os.environ.get("MEMLAB_LOAD_S"):
        a.duration = float(os.environ["MEMLAB_LOAD_S"])
    rnd = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="memlab-load-")
    folder = work + "/class"
    c = classlab.init_class(a.serve_bin, folder, "load", [])
    server = classlab.Server(a.serve_bin, folder)
    base = server.base
    learners = [Learner("Learner %02d" % i, i < a.eager) for i in range(a.learners)]
    for me in learners:  # every learner joins from "the browser", as a room does
        st, body, _ = classlab.request(base, "POST", "/api/class/join",
                                       body={"code": c["code"], "name": me.name})
        if st != 200:
            print("join failed: %d %s" % (st, body))
            return 1
        me.token = body["token"]
    if a.sources:
        sources = [(os.path.basename(os.path.dirname(p)), open(p).read())
                   for p in sorted(glob.glob(os.path.join(a.sources, "*", "*.cu")))]
    else:
        st, ex, _ = classlab.request(base, "GET", "/api/exercises/smem_reverse_static")
        sources = [("smem_reverse_static", ex["starter"]),
                   ("smem_reverse_static", ex["starter"] + "\n// tried again\n"),
                   ("smem_reverse_static", "not a kernel at all;\n")]
    rss, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            rss.append(server.rss_kib())
            stop.wait(2)
    sampler = threading.Thread(target=sample)
    sampler.start()
    t0 = time.time()
    end = t0 + a.duration
    threads = [threading.Thread(target=run_learner,
                                args=(base, me, sources, end, a.think, random.Random(rnd.random()),
                                      a.burst))
               for me in learners]
    for t in threads:
        t.start()
    for t in threads:
        t.join(a.duration + 600)
    stop.set()
    sampler.join()
    teacher = c["teacher"]
    st, rows, _ = classlab.request(base, "GET", "/api/class/export.json", teacher)
    server.stop()

    failures = []
    acked = [x for me in learners for x in me.acked]
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        failures.append("duplicated attempt ids in the export")
    if len(acked) != len(set(acked)):
        failures.append("an attempt acknowledged twice")
    missing = set(acked) - set(ids)
    extra = set(ids) - set(acked)
    if missing:
        failures.append("lost: %d acknowledged attempts not in the export" % len(missing))
    if extra:
        failures.append("%d attempts in the export that no learner saw acknowledged" % len(extra))
    by_learner = {r["id"]: r["learner"] for r in rows}
    for me in learners:
        if any(by_learner.get(x) not in (None, me.name) for x in me.acked):
            failures.append("%s: an attempt recorded under another learner" % me.name)
        failures += ["%s: %s" % (me.name, e) for e in me.errors]
    waits = [w for me in learners for w in me.waits]
    mean_wait = statistics.mean(waits) if waits else 0.0
    per_learner = {}
    for me in learners:
        # Fairness on each learner's median wait: a learner who is served later than the others
        # time after time has a high median; one wait behind another learner's long compile (a
        # learner with few checks, one of them 1.8 s on a busy 2-core machine) moves only the mean.
        m = statistics.mean(me.waits) if me.waits else 0.0
        med = statistics.median(me.waits) if me.waits else 0.0
        per_learner[me.name] = {"eager": me.eager, "checks": len(me.waits),
                                "attempts": len(me.acked), "refused_429": me.refused,
                                "mean_wait_s": round(m, 4), "median_wait_s": round(med, 4),
                                "max_wait_s": round(max(me.waits), 4) if me.waits else 0.0,
                                "burst_waits_s": [round(w, 3) for w in me.burst_waits]}
        if med > 2 * mean_wait + a.tolerance:
            failures.append("unfair: %s's median wait is %.3f s, the mean of all waits %.3f s" %
                            (me.name, med, mean_wait))
    pages = [x for me in learners for x in me.page_ms]
    p99 = percentile(pages, 99)
    if p99 >= 200:
        failures.append("p99 page latency %.1f ms >= 200 ms" % p99)
    rss_max = max(rss) / 1024.0 if rss else 0.0
    if rss_max > a.rss_mib:
        failures.append("server RSS %.1f MiB > %.0f MiB" % (rss_max, a.rss_mib))
    if len(waits) < min(a.learners, 10):
        failures.append("only %d checks went through the queue: nothing was tested" % len(waits))
    summary = {"learners": a.learners, "duration_s": a.duration, "attempts": len(ids),
               "queued_checks": len(waits), "mean_wait_s": round(mean_wait, 4),
               "max_wait_s": round(max(waits), 4) if waits else 0.0,
               "pages": len(pages), "p50_page_ms": round(percentile(pages, 50), 2),
               "p99_page_ms": round(p99, 2), "rss_mib_first": round(rss[0] / 1024.0, 1) if rss else 0,
               "rss_mib_max": round(rss_max, 1),
               "rss_mib_by_quarter": [round(rss[min(len(rss) - 1, len(rss) * q // 4)] / 1024.0, 1)
                                      for q in (1, 2, 3, 4)] if rss else [],
               "devices": sorted({r["device"] for r in rows}),
               "statuses": {s: sum(1 for r in rows if r["status"] == s)
                            for s in sorted({r["status"] for r in rows})},
               "per_learner": per_learner, "failures": failures[:50], "ok": not failures}
    if a.out:
        with open(a.out, "w") as f:
            json.dump(summary, f, indent=1)
    brief = {k: v for k, v in summary.items() if k != "per_learner"}
    print(json.dumps(brief, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
