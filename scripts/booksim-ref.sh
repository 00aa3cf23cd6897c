#!/usr/bin/env bash
# booksim-ref.sh: regenerate flitsim's BookSim 2 reference data.
#
#   BOOKSIM=/path/to/booksim [BOOKSIM_COMMIT=<sha>] [REF=dir] scripts/booksim-ref.sh [CONFIG...]
#
# Runs an already-built BookSim 2 binary (given by path; this repository
# does not build BookSim, by rule: build it yourself from its public source,
# github.com/booksim/booksim2, as docs/booksim.md describes) on the BookSim
# configuration files kept in validation/booksim/ref/*.cfg, and writes the
# parsed figures to validation/booksim/ref/reference.csv (all configurations)
# or to stdout (when CONFIG names are given). For each configuration:
#
#   1. saturation throughput: sim_type = throughput at offered load 1.0
#      flits/node/cycle (injection_rate_uses_flits = 1 is in every .cfg:
#      without it BookSim reads injection_rate in packets), seeds 1..3;
#   2. latency at the fractions $FRACTIONS of that saturation throughput
#      (the mean of the three seeds), sim_type = latency, seeds 1..3.
#
# A permutation with fixed points (traffic = transpose, bitrev or shuffle:
# nodes that send to themselves) takes step 2's fractions of the saturation
# of the nodes that are not fixed points instead. At offered load 1.0 each
# of the F fixed points of the N = k^n nodes accepts a flit every cycle
# without crossing the network (BookSim delivers its own traffic through
# its injection and ejection channels), which inflates step 1's figure S:
# the other nodes carry (S*N - F) / (N - F) flits/node/cycle, the network's
# real saturation (S from the unrounded mean; rounded to 4 decimals like S).
# F is sqrt(N) for transpose (the nodes whose two halves of the address
# agree: the diagonal), 2^ceil(b/2) for bitrev on N = 2^b (the
# palindromes), 2 for shuffle (all zeros, all ones). Example: the 8x8
# torus under transpose, S = 0.1871 and F = 8 of 64 give 0.0709
# flits/node/cycle, and 0.5 of it is 0.0355, where 0.5 of S (0.0935) is
# beyond the network's saturation (docs/booksim.md#permutations-with-fixed-points).
# The saturation rows still record S, BookSim's figure at offered 1.0.
#
# SATURATION=<flits/node/cycle> skips step 1 and takes the fractions of that
# figure instead: for a BookSim build whose throughput run at 1.0 deadlocks
# (the adaptive set, validation/booksim/ref-adaptive, takes the loads of the
# committed min_adapt rows; docs/booksim.md#adaptive).
#
# BookSim's traps, handled here: it exits with status 255 after a successful
# run (so the exit status is ignored and the output is checked instead); a
# latency run whose latency passes latency_thres (500) ends with "unstable"
# and reports no figures (recorded as status "unstable"); uniform traffic
# includes the source (flitsim's configuration mirrors that).
set -euo pipefail

