package validation

import (
	"strings"
	"testing"
)

// FuzzPredictionsCSV feeds arbitrary text to the csv: model reader: a set
// of predictions or an error naming the file, never a panic. Run with:
// go test -fuzz=FuzzPredictionsCSV ./validation
func FuzzPredictionsCSV(f *testing.F) {
	for _, s := range []string{
		"# name: m\n# saturation: 0.4\nload,latency,throughput\n0.1,20,0.1\n0.2,25,0.2\n",
		"load,latency\n0.1,NaN\n", "load,throughput,status,reason\n0.1,0.1,saturated,\"a, b\"\n",
		"", "#\n", "load\n", "load,latency,latency\n", "load,latency\n1e999,1\n", "load,latency\n\"x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parsePredictionsCSV("p.csv", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "p.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		_ = p.check(false)
	})
}
