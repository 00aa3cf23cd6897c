package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/validation"
)

// flitsim model --list names every model the harness evaluates, with its
// mode, role and documentation section; it takes no config.
func TestModelList(t *testing.T) {
	code, out, errs := runMain(t, "model", "--list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	for _, n := range validation.ModelNames() {
		found := false
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 3 && f[0] == n {
				found = true
				if f[1] != validation.ModelMode(n) || !strings.Contains(l, validation.ModelSection(n)) || validation.ModelSection(n) == "" {
					t.Errorf("%s: line %q lacks its mode or section", n, l)
				}
			}
		}
		if !found {
			t.Errorf("--list does not name %s", n)
		}
	}
	for _, want := range []string{"reed-bjb-lower                 closed   lower bound", "docs/errata.md#e4", "dally1990                      network  info"} {
		if !strings.Contains(out, want) {
			t.Errorf("--list lacks %q", want)
		}
	}
	if code, _, errs := runMain(t, "model", "--list", "x.yaml"); code != exitUsage || !strings.Contains(errs, "takes no arguments") {
		t.Errorf("--list with a config: exit %d, %s", code, errs)
	}
}

// --extra reaches the values no result row carries: Jacquet's lambda_max
// (curve level), Makrucki's per-stage p_L, and the values of points outside
// the judged domain, marked with their status and reason. --models replaces
// the config's list; --out writes extra.csv.
func TestModelExtra(t *testing.T) {
	dir := t.TempDir()
	slotted := writeConfig(t, dir, "slotted-small", strings.Replace(slottedSmall, "dimensions: 3", "dimensions: 4", 1))
	code, out, errs := runMain(t, "model", slotted, "--extra", "--models", "jacquet-poisson,jacquet-poisson:printed")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"model:jacquet-poisson:printed",
		"slotted-small  jacquet-poisson          -     lambda_max     0.1871303513",
		"slotted-small  jacquet-poisson          0.1   p              0.3733333333",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "model:jacquet ") {
		t.Error("--models did not replace the config's models: list")
	}

	// L = 2, z = 2, b = 2: rho = 0.1 is in Case I's region; rho = 0.4 lies
	// between rho_I(2) = 0.362 and rho_0(2) = 3.89, where no case is valid:
	// the Case I value the report's Figure 6 draws is printed, marked.
	delta := writeConfig(t, dir, "delta-small", strings.Replace(deltaSmall, "queue_length: [2, 4]", "queue_length: 2", 1))
	outDir := filepath.Join(dir, "out")
	code, out, errs = runMain(t, "model", delta, "--extra", "--out", outDir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"p_L[2]", "E[T][1]", "PDT-network", "2.718367347     time units (1/mu)  out-of-domain: delta.Select: outside the model's domain: no case valid at L = 2, rho = 0.4"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(filepath.Join(outDir, "extra.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var marked, pl int
	for _, r := range recs[1:] {
		if r[4] == "PDT-network" && r[2] == "0.4" && r[7] == sim.StatusOutOfDomain && strings.Contains(r[8], "no case valid") {
			marked++
		}
		if r[4] == "p_L[1]" && r[2] == "0.1" && r[7] == sim.StatusOK {
			pl++
		}
	}
	if marked != 1 || pl != 1 {
		t.Errorf("extra.csv: %d marked out-of-domain PDT rows, %d p_L[1] rows, want 1 and 1:\n%v", marked, pl, recs)
	}

	if code, _, errs := runMain(t, "model", delta, "--models", "nosuch"); code != exitUsage || !strings.Contains(errs, `unknown model "nosuch"`) {
		t.Errorf("unknown --models name: exit %d, %s", code, errs)
	}
	// An external model is a valid --models name too.
	if code, out, errs := runMain(t, "model", "../../examples/csv-model/torus.yaml", "--models", "csv:predictions.csv"); code != exitOK || !strings.Contains(out, "model:csv:predictions.csv (latency)") {
		t.Errorf("--models csv:predictions.csv: exit %d, %s\n%s", code, errs, out)
	}
}
