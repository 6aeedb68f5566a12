# Ember's front door. `make demo` and `make test` work on a fresh Debian
# machine: they install what they need (apt packages, a venv at .venv/ with
# torch and the build tools) and build incrementally after that.

VENV    := .venv
PY      := $(VENV)/bin/python
PIP     := $(VENV)/bin/pip
APT_PKGS := flatbuffers-compiler libflatbuffers-dev libgtest-dev ninja-build cmake g++
BUILD   := build/py
DEPS_STAMP := $(VENV)/.deps-installed
JOBS    ?= 2

# The CMake trees below (tsan) compile through ccache when it is
# installed; the base dir lets worktrees at other paths share the cache.
CCACHE  := $(shell command -v ccache 2>/dev/null)
LAUNCHER := $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR ?= $(CURDIR)

.PHONY: all setup build test test-all test-cpp test-python demo bench clean asan tsan

all: build

# System packages: installed only when one is missing.
.apt-ok:
	@if ! dpkg -s $(APT_PKGS) >/dev/null 2>&1; then \
	  echo "installing $(APT_PKGS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PKGS) >/dev/null; \
	fi
	@touch $@

$(DEPS_STAMP): requirements-dev.txt | .apt-ok
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements-dev.txt
	touch $@

setup: $(DEPS_STAMP)

# Builds the runtime, kernels, tools, C++ tests and the Python extension in
# one CMake tree (build/py) and installs `ember` into the venv (editable).
build: $(DEPS_STAMP)
	$(PIP) install -q --no-build-isolation -e .

test-cpp: build
	ctest --test-dir $(BUILD) --output-on-failure -j2

test-python: build
	$(PY) -m pytest -q

test: test-cpp test-python

# Everything, including the slow suites (whole op matrix, model zoo).
test-all: build
	ctest --test-dir $(BUILD) --output-on-failure -j2
	$(PY) -m pytest -q -m "slow or not slow"

# The runtime under AddressSanitizer and UBSan, with the loader tests.
asan: $(DEPS_STAMP)
	cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON >/dev/null
	ninja -C build/asan ember_runtime_tests ember_kernel_tests
	ctest --test-dir build/asan --output-on-failure -j2

# The runtime tests (concurrency stress tests included) under ThreadSanitizer;
# any reported race fails the test that hit it.
TSAN_OPTIONS ?= halt_on_error=1 second_deadlock_stack=1
tsan: .apt-ok
	@echo "== tsan [1/3] configure build/tsan (-fsanitize=thread, RelWithDebInfo)"
	cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBER_SANITIZE_THREAD=ON \
	  $(LAUNCHER) >/dev/null
	@echo "== tsan [2/3] build ember_runtime_tests (cold: ~6 CPU-minutes, mostly the portable kernels)"
	ninja -C build/tsan -j$(JOBS) ember_runtime_tests
	@echo "== tsan [3/3] run the runtime tests"
	TSAN_OPTIONS="$(TSAN_OPTIONS)" ctest --test-dir build/tsan -L runtime --output-on-failure -j$(JOBS)

demo: build
	$(PY) examples/demo.py

clean:
	rm -rf build .apt-ok
