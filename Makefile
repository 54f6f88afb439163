# make demo  -- set up, build, and run portkit on this machine and its emulated targets
# make test  -- install what the tests need and run all of them
# make cross -- static portkit-target for every target triple into build/<triple>/

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# the cross agents, from the one table of architectures (src/portkit/core/arches.py)
TRIPLES := $(shell $(PYTHON) src/portkit/core/arches.py)
CMAKE_CONFIGURE := cmake -S . -G Ninja -Wno-dev --log-level=WARNING

# What a run caches stays in the clone (pip's wheels, matplotlib's font list,
# portkit's own caches under XDG_CACHE_HOME: scan's results, fetched kernels),
# so no run depends on, or leaves, a cache outside it (~/.cache, ~/.config).
export PIP_CACHE_DIR := $(CURDIR)/build/cache/pip
export MPLCONFIGDIR := $(CURDIR)/build/cache/matplotlib
# portkit's own (vm:'s kernels and busybox): build/cache/portkit
export XDG_CACHE_HOME := $(CURDIR)/build/cache

.PHONY: all setup system install native asan cross test test-native test-python lint rules-docs demo demo-rootfs clean

all: install

setup: system install

# Every set-up and build step prints one line; its output is kept in
# build/logs/STEP.log and shown (its end) only when the step fails.
STEP := scripts/step

system:
	@scripts/install-system-packages

$(BIN)/python:
	@$(STEP) python-venv -- sh -c '$(PYTHON) -m venv $(VENV) && $(BIN)/pip install --upgrade pip scikit-build-core'

# Installs portkit (and builds the host's agent) into the venv. No build
# isolation: scikit-build-core is already in the venv, and the CMake build
# directory is reused between runs.
install: $(BIN)/python
	@$(STEP) install-portkit -- $(BIN)/pip install --no-build-isolation ".[test]"

native:
	@$(STEP) build-host -- sh -c '$(CMAKE_CONFIGURE) -B build/host -DCMAKE_BUILD_TYPE=Debug -DPK_BUILD_TESTS=ON && cmake --build build/host'

asan:
	@$(STEP) build-asan -- sh -c '$(CMAKE_CONFIGURE) -B build/asan -DCMAKE_BUILD_TYPE=Debug -DPK_BUILD_TESTS=ON -DPK_SANITIZE=ON && cmake --build build/asan'

cross:
	@for t in $(TRIPLES); do \
	  $(STEP) build-$$t -- sh -c "$(CMAKE_CONFIGURE) -B build/$$t -DCMAKE_BUILD_TYPE=Release -DPK_BUILD_TESTS=ON \
	    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/$$t.cmake && cmake --build build/$$t" || exit 1; \
	done

test-native: native asan cross
	@for d in host asan $(TRIPLES); do \
	  echo "== ctest build/$$d"; ctest --test-dir build/$$d --output-on-failure || exit 1; \
	done

test-python: setup native cross
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

# docs/rules.md, docs/audit-*-rules.md from the findings commands' rules (a test checks they are current)
rules-docs: install
	$(BIN)/python tools/gen_rules_doc.py

test: setup test-native test-python lint

# audit rootfs's image: real Debian arm64 packages (cached in build/cache/debs) and planted defects
demo-rootfs:
	@$(STEP) demo-rootfs -- scripts/demo-rootfs build/demo

demo: setup cross demo-rootfs
	@PATH="$(CURDIR)/$(BIN):$$PATH" scripts/demo

clean:
	rm -rf build $(VENV)
