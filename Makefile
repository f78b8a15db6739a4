# The two commands of the README: `go run ./cmd/gtmgate serve --demo` runs the
# product on its embedded defaults; `make test` runs the whole test suite.
.PHONY: run test build bench fuzz

run:
	go run ./cmd/gtmgate serve --demo

test:
	bash scripts/test

build:
	go build -o bin/gtmgate ./cmd/gtmgate

bench:
	bash bench/run.sh

# Short fuzzing of every decoder of outside input (seed corpora also run in `make test`).
fuzz:
	bash scripts/fuzz
