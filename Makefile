# Every target installs what it needs first (scripts/setup.sh is idempotent and quick once done).
.PHONY: setup test serve bench bench-reference dist

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

dist: setup
	bash scripts/dist.sh
