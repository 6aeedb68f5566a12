"""Ember as a developer integrating it gets it: the SDK installed into a
temporary prefix (`cmake --install build/py --component sdk`, no rebuild),
or the wheel's (EMBER_PACKAGE_PREFIX, as `make test-wheel` runs it from
outside the tree). Against it:

- the example application (examples/cmake_app) builds with find_package(ember)
  and matches eager PyTorch;
- the C ABI's test program (c_api_test.c, compiled as C) passes every check,
  against values computed here with PyTorch eager and the ember package;
- libember exports exactly the committed symbol list;
- every installed header compiles on its own.

`make test-package` runs this file (about a minute on top of build/py)."""

from __future__ import annotations

import concurrent.futures
import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check_symbols

ROOT = HERE.parents[1]
STEPS = 6  # tokens generated in the LLM checks


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n"
                             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def _version() -> str:
    from importlib.metadata import version

    return version("ember")


@pytest.fixture(scope="session")
def prefix(tmp_path_factory) -> Path:
    given = os.environ.get("EMBER_PACKAGE_PREFIX")
    if given:
        return Path(given)
    build = ROOT / "build" / "py"
    if not (build / "cmake_install.cmake").exists():
        pytest.fail("build/py is not configured: run `make build` first")
    out = tmp_path_factory.mktemp("prefix")
    _run(["cmake", "--install", str(build), "--prefix", str(out), "--component", "sdk"])
    return out


def _cmake_build(source: Path, build: Path, prefix: Path) -> None:
    launcher = []
    if shutil.which("ccache"):
        launcher = ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(["cmake", "-S", str(source), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
          f"-DCMAKE_PREFIX_PATH={prefix}", *launcher])
    _run(["cmake", "--build", str(build), "-j2"])


# --- the programs the checks run -------------------------------------------

class Mlp(torch.nn.Module):
    """Linear layers (on the CPU backend) and a cumulative sum (left to the
    portable kernels): the package must register both."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(self.fc2(torch.relu(self.fc1(x))), dim=1)


class Triple(torch.nn.Module):
    def forward(self, n: torch.Tensor) -> torch.Tensor:
        return n * 3 + 1


def _tokenizer_spec():
    """A byte-level BPE tokenizer: the 256 bytes, two merges, ChatML's tokens."""
    from ember.llm.tokenizer import TokenizerSpec

    tokens = [bytes([b]) for b in range(256)] + [b"he", b"ll"]
    merges = [(ord("h"), ord("e")), (ord("l"), ord("l"))]
    specials = [b"<|endoftext|>", b"<|im_start|>", b"<|im_end|>"]
    added = [(len(tokens) + i, True, s) for i, s in enumerate(specials)]
    tokens += specials
    types = [1] * (len(tokens) - len(specials)) + [3] * len(specials)
    chat_ml = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
               "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if "
               "add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")
    return TokenizerSpec(tokens=tokens, types=types, merges=merges, added=added,
                         pre_tokenizer="gpt2", bos_id=258, eos_id=260, chat_template=chat_ml)


def _greedy_eager(model, prompt: list[int], steps: int) -> list[int]:
    model = copy.deepcopy(model)
    out: list[int] = []
    with torch.no_grad():
        logits = model(torch.tensor([prompt]), torch.arange(len(prompt)))
        for position in range(len(prompt), len(prompt) + steps):
            out.append(int(logits[0, -1].argmax()))
            logits = model(torch.tensor([[out[-1]]]), torch.tensor([position]))
    return out


def _until_eos(ids: list[int], eos: int) -> list[int]:
    return ids[: ids.index(eos) + 1] if eos in ids else ids


def _streamed_text(tokenizer, ids: list[int]) -> bytes:
    decoder = tokenizer.stream(skip_special=True)
    return ("".join(decoder.push(i) for i in ids) + decoder.flush()).encode()


