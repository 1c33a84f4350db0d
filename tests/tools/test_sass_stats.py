"""verify_lib.py sass-stats on a fixture of cuobjdump -sass output: the counts the sass part
reports (issue 23: the SASS of two compiles of one loop compared)."""
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = subprocess.run([sys.executable, os.path.join(root, "scripts/device/verify_lib.py"),
                      "sass-stats", os.path.join(root, "tests/tools/sass_fixture.txt")],
                     check=True, capture_output=True, text=True).stdout
k = json.loads(out)
got = k["_Z6kernelPf"]
want = {"instructions": 7, "ffma": 3, "lds128": 1, "ffma_reg_sources": 8,
        "ffma_reused_sources": 1, "ffma_3_same_parity_unreused": 1}
bad = {f: (got.get(f), v) for f, v in want.items() if got.get(f) != v}
if got["opcodes"] != {"FFMA": 3, "LDC": 1, "LDS": 1, "BRA": 1, "EXIT": 1}:
    bad["opcodes"] = got["opcodes"]
if k["_Z5otherv"]["opcodes"] != {"BAR": 1}:
    bad["_Z5otherv"] = k["_Z5otherv"]
if bad:
    sys.exit(f"sass-stats: got, want: {bad}")
print("sass-stats: ok")
