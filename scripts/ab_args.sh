# ab_args.sh: the arguments ab.sh and abw.sh share, sourced by both:
#
#   ab_args USAGE_LAST DEFAULT_COUNT "$@"
#
# reads BIN_A BIN_B [COUNT] -- BENCH ARGS... and sets a, b, count and the
# array bench; with fewer than three arguments it prints the calling
# script's header (lines 2..USAGE_LAST) and exits 2.
ab_args() {
	local usage=$1
	count=$2
	shift 2
	[ $# -ge 3 ] || { sed -n "2,${usage}p" "$0" >&2; exit 2; }
	a=$1 b=$2
	shift 2
	if [ "$1" != "--" ]; then count=$1; shift; fi
	[ "${1:-}" = "--" ] || { echo "$(basename "$0"): expected -- before the bench arguments" >&2; exit 2; }
	shift
	bench=("$@")
}