def _ints(values) -> str:
    return " ".join(str(int(v)) for v in values)


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    """Programs, inputs and expected values for the example and the C test."""
    import ember
    from ember.llm import gguf_import, llama
    from ember.llm.export import export_llama
    from ember.llm.runner import Runner
    from ember.llm.tokenizer import Tokenizer, serialize

    out = tmp_path_factory.mktemp("data")
    manifest: dict[str, str] = {}

    torch.manual_seed(0)
    mlp, triple = Mlp().eval(), Triple().eval()
    length = torch.export.Dim("length", min=1, max=8)
    program = ember.export_methods({
        "forward": ember.Method(mlp, (torch.randn(4, 8),)),
        "triple": ember.Method(triple, (torch.arange(5),), ({0: length},)),
    })
    # Both the CPU backend and the portable kernels run a part of it.
    assert any(p.where != "portable" for p in program.placements), program.report()
    assert any("cumsum" in op for op in program.operators), program.operators
    program.save(str(out / "mlp.pte"))
    x = torch.randn(4, 8)
    full = torch.randn(4, 8)
    with torch.no_grad():
        (out / "forward_input.bin").write_bytes(x.numpy().tobytes())
        (out / "forward_expected.bin").write_bytes(mlp(x).numpy().tobytes())
        (out / "app_input.f32").write_bytes(full.numpy().tobytes())
        (out / "app_expected.f32").write_bytes(mlp(full).numpy().tobytes())
    n = torch.tensor([4, -2, 0, 7, 1 << 40])
    (out / "triple_input.bin").write_bytes(n.numpy().tobytes())
    (out / "triple_expected.bin").write_bytes(triple(n).numpy().tobytes())
    manifest.update(forward_input_shape="4 8", forward_bound="4 8", forward_output_bound="4 4",
                    triple_shape="5", triple_bound="8")
    (out / "garbage.pte").write_bytes(b"ET12" + bytes(range(256)) * 4)
    (out / "version.txt").write_text(_version())

    # A tiny Llama with a byte-level tokenizer. Its end-of-sequence id is the
    # token greedy decoding reaches third, so that generation stops there.
    spec = _tokenizer_spec()
    (out / "llm.tokenizer").write_bytes(serialize(spec))
    tok = Tokenizer(out / "llm.tokenizer")
    config = llama.LlamaConfig(vocab_size=264, dim=64, n_layers=2, n_heads=4, n_kv_heads=2,
                               hidden_dim=128, max_context=64, rope_theta=10000.0,
                               tie_embeddings=False)  # tied, random weights repeat the last token
    weights = gguf_import.convert_weights(llama.random_weights(config, seed=1), "float")
    model = llama.Llama(config, weights, last_logits_only=False).eval()
    prompt = [258, 72, 105, 33]
    greedy = _greedy_eager(model, prompt, STEPS)
    stop_at = next(k for k in (2, 3, 4, 1) if greedy[k] not in greedy[:k])
    eos = greedy[stop_at]
    export_llama(config, weights, bos_id=258, eos_id=eos, max_prefill=8).save(str(out / "llm.pte"))
    runner = Runner(out / "llm.pte", threads=1)
    ember_greedy, _ = runner.generate_ids(prompt, STEPS)
    assert ember_greedy == _until_eos(greedy, eos), "ember and eager disagree: pick another seed"

    text_ids = tok.encode("hello")
    text_greedy = _until_eos(_greedy_eager(model, text_ids, STEPS), eos)
    chat_ids = tok.encode(tok.apply_chat_template([{"role": "user", "content": "hi"}],
                                                  add_generation_prompt=True))
    chat_greedy = _until_eos(_greedy_eager(model, chat_ids, STEPS), eos)
    runner.reset()
    sampled, _ = runner.generate_ids(prompt, STEPS, temperature=0.8, top_k=20, top_p=0.9,
                                     repetition_penalty=1.1, seed=7)
    manifest.update(
        steps=str(STEPS), llm_vocab="264", llm_max_context="64", llm_max_prefill="8",
        llm_bos="258", llm_eos=str(eos), tokens_prompt=_ints(prompt),
        tokens_expected=_ints(_until_eos(greedy, eos)), tokens_expected_all=_ints(greedy),
        text_expected=_ints(text_greedy), chat_expected=_ints(chat_greedy),
        chat_prompt_tokens=str(len(chat_ids)), sampled_expected=_ints(sampled))
    (out / "tokens_expected_text.txt").write_bytes(_streamed_text(tok, _until_eos(greedy, eos)))
    (out / "text_expected_text.txt").write_bytes(_streamed_text(tok, text_greedy))
    (out / "text_prompt.txt").write_text("hello")
    (out / "chat_message.txt").write_text("hi")
    (out / "expected.txt").write_text("".join(f"{k} {v}\n" for k, v in manifest.items()))
    return out


# --- the checks -------------------------------------------------------------

def test_installed_layout(prefix: Path):
    config = next(prefix.glob("lib*/cmake/ember/emberConfig.cmake"))
    cmake_dir = config.parent
    assert (cmake_dir / "emberConfigVersion.cmake").is_file()
    assert (cmake_dir / "emberTargets.cmake").is_file()
    assert (prefix / "include" / "ember" / "ember.h").is_file()
    assert (prefix / "include" / "ember" / "extension" / "module" / "module.h").is_file()
    assert list(cmake_dir.parent.parent.glob("libember.so*")), "no libember.so"
    # Relocatable: nothing points back into the source or build tree.
    for path in cmake_dir.glob("*.cmake"):
        text = path.read_text()
        assert str(ROOT) not in text, f"{path.name} names the source tree"


