#!/usr/bin/env bash
# cost.sh: deterministic cost of one simulated cycle of a reference speed
# network (network.SpeedConfig), counted by valgrind's callgrind with its
# branch and cache simulation: instructions, mispredicted conditional
# branches and first-level data-cache misses per cycle, plus the functions
# that execute most instructions. Wall time on a shared VM varies by tens of
# percent between identical runs; these counts are reproducible to the
# instruction, so an optimisation can be judged before it is timed.
#
#   scripts/cost.sh [8|16] [cycles]    (default: 8x8 torus at 0.2, 5000 cycles)
#
# The engine is built with cmd/flitsim/default.pgo, as flitsim itself is;
# PGO=off scripts/cost.sh counts it without (profile-guided inlining moves
# counts by a few percent, and a stale profile misleads when comparing).
# Needs valgrind (apt-get install valgrind); the Go runtime's asynchronous
# preemption is switched off, which valgrind requires.
set -euo pipefail
k=${1:-8}
cycles=${2:-5000}
command -v valgrind >/dev/null || { echo "cost.sh: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -pgo="${PGO:-cmd/flitsim/default.pgo}" -o "$tmp/network.test" ./sim/network
FLITSIM_COST_K=$k FLITSIM_COST_CYCLES=$cycles GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 \
	valgrind --tool=callgrind --branch-sim=yes --cache-sim=yes --callgrind-out-file="$tmp/out" \
	"$tmp/network.test" -test.run '^TestCostProfile$' >"$tmp/stdout" 2>"$tmp/log" || { cat "$tmp/stdout" "$tmp/log" >&2; exit 1; }
grep -m1 '^cost profile: ' "$tmp/stdout" | sed 's/^cost profile: //' >"$tmp/case" # the case the test ran (network.SpeedCases)
callgrind_annotate --inclusive=yes "$tmp/out" 2>/dev/null | grep -m1 'costCycles \[' >"$tmp/total" || true
callgrind_annotate "$tmp/out" 2>/dev/null >"$tmp/self"
python3 - "$tmp/total" "$tmp/self" "$tmp/case" "$cycles" <<'PY'
import re, sys
total, self_, case, cycles = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().strip(), int(sys.argv[4])
names = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim".split()
def counts(line):
    line = re.sub(r"\(\s*[\d.]+%\)", "", line)
    vals = []
    for t in line.split():
        if re.fullmatch(r"[\d,]+", t): vals.append(int(t.replace(",", "")))
        elif t == ".": vals.append(0)
        else: break
    return dict(zip(names, vals))
# costCycles runs twice (warm-up, measured) and callgrind sums both: the
# measured half is taken as half the total, which the warm-up's steady
# state makes a slight overestimate.
c = counts(open(total).read())
per = lambda key: c.get(key, 0) / (2 * cycles)
print(f"{case}, per simulated cycle:")
print(f"  instructions          {per('Ir'):10.0f}")
print(f"  mispredicted branches {per('Bcm'):10.0f}")
print(f"  D1 read misses        {per('D1mr'):10.0f}")
print(f"  D1 write misses       {per('D1mw'):10.0f}")
print("self instructions by function (top 12):")
on, n = False, 0
for l in open(self_):
    if "file:function" in l: on = True; continue
    if not on or l.startswith("-"): continue
    m = re.match(r"\s*([\d,]+)\s+\(\s*([\d.]+)%\).*\s(\S+:\S+)\s*(\[.*\])?\s*$", l)
    if not m: continue
    fn = re.sub(r".*github.com/flitsim/flitsim/", "", m.group(3).split(":")[-1])
    print(f"  {int(m.group(1).replace(',', ''))/(2*cycles):10.0f}  {m.group(2):>6}%  {fn}")
    n += 1
    if n == 12: break
PY
