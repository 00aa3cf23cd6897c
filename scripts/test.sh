#!/usr/bin/env bash
# The project's test command (README: "Run the tests"): formatting, vet, and
# the short test suite, which includes the reduced validation set that guards
# model-simulation accuracy. Long sweeps live behind -short; see README.
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt needed on:" >&2
  echo "$unformatted" >&2
  exit 1
fi
go vet ./...
go test -short -count=1 ./...
