package configs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the loader panic, and that it
// returns either a valid experiment or a non-empty Errors whose entries all
// name the file and a line. Run with: go test -fuzz=FuzzParse ./configs
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("*.yaml")
	modeFiles, _ := filepath.Glob("*/*.yaml") // closed, delta, slotted, validation
	for _, p := range append(files, modeFiles...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		base, "", "a: &x 1\nb: *x\n", "<<: {a: 1}\n", "[1, 2]\n", "network: {topology: hypercube, dimensions: 99}\n",
		"sweep: {rates: [1e308, .inf, .nan]}\n", "seed: 18446744073709551616\n", "router: {vcs: 0x7fffffffffffffff}\n",
		"---\n---\n", "? [a]\n: 1\n", "traffic: {hotspot_nodes: [-1, 99999999999]}\n",
		closedBase, deltaBase, slottedBase, "mode: delta\ndelta: {queue_length: &a 3}\n", "mode: delta\ndelta: {queue_length: }\n",
		"mode: slotted\nslotted: {dimensions: 20}\nsweep: {unit: packets/node/slot, rates: [0.1]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("f.yaml", data)
		if err == nil {
			if e == nil {
				t.Fatal("nil experiment without error")
			}
			_ = e.Hash()
			for i := range e.Sweep.Rates {
				_ = e.MessageRate(i)
			}
			return
		}
		var es Errors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Fatalf("error %v is not a non-empty Errors", err)
		}
		for _, x := range es {
			if x.File != "f.yaml" || x.Line < 1 {
				t.Fatalf("problem without file and line: %+v", x)
			}
		}
	})
}
