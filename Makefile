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

.PHONY: all setup build test test-all test-cpp test-python demo bench clean asan

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
	touch $@

setup: $(DEPS_STAMP)

# Builds the runtime, kernels, tools, C++ tests and the Python extension in
# one CMake tree (build/py) and installs `ember` into the venv (editable).
# Ninja's [done/total] lines show the compile's progress (about 8 minutes on
# 2 cores from scratch).
build: $(DEPS_STAMP)
	@printf '\n==> %s\n' "building the C++ runtime, kernels, tools, tests and ember._C (build/py)"
	$(PIP) install -v --no-build-isolation -e . 2>&1 \
	  | { grep --line-buffered -E '^\s*\[[0-9]+/[0-9]+\]|error|Error|FAILED|Successfully installed' || true; } \
	  | sed -u -E 's/^\s+//'

test-cpp: build
	@printf '\n==> %s\n' "C++ tests (ctest)"
	ctest --test-dir $(BUILD) --output-on-failure -j2

test-python: build
	@printf '\n==> %s\n' "Python tests (pytest, against PyTorch eager)"
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

demo: build
	@printf '\n==> %s\n' "exporting MobileNetV2 and running it on the C++ runtime"
	$(PY) examples/demo.py

clean:
	rm -rf build .apt-ok
