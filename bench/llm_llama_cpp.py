"""llama.cpp's side of bench/llm_bench.py, run with the benchmark-only venv
(bench/.venv-llama, llama-cpp-python built from its sdist). Reads a JSON
request on stdin, prints one JSON result: prefill and decode tokens/s at the
given thread count, and optionally the perplexity of a token sequence; or,
for {"tokenize": text}, the text's ids."""

import json
import math
import resource
import sys
import time

import llama_cpp
import numpy as np


def peak_rss() -> int:
    """This process's own peak (VmHWM): ru_maxrss also counts what the parent
    held when it forked this one."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def last_logits(llm: "llama_cpp.Llama") -> np.ndarray:
    """The logits after the last token evaluated (llama-cpp-python keeps them
    in its own scores only with logits_all)."""
    return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),))


def main() -> None:
    request = json.load(sys.stdin)
    if "tokenize" in request:
        vocab = llama_cpp.Llama(model_path=request["gguf"], vocab_only=True, verbose=False)
        ids = vocab.tokenize(request["tokenize"].encode(), add_bos=False, special=False)
        print(json.dumps({"ids": ids}))
        return
    threads = request["threads"]
    llm = llama_cpp.Llama(model_path=request["gguf"], n_ctx=request["context"],
                          n_threads=threads, n_threads_batch=threads,
                          n_batch=len(request["prompt"]), logits_all=bool(request.get("ppl")),
                          verbose=False)
    result = {"prefill": [], "decode": []}
    for _ in range(request["rounds"]):
        llm.reset()
        start = time.perf_counter()
        llm.eval(request["prompt"])
        result["prefill"].append(len(request["prompt"]) / (time.perf_counter() - start))
        token = int(np.argmax(last_logits(llm)))
        start = time.perf_counter()
        for _ in range(request["decode"]):
            llm.eval([token])
            token = int(np.argmax(last_logits(llm)))
        result["decode"].append(request["decode"] / (time.perf_counter() - start))
    if request.get("ppl"):
        ids = request["ppl"]
        llm.reset()
        llm.eval(ids)
        total = 0.0
        for i in range(len(ids) - 1):
            row = np.asarray(llm.scores[i], dtype=np.float64)
            row = row - row.max()
            total -= row[ids[i + 1]] - math.log(np.exp(row).sum())
        result["ppl"] = math.exp(total / (len(ids) - 1))
    rss = peak_rss()
    print(json.dumps({"prefill": max(result["prefill"]), "decode": max(result["decode"]),
                      "ppl": result.get("ppl"), "rss": rss}))


if __name__ == "__main__":
    main()
