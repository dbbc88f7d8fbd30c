# Benchmarks with gobench-dyn, and the usual targets.
#
#   make bench                          run the example benchmarks
#   make bench PKGS=./... ARGS='--stop cv --budget 5m'
#   make bench-compare BASE=v1.2.0      compare with a git revision; exit 1 on a regression
#   make report                         HTML and Markdown report of the last raw records
#
# GOBENCH_DYN=gobench-dyn uses an installed binary instead of building this one.

GO ?= go
GOBENCH_DYN ?= $(GO) run ./cmd/gobench-dyn

# Packages to benchmark, and further arguments of gobench-dyn run.
PKGS ?= ./examples/...
ARGS ?=
# Git revision bench-compare measures against.
BASE ?= origin/main

OUT ?= bench.txt
RAW ?= bench.jsonl
BASE_OUT ?= bench-base.txt
HTML ?= report.html
MARKDOWN ?= report.md

.PHONY: bench bench-compare report test

bench:
	$(GOBENCH_DYN) run $(PKGS) -o $(OUT) --raw $(RAW) $(ARGS)

# Both versions run interleaved in one schedule, so that they share every
# noise period; the comparison is printed at the end of the run.
bench-compare:
	$(GOBENCH_DYN) run $(PKGS) --baseline $(BASE) --baseline-out $(BASE_OUT) -o $(OUT) --raw $(RAW) $(ARGS)

report:
	$(GOBENCH_DYN) report --html $(HTML) --markdown $(MARKDOWN) $(RAW)

test:
	$(GO) test ./...
