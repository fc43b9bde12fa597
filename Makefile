# Every target installs what it needs first (scripts/setup.sh is idempotent and quick once done).
.PHONY: setup test serve bench bench-reference bench-browser dist fuzz

setup:
	bash scripts/setup.sh

test: setup
	bash scripts/test.sh

serve: setup
	bash scripts/serve.sh

bench: setup
	bash scripts/bench.sh

# scorelens against the Python reference only: both times and the ratio, median of 5, one run.
bench-reference:
	bash scripts/bench.sh reference

# The browser benchmark only: the site in headless Chromium on 100 MB and 1 GB files, the CLI on
# the same files, the page weight; rewrites the browser block of docs/performance.md.
bench-browser: setup
	bash scripts/bench.sh browser

dist: setup
	bash scripts/dist.sh

# Every fuzz target for SECONDS each (default 60); fails on any crash, leak or timeout
# (fuzz/run.sh). Installs cargo-fuzz first; no nightly needed.
SECONDS ?= 60
fuzz:
	bash scripts/setup.sh fuzz
	bash fuzz/run.sh $(SECONDS)
