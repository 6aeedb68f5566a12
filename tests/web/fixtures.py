"""Programs and expected values for the JavaScript (tests/web) and Java
(tests/java) binding tests: each case is a .pte exported here, its inputs
and the values PyTorch eager (or, for int8 programs, the native runtime)
gives on them, as raw little-endian files with a manifest the tests read:
manifest.json (Node) and manifest.tsv (Java, which has no JSON parser).

    .venv/bin/python tests/web/fixtures.py OUT_DIR

The cases: every dtype a tensor may have (one program each), a dynamic
batch, a CNN and a transformer block on the CPU backend (the SIMD kernel
families), an int8 CNN, two methods in one program, a stateful program (a
buffer updated in place) and a tiny Llama with its tokenizer (LLM
generation). OUT_DIR/stamp holds a digest of this file and the exporter:
when it matches, nothing is exported again (the tests run it every time).
"""

from __future__ import annotations

import copy
import glob
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# dtype name (the bindings' and the ABI's) -> torch dtype, filled in main().
DTYPES: dict[str, object] = {}


def _digest() -> str:
    h = hashlib.sha1()
    files = [Path(__file__)] + sorted(Path(p) for p in glob.glob(
        str(ROOT / "python" / "ember" / "**" / "*.py"), recursive=True))
    for path in files:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


class Cases:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.cases: list[dict] = []

    def tensor(self, name: str, t) -> dict:
        import torch

        t = t.detach().contiguous()
        dtype = next(k for k, v in DTYPES.items() if v == t.dtype)
        if t.dtype == torch.bfloat16:
            raw = t.view(torch.int16).numpy().tobytes()
        else:
            raw = t.numpy().tobytes()
        (self.out / name).write_bytes(raw)
        return {"dtype": dtype, "dims": list(t.shape), "file": name}

    def add(self, name: str, pte: str, inputs, outputs, method: str = "forward",
            atol: float = 0.0, rtol: float = 0.0, run: int | None = None) -> None:
        tag = name if run is None else f"{name}.{run}"
        self.cases.append({
            "name": tag, "program": pte, "method": method, "atol": atol, "rtol": rtol,
            "inputs": [self.tensor(f"{tag}.in{i}.bin", t) for i, t in enumerate(inputs)],
            "outputs": [self.tensor(f"{tag}.out{i}.bin", t) for i, t in enumerate(outputs)],
        })

    def write(self, extra: dict) -> None:
        (self.out / "manifest.json").write_text(json.dumps({"cases": self.cases, **extra}, indent=1))
        lines = []
        for key, value in extra.items():
            for k, v in (value.items() if isinstance(value, dict) else [("", value)]):
                lines.append(f"meta\t{key}{'.' + k if k else ''}\t{v}")
        for c in self.cases:
            lines.append(f"case\t{c['name']}\t{c['program']}\t{c['method']}\t{c['atol']}\t{c['rtol']}")
            for kind in ("inputs", "outputs"):
                for t in c[kind]:
                    dims = ",".join(str(d) for d in t["dims"]) or "-"
                    lines.append(f"{kind[:-1]}\t{t['dtype']}\t{dims}\t{t['file']}")
        (self.out / "manifest.tsv").write_text("\n".join(lines) + "\n")


