#!/usr/bin/env bash
# pgo.sh: take cmd/flitsim/default.pgo, the profile the flitsim binary is
# built with (profile-guided optimisation), again. Run it after a change
# that moves the hot code: the profile names call sites by their line
# within a function, and a stale one loses their inlining.
#
#   scripts/pgo.sh
#
# It merges two CPU profiles of a build without PGO: the Torus benchmark
# (8x8 and 16x16 tori, the speed targets: docs/speed.md) and the 16-ary
# 5-cube at 0.05 on two threads (the headline network, issue 20; 7 GB and
# about two minutes). The 5-cube's samples outweigh the small tori's by
# about a hundred to one, so the merged profile is the large network's,
# which the small tori share their hot code with (docs/speed.md#session14).
# Nothing else should run meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -o "$tmp/network.test" ./sim/network -run XXX -bench Torus -benchtime 120000x -pgo=off -cpuprofile "$tmp/small.pprof" >/dev/null
go build -pgo=off -o "$tmp/flitsim" ./cmd/flitsim
"$tmp/flitsim" bench --k 16 --n 5 --load 0.05 --warmup 300 --cycles 300 --repeat 1 --threads 2 --cpuprofile "$tmp/cube.pprof" >/dev/null
go tool pprof -proto "$tmp/small.pprof" "$tmp/cube.pprof" >"$tmp/merged.pgo" 2>/dev/null
mv "$tmp/merged.pgo" cmd/flitsim/default.pgo
echo "pgo.sh: cmd/flitsim/default.pgo taken again ($(wc -c <cmd/flitsim/default.pgo) bytes)"
