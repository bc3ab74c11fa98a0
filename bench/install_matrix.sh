#!/usr/bin/env bash
# Every documented extra, alone and all together (vllm aside: it pins its own torch and needs a GPU), installed
# as the README says into a fresh venv, then a one-item run on the embedded model, a check that the extra's own
# packages work, and the versions pip chose. Prints one line per set; the logs stay in $WORK/<set>/.
#
#   bash bench/install_matrix.sh [WORK_DIR] [SET ...]  # sets: base hf litellm ray arabic comet lm-eval inspect
#                                                      #       lighteval dev all comet-all
#
# Each set takes 2-6 minutes (torch from the local file, llama-cpp-python from pip's wheel cache after the first
# build); every set in a row, about 30 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
WORK=${1:-$(mktemp -d /tmp/xlingmed-install-XXXX)}
shift || true
SETS=${*:-base hf litellm ray arabic comet lm-eval inspect lighteval dev all comet-all}
DATA=$(cd "$REPO/../shared/data/xlinghealth" && pwd)
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"

extras() {
  case $1 in
    base) echo "" ;;
    # lighteval needs numpy>=2 and comet numpy<2: every extra together but comet, and comet with all it fits
    all) echo "[hf,litellm,ray,arabic,lm-eval,inspect,lighteval,dev]" ;;
    comet-all) echo "[hf,litellm,ray,arabic,comet,lm-eval,inspect]" ;;
    *) echo "[$1]" ;;
  esac
}

# what shows that the extra's own packages work (beyond importing xlingmed and a run)
probe() {
  case $1 in
    hf) echo "import accelerate, gguf; print('accelerate', accelerate.__version__)" ;;
    litellm) echo "import litellm; print('litellm', litellm.__version__ if hasattr(litellm, '__version__') else 'ok')" ;;
    ray) echo "import ray; print('ray', ray.__version__)" ;;
    arabic) echo "from camel_tools.utils.dediac import dediac_ar; print('camel-tools', dediac_ar('\u0645\u064f\u062d\u064e\u0645\u0651\u064e\u062f'))" ;;
    comet) echo "import comet; from comet import load_from_checkpoint; print('comet', comet.__version__)" ;;
    lm-eval) echo "import lm_eval; print('lm-eval', lm_eval.__version__)" ;;
    inspect) echo "from inspect_ai.log import read_eval_log, write_eval_log; print('inspect ok')" ;;
    lighteval) echo "from lighteval.logging.evaluation_tracker import EvaluationTracker; print('lighteval ok')" ;;
    dev) echo "import pytest, ruff, mypy, playwright, lm_eval, inspect_ai, lighteval.logging.evaluation_tracker; print('dev ok')" ;;
    all) echo "import accelerate, gguf, litellm, ray, pytest, lm_eval, inspect_ai, lighteval.logging.evaluation_tracker; from camel_tools.utils.dediac import dediac_ar; print('all ok')" ;;
    comet-all) echo "import accelerate, gguf, litellm, ray, comet, lm_eval, inspect_ai; from camel_tools.utils.dediac import dediac_ar; print('comet-all ok')" ;;
    *) echo "print('base ok')" ;;
  esac
}

printf '%-8s %-8s %8s %-8s %-10s %-9s %-7s %s\n' set install "s" run probe numpy pyarrow "transformers / camel-tools / comet"
for set in $SETS; do
  dir="$WORK/$set"; rm -rf "$dir"; mkdir -p "$dir"
  t0=$(date +%s)
  python3 -m venv "$dir/venv" >/dev/null
  # as the README says: a current pip first (a venv's bundled pip 23 backtracks for hours on comet with the others)
  "$dir/venv/bin/pip" install -q -U pip >"$dir/pip.log" 2>&1
  if "$dir/venv/bin/pip" install -q torch==2.13.0 -e "$REPO$(extras "$set")" >"$dir/install.log" 2>&1; then inst=ok; else inst=FAIL; fi
  secs=$(( $(date +%s) - t0 ))
  run=- probe_rc=-
  if [ "$inst" = ok ]; then
    executor=(); [ "$set" = ray ] || [ "$set" = all ] || [ "$set" = comet-all ] && executor=(--executor ray -M replicas=1 -M cpus_per_replica=1)
    (cd "$dir" && "$dir/venv/bin/xlingmed" run --benchmark xlinghealth/liveqa --data-dir "$DATA" --languages en \
      --tasks correctness --model llamacpp/smollm2 --limit 1 --temperatures 0 --max-tokens 16 --judge-max-tokens 8 \
      "${executor[@]}" --cache "$dir/c.sqlite" --out "$dir/run" --no-report --quiet >"$dir/run.log" 2>&1)
    rc=$?; [ $rc = 0 ] && [ -f "$dir/run/scores.parquet" ] && run=ok || run="exit$rc"
    "$dir/venv/bin/python" -c "$(probe "$set")" >"$dir/probe.log" 2>&1 && probe_rc=ok || probe_rc=FAIL
  fi
  versions=$("$dir/venv/bin/python" - <<'PY' 2>/dev/null
from importlib.metadata import version, PackageNotFoundError
def v(d):
    try:
        return version(d)
    except PackageNotFoundError:
        return "-"
print(v("numpy"), v("pyarrow"), f'{v("transformers")} / {v("camel-tools")} / {v("unbabel-comet")}')
PY
)
  read -r np pa rest <<<"${versions:-- - -}"
  printf '%-8s %-8s %8s %-8s %-10s %-9s %-7s %s\n' "$set" "$inst" "$secs" "$run" "$probe_rc" "$np" "$pa" "$rest"
  rm -rf "$dir/venv"  # several GB each
done
echo "logs: $WORK"
