package reed

import "strconv"

func ringName(k int) string      { return "ring(" + strconv.Itoa(k) + ")" }
func busName(k int) string       { return "bus(" + strconv.Itoa(k) + ")" }
func hypercubeName(n int) string { return "hypercube(" + strconv.Itoa(n) + ")" }
func torusName(k, n int) string {
	return "torus(" + strconv.Itoa(k) + "-ary " + strconv.Itoa(n) + "-cube)"
}
