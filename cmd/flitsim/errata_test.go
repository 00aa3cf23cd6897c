package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/analytic/errata"
)

// docs/errata.md quotes, for every entry, exactly what flitsim errata EN
// prints: a change to a model that moves a number fails here until the
// register is updated.
func TestErrataDocQuotesCommand(t *testing.T) {
	doc, err := os.ReadFile("../../docs/errata.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errata.Entries() {
		var b bytes.Buffer
		if err := printErratum(&b, e); err != nil {
			t.Fatal(err)
		}
		var ind []string
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			ind = append(ind, "    "+l)
		}
		if !bytes.Contains(doc, []byte("`flitsim errata "+e.ID+"` prints:\n\n"+strings.Join(ind, "\n")+"\n")) {
			t.Errorf("docs/errata.md does not quote the current output of flitsim errata %s:\n%s", e.ID, b.String())
		}
	}
}

func TestErrataCommand(t *testing.T) {
	code, out, errs := runMain(t, "errata", "e11", "E3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"E11  Jacquet & Mühlethaler", "D, n = 4, 0.5 lambda_max         3.788772291  2.020678555", "E3  Reed 1983", "N_low_cross, K = 15  "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "E11") > strings.Index(out, "E3 ") {
		t.Error("entries not printed in the order asked")
	}
	code, out, _ = runMain(t, "errata")
	if code != exitOK || strings.Count(out, "(docs/errata.md#") != 18 {
		t.Errorf("flitsim errata: exit %d, %d entries", code, strings.Count(out, "(docs/errata.md#"))
	}
	if code, _, errs := runMain(t, "errata", "E19"); code != exitUsage || !strings.Contains(errs, `unknown id "E19"`) {
		t.Errorf("E19: exit %d, %s", code, errs)
	}
}

// The register also quotes flitsim model --models DEFAULT,VARIANT through a
// config (two loads of each); every quoted line must still be a line of
// what that command prints.
func TestErrataDocQuotesModelCommand(t *testing.T) {
	doc, err := os.ReadFile("../../docs/errata.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?m)^Through a config, `flitsim model ([^`]+)` prints[^\\n]*:\\n\\n((?:    [^\\n]*\\n)+)")
	ms := re.FindAllStringSubmatch(string(doc), -1)
	if len(ms) < 7 {
		t.Fatalf("%d config quotes in docs/errata.md, want at least 7", len(ms))
	}
	for _, m := range ms {
		args := strings.Fields(m[1])
		args[0] = "../../" + args[0]
		code, out, errs := runMain(t, append([]string{"model"}, args...)...)
		if code != exitOK {
			t.Fatalf("flitsim model %s: exit %d, %s", m[1], code, errs)
		}
		lines := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			lines[l] = true
		}
		for _, q := range strings.Split(strings.TrimRight(m[2], "\n"), "\n") {
			if !lines[strings.TrimPrefix(q, "    ")] {
				t.Errorf("flitsim model %s no longer prints the quoted line\n%q", m[1], q)
			}
		}
	}
}
