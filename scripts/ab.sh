#!/usr/bin/env bash
# ab.sh: compare the speed of two flitsim binaries on one bench command,
# in rounds that alternate their order (A B, then B A, ...). On the 2-core
# VM the binary that runs first in a pair was slower or faster than the
# one after it depending on the hour (docs/speed.md#session13: one change
# gained 2% in one order and lost 4% in the other), so a comparison made
# in one order only can show a gain that is the order's; this script
# gives each binary each place equally often.
#
#   scripts/ab.sh BIN_A BIN_B [ROUNDS] -- BENCH ARGS...
#
# e.g. scripts/ab.sh /tmp/flitsim-main /tmp/flitsim-new 4 -- --k 16 --n 5
#      --load 0.05 --warmup 200 --cycles 200 --threads 2
#
# ROUNDS (default 4, made even) pairs are run; each line gives a run's
# flit-hops/s (the bench's "flit-hops/s best", one repetition), and the
# last lines the mean of each binary and B's mean over A's. Nothing else
# should run meanwhile: a build or a test shares the two cores.
set -euo pipefail
. "$(dirname "$0")/ab_args.sh"
ab_args 18 4 "$@"
set -- "${bench[@]}"
rounds=$(( (count + 1) / 2 * 2 ))
run() { # prints the flit-hops/s of one run of binary $1, in M
	"$1" bench "${@:2}" --repeat 1 2>&1 | tail -1 | awk '{
		for (i = 1; i <= NF; i++) if ($i == "M" || $i == "k") { v = $(i-1); u = $i; break }
		print (u == "k" ? v / 1000 : v) }'
}
sa=0 sb=0
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then order="a b"; else order="b a"; fi
	for x in $order; do
		bin=$a
		[ "$x" = b ] && bin=$b
		v=$(run "$bin" "$@")
		echo "round $r $x $v"
		if [ "$x" = a ]; then sa=$(awk -v s="$sa" -v v="$v" 'BEGIN { print s + v }'); else sb=$(awk -v s="$sb" -v v="$v" 'BEGIN { print s + v }'); fi
	done
done
awk -v a="$a" -v b="$b" -v sa="$sa" -v sb="$sb" -v n="$rounds" 'BEGIN {
	printf "A %s: mean %.3f M flit-hops/s\nB %s: mean %.3f M flit-hops/s\nB/A %.4f\n", a, sa / n, b, sb / n, sb / sa }'
