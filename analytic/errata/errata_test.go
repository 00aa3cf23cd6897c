package errata

import (
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/internal/doclinks"
	"github.com/flitsim/flitsim/internal/pin"
)

// The register has E1..E18 in order, each with a title, a variant
// description, an anchor that exists in docs/errata.md, and rows that
// evaluate without error to finite defaults.
func TestRegister(t *testing.T) {
	es := Entries()
	if len(es) != 18 {
		t.Fatalf("%d entries, want 18", len(es))
	}
	chk := doclinks.New("../..")
	for i, e := range es {
		if e.ID != fmt.Sprintf("E%d", i+1) || e.Paper == "" || e.Title == "" || e.Variant == "" {
			t.Errorf("entry %d: %+v", i, e)
		}
		for _, p := range chk.CheckText("", e.Anchor(), false) {
			t.Error(p)
		}
		if f, ok := Find(fmt.Sprintf("e%d", i+1)); !ok || f.ID != e.ID {
			t.Errorf("Find(e%d) = %v, %v", i+1, f.ID, ok)
		}
		rows, err := e.Rows()
		if err != nil || len(rows) == 0 {
			t.Errorf("%s: %d rows, %v", e.ID, len(rows), err)
		}
		for _, r := range rows {
			if math.IsNaN(r.Default) || math.IsInf(r.Default, 0) || math.IsInf(r.Variant, 0) {
				t.Errorf("%s %s: default %v, variant %v", e.ID, r.Quantity, r.Default, r.Variant)
			}
		}
	}
	if _, ok := Find("E19"); ok {
		t.Error("Find(E19) succeeded")
	}
}

// The numbers the register quotes, against the pins of the model packages
// (docs/models.md) and the exact values of the derivations in
// docs/errata.md. Each entry's default and variant must differ where the
// paper prints something evaluable.
func TestRegisterNumbers(t *testing.T) {
	want := map[string][][2]string{ // per entry, per row: default, variant ("" = none)
		"E1":  {{"3.25", "0.893333"}, {"1.70", "0.852222"}, {"3.25", ""}},
		"E2":  {{"1", "0.5"}, {"1.9448818897637796", "0.972441"}, {"1", "0.5"}, {"2.538532", "3.899672"}},
		"E3":  {{"5.0909091", "17.363636"}, {"5.0909091", ""}, {"5.8", ""}, {"6.2026377494994183", ""}},
		"E4":  {{"3.617962963", "3.51105148"}, {"5.375259259", "5.216419341"}},
		"E5":  {{"11.56129032", "12.38709677"}, {"28.90322581", "30.96774194"}},
		"E6":  {{"2.142857143", "2.333333333"}, {"2.333333333", ""}},
		"E7":  {{"0.1428571429", ""}, {"1.333333333", ""}, {"0.9063139874", ""}},
		"E8":  {{"0.132485", "0.099288"}, {"3.7887723", "3.342370"}, {"0.0000078", "0.256579"}},
		"E9":  {{"2.193332", "2.191901"}, {"3.4229670", "3.383277"}, {"15.36", "14.68"}},
		"E10": {{"0.23431731", "0.23019999"}, {"0.23431731", "0.2394961"}, {"3.7887723", "3.734787"}},
		"E11": {{"2.9918143", "1.60"}, {"3.7887723", "2.0206786"}, {"2.133333333", ""}},
		"E12": {{"0.35449714", "0.553452"}, {"0.35449714", ""}},
		"E13": {{"51.909118", "51.972369"}, {"73.412536", "75.148550"}, {"81.263482", "82.970659"}},
		"E14": {{"51.909118", "42.642180"}, {"0.011044", "0.010256"}},
		"E15": {{"3", "4"}, {"39", "40"}},
		"E16": {{"39", "35"}, {"47", "39"}},
		"E17": {{"48.497041", "42.286978"}, {"0.001380", "0.003095"}},
		"E18": {{"39", ""}, {"43.939966", ""}, {"0.008929", ""}},
	}
	for _, e := range Entries() {
		rows, err := e.Rows()
		if err != nil {
			t.Fatal(err)
		}
		w := want[e.ID]
		if len(rows) != len(w) {
			t.Errorf("%s: %d rows, want %d", e.ID, len(rows), len(w))
			continue
		}
		for i, r := range rows {
			pin.Check(t, e.ID+" "+r.Quantity+" default", r.Default, w[i][0])
			if w[i][1] == "" {
				if !math.IsNaN(r.Variant) {
					t.Errorf("%s %s: variant %v, want none", e.ID, r.Quantity, r.Variant)
				}
				continue
			}
			pin.Check(t, e.ID+" "+r.Quantity+" variant", r.Variant, w[i][1])
		}
	}
}
