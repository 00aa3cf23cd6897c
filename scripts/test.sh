#!/usr/bin/env bash
# The project's test command (README: "Run the tests"). Formatting, vet, and
# the short test suite; long validation sweeps are behind -short and run with
# scripts/validate-full.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null; find . -name '*.go' -newer go.mod 2>/dev/null) 2>/dev/null | sort -u)
if [ -n "$unformatted" ]; then
  echo "gofmt needed on:" >&2; echo "$unformatted" >&2; exit 1
fi
go vet ./...
go test -short -count=1 ./...
