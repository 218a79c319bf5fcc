# Tacit: `make serve` runs the server, `make test` runs the tests. Both install
# whatever Debian packages are missing first. `make mutants` (not part of `make test`)
# plants each one-line bug of Tests/mutation/mutants.txt and reports which ones the
# tests missed; run it before stopping work on a rule (README.md, "Mutation runs").

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

BUILD_PACKAGES := libmicrohttpd-dev libsqlite3-dev libpq-dev libssl-dev libphonenumber-dev libjemalloc-dev libcurl4
TEST_PACKAGES := chromium chromium-driver python3-venv sqlite3 postgresql-15 haproxy wrk openssl
VENV := .build/venv
SWIFT_TEST_FLAGS ?=
# Swift Testing starts every test at once by default: on two cores the suite's own load
# then stretches socket tests past their timeouts. Sixteen at a time runs it faster and
# keeps their timing honest.
SWIFT_TEST_WIDTH := --experimental-maximum-parallelization-width 16

.PHONY: all deps test-deps build serve test test-swift test-console soak fuzz bench clean lint mutants

all: build

# Installs the listed packages that are not installed yet.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES))

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))
	@if [ ! -x $(VENV)/bin/pytest ] || [ Tests/requirements.txt -nt $(VENV)/.installed ]; then \
		( [ -x $(VENV)/bin/pip ] || python3 -m venv $(VENV) ) && $(VENV)/bin/pip install -q -r Tests/requirements.txt \
			&& touch $(VENV)/.installed; \
	fi

build: deps
	swift build -c release --product tacit

serve: build
	.build/release/tacit serve --dev

test: test-deps lint
	swift build --build-tests $(SWIFT_TEST_FLAGS)
	# Foundation's Process.run() (used by the CLI tests) can crash walking a very large
	# descriptor table, so the tests run with a bounded one.
	# A failure's lines are printed again at the end: CI shows only the log's last lines.
	@ulimit -n 4096 && set -o pipefail && swift test --skip-build $(SWIFT_TEST_WIDTH) $(SWIFT_TEST_FLAGS) 2>&1 \
		| tee .build/swift-test.log || { \
		echo "--- the failures of this run, again:"; \
		grep -a -A 4 -E 'recorded an issue|error:|Fatal error' .build/swift-test.log | head -n 80; exit 1; }
	$(MAKE) --no-print-directory test-providers
	$(MAKE) --no-print-directory test-console
	$(MAKE) --no-print-directory soak SOAK_KILLS=20
	$(MAKE) --no-print-directory soak-ha SOAK_HA_KILLS=12
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60

# Every Swift line of the sources at most 120 columns.
lint:
	python3 Tests/lint/line_length.py Sources

# The Swift suite STRESS_RUNS times in a row, each run bounded by STRESS_TIMEOUT seconds
# (timeout signals the run's whole process group, so servers a hung run started go too),
# stopping at the first failure with the end of its log. Flaky crashes and hangs under
# concurrency show up here that one run rarely meets.
STRESS_RUNS ?= 20
STRESS_TIMEOUT ?= 120
.PHONY: test-stress
test-stress: deps
	swift build --build-tests $(SWIFT_TEST_FLAGS)
	@ulimit -n 4096; for run in $$(seq 1 $(STRESS_RUNS)); do \
		timeout --kill-after=10 $(STRESS_TIMEOUT) swift test --skip-build $(SWIFT_TEST_WIDTH) $(SWIFT_TEST_FLAGS) >.build/test-stress.log 2>&1; \
		status=$$?; \
		if [ $$status -ne 0 ]; then \
			tail -n 40 .build/test-stress.log; \
			{ [ $$status -eq 124 ] || [ $$status -eq 137 ]; } && echo "test-stress: run $$run timed out after $(STRESS_TIMEOUT) s"; \
			echo "test-stress: run $$run of $(STRESS_RUNS) failed (exit $$status)"; exit 1; \
		fi; \
		echo "test-stress: run $$run of $(STRESS_RUNS): $$(grep -o 'Test run with .*' .build/test-stress.log | tail -n 1)"; \
	done

# The providers against local fakes of their APIs (each its own process), held to the
# real wire format by the providers' official SDKs, and a non-dev server end to end.
.PHONY: test-providers
test-providers: test-deps
	swift build --product tacit
	TACIT_BIN=$(CURDIR)/.build/debug/tacit $(VENV)/bin/pytest -q Tests/providers

test-console: test-deps
	swift build --product tacit
	TACIT_BIN=$(CURDIR)/.build/debug/tacit $(VENV)/bin/pytest -q Tests/console

# Kill-9 soak: SIGKILLs a loaded server at random points, restarts it, checks every invariant.
SOAK_KILLS ?= 200
soak: test-deps
	swift build --product tacit
	TACIT_BIN=$(CURDIR)/.build/debug/tacit $(VENV)/bin/python Tests/soak/soak.py --kills $(SOAK_KILLS)

# The same soak on two instances behind HAProxy on one throwaway PostgreSQL cluster: kills
# either instance at random points and PostgreSQL once (about a minute for 12 kills).
SOAK_HA_KILLS ?= 50
.PHONY: soak-ha
soak-ha: test-deps
	swift build --product tacit
	TACIT_BIN=$(CURDIR)/.build/debug/tacit $(VENV)/bin/python Tests/soak/soak_ha.py --kills $(SOAK_HA_KILLS)

# Schemathesis against /v1/openapi.json of a live dev server: no 5xx, responses conform.
FUZZ_SECONDS ?= 300
fuzz: test-deps
	swift build --product tacit
	TACIT_BIN=$(CURDIR)/.build/debug/tacit VENV=$(CURDIR)/$(VENV) Tests/fuzz/fuzz.sh $(FUZZ_SECONDS)

# Each mutant planted, built and tested alone, the tree restored after each; MUTANTS="03 07"
# plants only those. Slow (a build per mutant), so never part of `make test`.
MUTANTS ?=
mutants: deps
	Tests/mutation/run $(MUTANTS)

bench: build test-deps
	Benchmarks/run

clean:
	rm -rf .build
