package slotted_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The experiment files of configs/slotted reproduce the paper's Figures 1–3
// (N = 16, 32, 64): each sweeps increasing rates from light load to past the
// model's λ_max, and the λ_max quoted in its header is the model's. The
// files are read with a line scanner for the few keys checked here (the YAML
// loader lives in configs).
func TestExperimentFiles(t *testing.T) {
	files, err := filepath.Glob("../../configs/slotted/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment files (%v)", err)
	}
	key := func(src, k string) string {
		m := regexp.MustCompile(`(?m)^\s*` + k + `:\s*([^#\n]*)`).FindStringSubmatch(src)
		if m == nil {
			return ""
		}
		return strings.TrimSpace(m[1])
	}
	var dims []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		base := strings.TrimSuffix(filepath.Base(f), ".yaml")
		if key(src, "name") != base || key(src, "mode") != "slotted" || key(src, "unit") != "packets/node/slot" {
			t.Errorf("%s: name %q, mode %q, unit %q", f, key(src, "name"), key(src, "mode"), key(src, "unit"))
		}
		n, err := strconv.Atoi(key(src, "dimensions"))
		if err != nil {
			t.Fatalf("%s: dimensions: %v", f, err)
		}
		dims = append(dims, n)
		lmax := cube(t, n).LambdaMax().Lambda
		m := regexp.MustCompile(`lambda_max = ([0-9.]+)`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("%s: header quotes no lambda_max", f)
		}
		// Quoted to 12 decimals: relative rounding below 1e-11.
		if quoted, err := strconv.ParseFloat(m[1], 64); err != nil || math.Abs(quoted-lmax)/lmax > 1e-11 {
			t.Errorf("%s: quoted lambda_max %v, model %v", f, m[1], lmax)
		}
		var rates []float64
		for _, s := range strings.Split(strings.Trim(key(src, "rates"), "[] "), ",") {
			r, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				t.Fatalf("%s: rates: %v", f, err)
			}
			rates = append(rates, r)
		}
		if !slices.IsSorted(rates) || rates[0] > 0.25*lmax || rates[len(rates)-1] < 1.1*lmax {
			t.Errorf("%s: rates %v should increase from below 0.25 λ_max to past 1.1 λ_max (λ_max = %.4f)", f, rates, lmax)
		}
	}
	slices.Sort(dims)
	if !slices.Equal(dims, []int{4, 5, 6}) {
		t.Errorf("dimensions %v, want one file each for n = 4, 5, 6 (Figures 1-3)", dims)
	}
}