def export_all(out: Path) -> dict:
    import ember
    import torch
    from torch import nn

    cases = Cases(out)
    torch.manual_seed(0)

    # --- every dtype: a program per dtype, f(x) of that dtype ---
    class Affine(nn.Module):
        def forward(self, x):
            if x.dtype == torch.bool:
                return torch.logical_not(x)
            if x.is_floating_point():
                return x * 2 + 1
            return x * 3 + 1

    for name, dtype in DTYPES.items():
        if dtype == torch.bool:
            x = torch.rand(2, 3) > 0.5
        elif dtype.is_floating_point:
            x = torch.randn(2, 3).to(dtype)
        elif dtype == torch.uint8:
            x = torch.randint(0, 255, (2, 3), dtype=dtype)
        else:
            x = torch.randint(-100, 100, (2, 3), dtype=dtype)
        pte = f"dtype_{name}.pte"
        ember.export(Affine(), (x,)).save(str(out / pte))
        with torch.no_grad():
            cases.add(f"dtype_{name}", pte, [x], [Affine()(x)])

    # --- a dynamic batch on the CPU backend ---
    mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)).eval()
    batch = torch.export.Dim("batch", min=1, max=8)
    ember.export(mlp, (torch.randn(2, 16),), dynamic_shapes=({0: batch},)).save(
        str(out / "mlp_dynamic.pte"))
    for run, n in enumerate((1, 5, 8)):
        x = torch.randn(n, 16)
        with torch.no_grad():
            cases.add("mlp_dynamic", "mlp_dynamic.pte", [x], [mlp(x)], atol=1e-5, rtol=1e-5, run=run)

    # --- a CNN: convolutions (GEMM, depthwise), relu6, hardswish, pooling ---
    cnn = nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU6(),
        nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.Hardswish(),
        nn.Conv2d(16, 24, 1), nn.ReLU(),
        nn.Conv2d(24, 24, 5, padding=2, groups=24), nn.Sigmoid(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, 10)).eval()
    x = torch.randn(1, 3, 32, 32)
    ember.export(cnn, (x,)).save(str(out / "cnn.pte"))
    with torch.no_grad():
        cases.add("cnn", "cnn.pte", [x], [cnn(x)], atol=1e-4, rtol=1e-4)

    # --- a transformer block: attention, layer norm, softmax, GELU ---
    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.attn = nn.MultiheadAttention(32, 4, batch_first=True)
            self.norm1 = nn.LayerNorm(32)
            self.ff = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
            self.norm2 = nn.LayerNorm(32)

        def forward(self, x):
            x = self.norm1(x + self.attn(x, x, x, need_weights=False)[0])
            return torch.softmax(self.norm2(x + self.ff(x)), dim=-1)

    block = Block().eval()
    x = torch.randn(1, 12, 32)
    ember.export(block, (x,)).save(str(out / "transformer.pte"))
    with torch.no_grad():
        cases.add("transformer", "transformer.pte", [x], [block(x)], atol=1e-5, rtol=1e-4)

    # --- an int8 CNN (static quantization): the int8 kernel families, against
    # the native runtime on the same program ---
    qcnn = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.ReLU(),
        nn.Conv2d(16, 32, 1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10)).eval()
    x = torch.randn(1, 3, 16, 16)
    calibration = [torch.randn(1, 3, 16, 16) for _ in range(4)]
    quantized = ember.quantize(qcnn, (x,), scheme="int8", calibration=calibration)
    ember.export(quantized, (x,)).save(str(out / "cnn_int8.pte"))
    native = ember.runtime.load(str(out / "cnn_int8.pte"), threads=1)
    cases.add("cnn_int8", "cnn_int8.pte", [x], [native.forward(x)], atol=1e-5, rtol=1e-5)

    # --- two methods, one of them int64 with a dynamic length ---
    class Triple(nn.Module):
        def forward(self, n):
            return n * 3 + 1

    length = torch.export.Dim("length", min=1, max=8)
    program = ember.export_methods({
        "forward": ember.Method(mlp, (torch.randn(4, 16),)),
        "triple": ember.Method(Triple(), (torch.arange(5),), ({0: length},)),
    })
    program.save(str(out / "two_methods.pte"))
    x = torch.randn(4, 16)
    n = torch.tensor([4, -2, 0, 7, 1 << 40, 3])
    with torch.no_grad():
        cases.add("two_methods", "two_methods.pte", [x], [mlp(x)], atol=1e-5, rtol=1e-5)
        cases.add("two_methods_triple", "two_methods.pte", [n], [Triple()(n)], method="triple")

    # --- state: a buffer the program updates in place, call after call ---
    class Accumulate(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("total", torch.zeros(4))

        def forward(self, x):
            self.total.add_(x)
            return self.total * 1

    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    ember.export(Accumulate(), (x,)).save(str(out / "accumulate.pte"))
    for run in range(2):
        cases.add("accumulate", "accumulate.pte", [x], [x * (run + 1)], run=run)

    extra = {"llm": export_llm(out)}
    cases.write(extra)
    return extra


def export_llm(out: Path) -> dict:
    """A tiny Llama (random weights) with a byte-level tokenizer, as
    tests/package makes it, and what greedy generation gives for a prompt."""
    import torch
    from ember.llm import gguf_import, llama
    from ember.llm.export import export_llama
    from ember.llm.runner import Runner
    from ember.llm.tokenizer import Tokenizer, TokenizerSpec, serialize

    tokens = [bytes([b]) for b in range(256)] + [b"he", b"ll"]
    merges = [(ord("h"), ord("e")), (ord("l"), ord("l"))]
    specials = [b"<|endoftext|>", b"<|im_start|>", b"<|im_end|>"]
    added = [(len(tokens) + i, True, s) for i, s in enumerate(specials)]
    tokens += specials
    types = [1] * (len(tokens) - len(specials)) + [3] * len(specials)
    spec = TokenizerSpec(tokens=tokens, types=types, merges=merges, added=added,
                         pre_tokenizer="gpt2", bos_id=258, eos_id=260)
    (out / "llm.tokenizer").write_bytes(serialize(spec))
    config = llama.LlamaConfig(vocab_size=264, dim=64, n_layers=2, n_heads=4, n_kv_heads=2,
                               hidden_dim=128, max_context=64, rope_theta=10000.0,
                               tie_embeddings=False)
    weights = gguf_import.convert_weights(llama.random_weights(config, seed=1), "float")
    model = llama.Llama(config, weights, last_logits_only=False).eval()
    tok = Tokenizer(out / "llm.tokenizer")
    prompt = "hello"
    ids = tok.encode(prompt)
    steps = 8
    greedy: list[int] = []
    with torch.no_grad():
        m = copy.deepcopy(model)
        logits = m(torch.tensor([ids]), torch.arange(len(ids)))
        for position in range(len(ids), len(ids) + steps):
            greedy.append(int(logits[0, -1].argmax()))
            logits = m(torch.tensor([[greedy[-1]]]), torch.tensor([position]))
    # No end-of-sequence among the greedy tokens: generation runs all steps.
    eos = next(t for t in (263, 262, 261) if t not in greedy)
    export_llama(config, weights, bos_id=258, eos_id=eos, max_prefill=8).save(str(out / "llm.pte"))
    runner = Runner(out / "llm.pte", threads=1)
    ember_ids, _ = runner.generate_ids(ids, steps)
    assert ember_ids == greedy, f"ember {ember_ids} and eager {greedy} disagree"
    decoder = tok.stream(skip_special=True)
    text = "".join(decoder.push(i) for i in greedy) + decoder.flush()
    (out / "llm_expected.txt").write_text(text, encoding="utf-8")
    return {"prompt": prompt, "steps": steps, "tokens": " ".join(map(str, greedy)),
            "text_file": "llm_expected.txt"}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: fixtures.py OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    stamp = out / "stamp"
    digest = _digest()
    if stamp.exists() and stamp.read_text() == digest and (out / "manifest.json").exists():
        print(f"fixtures in {out} are current")
        return 0
    import torch

    DTYPES.update(uint8=torch.uint8, int8=torch.int8, int16=torch.int16, int32=torch.int32,
                  int64=torch.int64, float16=torch.float16, float32=torch.float32,
                  float64=torch.float64, bool=torch.bool, bfloat16=torch.bfloat16)
    print(f"exporting the binding tests' programs into {out} ...", flush=True)
    export_all(out)
    stamp.write_text(digest)  # last: an interrupted export is redone
    print(f"fixtures in {out}: done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
