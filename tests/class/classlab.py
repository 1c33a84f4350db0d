"""Helpers for the class lab's process-level tests (issue 22 #3, #6): a memlab-serve --class
started as a child process on a free loopback port, HTTP through the standard library only."""
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def init_class(serve_bin, folder, name, roster):
    """memlab class init; returns {teacher, code, learners: {name: token}}."""
    roster_file = os.path.join(os.path.dirname(folder.rstrip("/")), "roster.txt")
    with open(roster_file, "w") as f:
        f.write("\n".join(roster) + "\n")
    out = subprocess.run([serve_bin, "class", "init", folder, "--name", name, "--roster",
                          roster_file], check=True, capture_output=True, text=True).stdout
    teacher = re.search(r"teacher:\s+\S+[?#]token=([0-9a-f]{64})", out).group(1)
    code = re.search(r"class code:\s+(\S+)", out).group(1)
    learners = dict(re.findall(r"^\s{4}(\S.*?)\s+\S+[?#]token=([0-9a-f]{64})$", out, re.M))
    return {"teacher": teacher, "code": code, "learners": learners}


class Server:
    """memlab-serve serve --class FOLDER on a free port."""

    def __init__(self, serve_bin, folder, extra=()):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.proc = subprocess.Popen(
            [serve_bin, "serve", "--class", folder, "--port", str(self.port)] + list(extra),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if request(self.base, "GET", "/api/info")[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("memlab-serve exited: " + self.proc.stderr.read().decode())
            time.sleep(0.05)
        raise RuntimeError("memlab-serve did not answer within 30 s")

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()


def request(base, method, path, token=None, body=None, timeout=30):
    """(status, parsed JSON or text, headers)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if token:
        req.add_header("X-Memlab-Token", token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw, headers = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, raw, headers = e.code, e.read(), e.headers
    text = raw.decode("utf-8", "replace")
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = text
    return status, parsed, headers
