#!/usr/bin/env bash
# split.sh: what a flit's hop costs and what a packet's does, on one
# network. It times `flitsim bench ARGS --length F` for messages of 8, 16
# and 32 flits (the same flits a cycle, carried by twice, once and half as
# many packets as at 16), in the order 8 16 32 32 16 8, and fits the wall
# time of a cycle to a + b*16/F by least squares: a is what follows the
# flits and the cycles, b what follows the packets at 16 flits
# (docs/speed.md#session15). Run it before and after a change to see which
# part the change moved.
#
#   scripts/split.sh [BIN] -- BENCH ARGS...
#
# e.g. scripts/split.sh -- --k 16 --n 5 --load 0.05 --warmup 300 --cycles 300 --threads 2
#
# BIN defaults to the flitsim on PATH. The bench arguments must name a
# network (--k); --length and --repeat are the script's. Nothing else
# should run meanwhile: a build or a test shares the two cores.
set -euo pipefail
bin=flitsim
if [ "${1:-}" != "--" ]; then bin=${1:-}; shift || true; fi
[ "${1:-}" = "--" ] || { sed -n '2,17p' "$0" >&2; exit 2; }
shift
[ $# -gt 0 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
out=""
for f in 8 16 32 32 16 8; do
	# The bench's last line; from its end: met, target, bytes/node,
	# allocs/cycle, "M", flit-hops/s, cycles/s median, cycles/s best (the
	# network's name may hold spaces).
	all=$("$bin" bench "$@" --length "$f" --repeat 1 2>&1) || { echo "$all" >&2; echo "split.sh: $bin bench $* --length $f failed" >&2; exit 1; }
	line=$(echo "$all" | tail -1)
	cps=$(echo "$line" | awk '{ print $(NF-7) }')
	fhs=$(echo "$line" | awk '{ print $(NF-5) }')
	us=$(awk -v c="$cps" 'BEGIN { if (c + 0 <= 0) exit 1; v = 1e6 / c; printf (v >= 100 ? "%.0f" : "%.3g"), v }') || { echo "split.sh: no cycles/s in: $line" >&2; exit 1; }
	echo "length $f: $fhs M flit-hops/s, $cps cycles/s, $us µs a cycle"
	out="$out $f:$us"
done
echo "$out" | tr ' ' '\n' | awk -F: 'function us(v) { return v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v) }
NF == 2 {
	x = 16 / $1; y = $2; n++; sx += x; sy += y; sxx += x * x; sxy += x * y; m[$1] += y; k[$1]++
} END {
	b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
	printf "a = %s µs a cycle (flits and cycles), b = %s µs (packets, at 16 flits): %.0f%% of a 16-flit cycle follows the packets\n", us(a), us(b), 100 * b / (a + b)
	for (f = 8; f <= 32; f *= 2) printf "length %d: mean %s µs, fit %s µs\n", f, us(m[f] / k[f]), us(a + b * 16 / f)
}'
