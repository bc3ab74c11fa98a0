import os
from pathlib import Path
def test_probe():
    lines = Path(f"/proc/{os.getpid()}/status").read_text().splitlines()
    print("PROBE", [l for l in lines if l.startswith(("SigBlk", "SigIgn", "SigCgt"))])
    assert 0
