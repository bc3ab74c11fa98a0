"""The tests of float results from torch encoders, BLAS and statsmodels pass under other CPUs' kernels (issue 58).

The suite runs under the machine's own kernels; here the tests whose values come from an encoder (BERTScore,
sentence and topic similarity, MedArabiQ's BERTScore) or from numpy's and statsmodels' linear algebra (the paper's
tests, the GEE, prediction-powered inference) run again in a child pytest under other kernels
of ``tests/kernels.py``. The golden runs do the same for whole runs (``tests/test_golden_runs.py``), under the
AVX2, the portable and the machine's own kernels; the numeric tests here run under the portable ones, the farthest
from the machine's (AVX2 sits between; the golden runs cover it). About 60 s.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import kernels
import pytest

HERE = Path(__file__).resolve().parent
NUMERIC_TESTS = ("test_consistency_metrics.py", "test_low_resource_consistency.py", "test_medarabiq.py",
                 "test_analysis.py", "test_effects.py", "test_judge_corrected.py")  # fmt: skip
# tests of those files whose values no kernel computes (a hash seed in child processes, what the CLI says)
NOT_NUMERIC = ("test_bertscore_batches_do_not_follow_the_string_hash", "test_the_cli_names_what_it_could_not_measure")


@pytest.mark.parametrize("variant", ["default"])
def test_the_numeric_tests_pass_under_other_cpu_kernels(variant: str) -> None:
    files = [str(HERE / name) for name in NUMERIC_TESTS]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-k",
                          f"not ({' or '.join(NOT_NUMERIC)})", *files],
                         cwd=HERE.parent, env=kernels.environment(variant), capture_output=True, text=True,
                         timeout=900)  # fmt: skip
    tail = ran.stdout[-4000:] + ran.stderr[-2000:]
    assert ran.returncode == 0, f"under the {variant} kernels ({kernels.VARIANTS[variant]}):\n{tail}"
    assert " passed" in ran.stdout.splitlines()[-1] and "failed" not in ran.stdout.splitlines()[-1], tail


def test_the_variants_take_effect() -> None:
    """Each variant really changes what torch and OpenBLAS use (a variable renamed upstream would make the tests
    above run the machine's own kernels three times)."""
    probe = ("import torch, threadpoolctl, numpy; print(torch.backends.cpu.get_cpu_capability()); "
             "print(sorted({i.get('architecture') for i in threadpoolctl.threadpool_info() "
             "if i.get('internal_api') == 'openblas'}))")  # fmt: skip
    seen = {}
    for variant in ("avx2", "default"):
        out = subprocess.run([sys.executable, "-c", probe], env=kernels.environment(variant), capture_output=True,
                             text=True, timeout=120, check=True).stdout.split("\n")  # fmt: skip
        seen[variant] = (out[0], out[1])
    assert seen["avx2"][0] == "AVX2" and seen["default"][0] == "DEFAULT"
    assert seen["avx2"][1] == "['Haswell']" and seen["default"][1] == "['Nehalem']"
