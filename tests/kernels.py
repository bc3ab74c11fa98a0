"""CPU kernels varied on purpose: the environments under which the suite checks that its float results hold.

torch (ATen's vectorized kernels), MKL and oneDNN (its matrix products) and numpy's OpenBLAS each pick their
kernels by the CPU they find, so a sum of float32 or float64 values is taken in another order on a machine with
AVX-512, one with AVX2 only, or an older one, and its last bits differ. These variables make one machine take the
kernels of the others (each is read when its library loads, so they are set before Python starts):

- ``native``: what the machine has (AVX-512 on the machines this project is built on);
- ``avx2``: an AVX2 machine without AVX-512 (most laptops; AMD before Zen 4);
- ``default``: ATen's portable kernels, with MKL, oneDNN and OpenBLAS held to SSE4.

Each library was seen to obey (torch's ``get_cpu_capability``, ``MKL_VERBOSE``, ``ONEDNN_VERBOSE``, threadpoolctl's
OpenBLAS core, numpy's ``__cpu_features__``; numpy ignores a feature name it does not know). Not covered: the
number of threads (the suite keeps each worker to its CPUs), and llama.cpp, whose kernels are fixed when it is
compiled (the README's ``CMAKE_ARGS``: AVX2, no native tuning).

A test that compares a float from an encoder, BLAS or a model exactly fails under one of them; see
``tests/test_golden_runs.py`` and ``tests/test_kernels.py``.
"""

from __future__ import annotations

import os

VARIANTS: dict[str, dict[str, str]] = {
    "native": {},
    "avx2": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2",
             "OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"},
    "default": {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2", "ONEDNN_MAX_CPU_ISA": "SSE41",
                "OPENBLAS_CORETYPE": "Nehalem", "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"},
}  # fmt: skip


def environment(variant: str) -> dict[str, str]:
    """This process's environment for a child Python under ``variant``'s kernels: the variables above set (those a
    variant does not name removed, so a caller's own choice does not leak in), and pytest-xdist's worker variables
    removed (a child pytest is not one of its workers)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_") and k != "PYTEST_CURRENT_TEST"}
    for name in {n for v in VARIANTS.values() for n in v}:
        env.pop(name, None)
    return {**env, **VARIANTS[variant]}
