#!/usr/bin/env bash
# abw.sh: compare the speed of two flitsim builds of the same exact engine
# window by window, on one pinned CPU, where scripts/ab.sh's whole-run
# rates are at the mercy of the host. Both builds simulate the same cycles
# (same network, seed and cycles: the engine is exact), so each window of
# --window cycles does the same work in both; the host's slowdowns come and
# go, so the best of a window's runs is that window's time without them.
# It runs the two binaries alternately (A B, B A, ...), each `bench ARGS
# --repeat 1 --cpu CPU --windows-out FILE`, and prints each binary's sum of
# best windows and B's speed over A's (sum A / sum B), with the median of
# the per-window ratios. It stops if the windows' flit-hops differ between
# runs: then the builds do not simulate the same thing and their times do
# not compare.
#
#   scripts/abw.sh BIN_A BIN_B [RUNS] -- BENCH ARGS... --window W
#
# e.g. scripts/abw.sh /tmp/flitsim-main /tmp/flitsim-new 2 -- --k 16 --n 5
#      --load 0.05 --warmup 200 --cycles 150 --window 5
#
# RUNS (default 2) runs of each binary; CPU is $ABW_CPU (default 0). On the
# 2-core VM of docs/speed.md#session17 one build against itself came out
# at 1% either way this way, where scripts/ab.sh moved by 35%. Nothing
# else should run meanwhile.
set -euo pipefail
. "$(dirname "$0")/ab_args.sh"
ab_args 24 2 "$@"
set -- "${bench[@]}"
runs=$count
case " $* " in *" --window "*) ;; *) echo "abw.sh: give the bench arguments a --window" >&2; exit 2 ;; esac
cpu=${ABW_CPU:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run binary $1 as label $2, round $3
	"$1" bench "${@:4}" --repeat 1 --cpu "$cpu" --windows-out "$tmp/$2.$3" >/dev/null
	echo "run $3 $2 $(awk 'NR > 1 { s += $3 } END { printf "%.3f s in %d windows", s, NR - 1 }' "$tmp/$2.$3")"
}
for ((r = 1; r <= runs; r++)); do
	if ((r % 2)); then
		run "$a" a "$r" "$@"
		run "$b" b "$r" "$@"
	else
		run "$b" b "$r" "$@"
		run "$a" a "$r" "$@"
	fi
done
awk -v A="$a" -v B="$b" '
FNR == 1 { split(FILENAME, p, "/"); split(p[length(p)], q, "."); who = q[1]; next }
{
	w = $2
	if (w in hops && hops[w] != $4) {
		printf "abw.sh: window %d moved %d flit-hops in one run and %d in another: not the same simulation\n", w, hops[w], $4 > "/dev/stderr"
		bad = 1; exit 1
	}
	hops[w] = $4
	k = who SUBSEP w
	if (!(k in best) || $3 < best[k]) best[k] = $3
	if (w + 1 > n) n = w + 1
}
END {
	if (bad) exit 1
	for (w = 0; w < n; w++) {
		sa += best["a", w]; sb += best["b", w]
		r[w] = best["b", w] / best["a", w]
	}
	# the median of the per-window time ratios B/A (insertion sort: n is small)
	for (i = 1; i < n; i++) { v = r[i]; j = i - 1; while (j >= 0 && r[j] > v) { r[j + 1] = r[j]; j-- } r[j + 1] = v }
	med = (n % 2) ? r[(n - 1) / 2] : (r[n / 2 - 1] + r[n / 2]) / 2
	printf "A %s: best windows %.3f s\nB %s: best windows %.3f s\n", A, sa, B, sb
	printf "B/A speed %.4f (per-window time B/A median %.4f, %d windows)\n", sa / sb, med, n
}' "$tmp"/a.* "$tmp"/b.*
