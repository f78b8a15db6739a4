# The two commands of the README: `go run ./cmd/gtmgate serve --demo` runs the
# product on its embedded defaults; `make test` runs the whole test suite.
.PHONY: run test build bench fuzz docs-screenshots image-binary image image-test

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

# The Console page's screenshots, taken by the browser test (scripts/docs-screenshots).
docs-screenshots:
	bash scripts/docs-screenshots

# Container image: a static binary and the image's files in bin/image/, then
# an image built from them with podman (nothing downloaded at image-build time).
image-binary:
	bash scripts/image-binary

image: image-binary
	podman build --format docker -t gtmgate:latest .

# Builds the image, runs it, checks /health, a tool call and the site, stops it.
image-test:
	bash scripts/image-test