: "${BOOKSIM:?set BOOKSIM to the path of a built BookSim 2 binary}"
[ -x "$BOOKSIM" ] || { echo "booksim-ref: $BOOKSIM is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
ref=${REF:-"$here/validation/booksim/ref"} # REF=validation/booksim/graph: the graph networks' set (docs/booksim.md#graph-networks)
commit=${BOOKSIM_COMMIT:-$(git -C "$(dirname "$BOOKSIM")" rev-parse HEAD 2>/dev/null || echo unknown)}
FRACTIONS=${FRACTIONS:-"0.05 0.3 0.5 0.7 0.8 0.9"}
SEEDS=${SEEDS:-"1 2 3"}
SAMPLE_PERIOD=${SAMPLE_PERIOD:-5000}

# run CFG SEED KEY=VALUE...: one BookSim run, its figures as CSV fields
# latency,network_latency,accepted,hops,status
run() {
	local cfg=$1 seed=$2
	shift 2
	local out
	out=$("$BOOKSIM" "$cfg" seed="$seed" "$@" 2>&1 || true) # exits 255 on success
	if grep -q "unstable" <<<"$out"; then
		echo ",,,,unstable"
		return
	fi
	# The overall statistics follow "====== Overall Traffic Statistics ======".
	awk '
		/Overall Traffic Statistics/ { on = 1 }
		on && /^Packet latency average/ { lat = $5 }
		on && /^Network latency average/ { net = $5 }
		on && /^Accepted flit rate average/ { acc = $6 }
		on && /^Hops average/ { hops = $4 }
		END {
			if (acc == "") { print ",,,,failed"; exit }
			printf "%s,%s,%s,%s,ok\n", lat, net, acc, hops
		}' <<<"$out"
}

# fixed CFG: "F N", the fixed points of CFG's traffic and its node count
# (F = 0 for a traffic that is not such a permutation; N = k^n).
fixed() {
	awk -F'[ =;]+' '
		$1 == "k" { k = $2 } $1 == "n" { n = $2 } $1 == "traffic" { t = $2 }
		END {
			N = k ^ n; b = 0; for (m = N; m > 1; m /= 2) b++
			F = 0
			if (t == "transpose") F = sqrt(N)
			else if (t == "bitrev") F = 2 ^ int((b + 1) / 2)
			else if (t == "shuffle") F = 2
			printf "%d %d\n", F, N
		}' "$1"
}

one() {
	local cfg=$1 name
	name=$(basename "$cfg" .cfg)
	local sum=0 n=0 line acc sat
	if [ -n "${SATURATION:-}" ]; then
		sat=$SATURATION
	else
		for seed in $SEEDS; do
			line=$(run "$cfg" "$seed" sim_type=throughput injection_rate=1.0)
			echo "$name,saturation,1,1.0,$seed,$line"
			acc=$(cut -d, -f3 <<<"$line")
			[ -n "$acc" ] && { sum=$(awk -v a="$sum" -v b="$acc" 'BEGIN { print a + b }'); n=$((n + 1)); }
		done
		[ "$n" -gt 0 ] || { echo "booksim-ref: $name: no saturation figure" >&2; return 1; }
		sat=$(awk -v s="$sum" -v n="$n" 'BEGIN { printf "%.4f", s / n }')
		local fx
		fx=$(fixed "$cfg")
		if [ "${fx%% *}" != 0 ]; then
			sat=$(awk -v s="$sum" -v n="$n" -v fx="$fx" 'BEGIN { split(fx, a, " "); printf "%.4f", (s / n * a[2] - a[1]) / (a[2] - a[1]) }')
			echo "booksim-ref: $name: ${fx%% *} of ${fx#* } nodes are fixed points; latency loads are fractions of $sat, the other nodes' saturation" >&2
		fi
	fi
	for f in $FRACTIONS; do
		local load
		load=$(awk -v s="$sat" -v f="$f" 'BEGIN { printf "%.4f", s * f }')
		for seed in $SEEDS; do
			echo "$name,latency,$f,$load,$seed,$(run "$cfg" "$seed" sim_type=latency injection_rate="$load" sample_period="$SAMPLE_PERIOD")"
		done
	done
}

header="config,kind,fraction,offered,seed,latency,network_latency,accepted,hops,status"
if [ $# -gt 0 ]; then
	echo "$header"
	for c in "$@"; do one "$ref/$c.cfg"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cfg in "$ref"/*.cfg; do
	echo "$cfg"
done | xargs -P "${JOBS:-2}" -I{} bash -c 'set -e; '"$(declare -f run fixed one)"'; BOOKSIM='"$BOOKSIM"' SEEDS="'"$SEEDS"'" FRACTIONS="'"$FRACTIONS"'" SAMPLE_PERIOD='"$SAMPLE_PERIOD"' one {} > '"$tmp"'/$(basename {} .cfg).csv'
{
	echo "# BookSim 2 reference for flitsim (docs/booksim.md); generated by scripts/booksim-ref.sh"
	echo "# booksim commit $commit; sample_period $SAMPLE_PERIOD (latency runs); loads in flits/node/cycle"
	echo "$header"
	cat "$tmp"/*.csv
} >"$ref/reference.csv"
echo "booksim-ref: wrote $ref/reference.csv ($(grep -vc '^#' "$ref/reference.csv") lines)"
