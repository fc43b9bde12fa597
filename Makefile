# Every target installs what it needs first (scripts/setup.sh is idempotent and quick once done).
.PHONY: setup test serve bench dist

setup:
	bash scripts/setup.sh

test: setup
	bash scripts/test.sh

serve: setup
	bash scripts/serve.sh

bench: setup
	bash scripts/bench.sh

dist: setup
	bash scripts/dist.sh