def _library(prefix: Path) -> Path:
    return max(next(prefix.glob("lib*/cmake/ember")).parent.parent.glob("libember.so*"))


def test_symbols_match_the_committed_list(prefix: Path):
    symbols = ROOT / "extension" / "c_api" / "ember.symbols"
    if not symbols.exists():  # run from a copy outside the tree (make test-wheel)
        symbols = HERE / "ember.symbols"
    header = prefix / "include" / "ember" / "ember.h"
    assert check_symbols.problems(_library(prefix), header=header, symbols=symbols) == []


def test_library_needs_only_the_c_and_cpp_runtimes(prefix: Path):
    needed = _run(["objdump", "-p", str(_library(prefix))]).stdout
    libs = {line.split()[1] for line in needed.splitlines() if line.strip().startswith("NEEDED")}
    assert libs <= {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6",
                    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}, libs
    soname = [line.split()[1] for line in needed.splitlines() if line.strip().startswith("SONAME")]
    assert soname == ["libember.so.1"]


def test_headers_compile_on_their_own(prefix: Path, tmp_path: Path):
    include = prefix / "include"
    headers = sorted(p for p in (include / "ember").rglob("*.h") if p.name != "ember.h")
    assert len(headers) > 30

    def compile_one(header: Path) -> str | None:
        source = tmp_path / (header.relative_to(include).as_posix().replace("/", "_") + ".cpp")
        source.write_text(f'#include "{header.relative_to(include / "ember").as_posix()}"\n')
        result = subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror",
                                 f"-I{include / 'ember'}", str(source)],
                                capture_output=True, text=True, check=False)
        return None if result.returncode == 0 else f"{header}: {result.stderr[:600]}"

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        failures = [f for f in pool.map(compile_one, headers) if f]
    assert not failures, "\n".join(failures)
    # The C header in C++ too, with the warnings a C++ application may use.
    source = tmp_path / "c_header.cpp"
    source.write_text("#include <ember/ember.h>\nint main() { return ember_abi_version() == 0; }\n")
    _run(["c++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
          f"-I{include}", str(source)])


def test_example_app_matches_eager(prefix: Path, data_dir: Path, tmp_path: Path):
    source = ROOT / "examples" / "cmake_app"
    if not source.exists():
        source = HERE / "cmake_app"  # the copy make test-wheel runs
    _cmake_build(source, tmp_path / "app", prefix)
    result = _run([str(tmp_path / "app" / "ember_app"), str(data_dir / "mlp.pte"),
                   str(data_dir / "app_input.f32"), str(tmp_path / "out.f32"), "2"])
    assert "forward -> Float [4, 4] on 2 thread(s)" in result.stdout, result.stdout
    got = np.fromfile(tmp_path / "out.f32", dtype=np.float32)
    want = np.fromfile(data_dir / "app_expected.f32", dtype=np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_c_api(prefix: Path, data_dir: Path, tmp_path: Path):
    _cmake_build(HERE, tmp_path / "c_test", prefix)
    result = subprocess.run([str(tmp_path / "c_test" / "c_api_test"), str(data_dir)],
                            capture_output=True, text=True, timeout=300, check=False)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0 and " 0 failed" in summary, f"{summary}\n{result.stderr[-6000:]}"
    assert f"libember {_version()}" in summary


AARCH64_LIB = ROOT / "build" / "aarch64" / "extension" / "c_api" / "libember.so.1"


@pytest.mark.skipif(not (AARCH64_LIB.exists() and shutil.which("qemu-aarch64")
                         and shutil.which("aarch64-linux-gnu-gcc")),
                    reason="no AArch64 libember (make java-aarch64 or test-aarch64) or no qemu-aarch64")
def test_c_api_on_aarch64(data_dir: Path, tmp_path: Path):
    """The AArch64 libember (what an Android app's JNI library loads) passes the same C
    ABI test under qemu-aarch64: it loads and computes, not only links."""
    exe = tmp_path / "c_api_test"
    _run(["aarch64-linux-gnu-gcc", "-std=c11", "-O1", "-Wall", "-Werror", f"-I{ROOT / 'include'}",
          str(HERE / "c_api_test.c"), "-o", str(exe), f"-L{AARCH64_LIB.parent}", "-l:libember.so.1",
          "-lpthread", "-lm"])
    result = subprocess.run(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu",
                             "-E", f"LD_LIBRARY_PATH={AARCH64_LIB.parent}", str(exe), str(data_dir)],
                            capture_output=True, text=True, timeout=600, check=False)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0 and " 0 failed" in summary, f"{summary}\n{result.stderr[-6000:]}"
