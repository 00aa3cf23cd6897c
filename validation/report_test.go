package validation

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/internal/doclinks"
	"github.com/flitsim/flitsim/sim"
	simdelta "github.com/flitsim/flitsim/sim/delta"
)

// syntheticReport builds a report without running a simulator: Reed's
// ring with "simulated" points 1% above MVA, and Jacquet's n = 4 cube with
// points on the Poisson curve up to a saturated last point.
func syntheticReport(t *testing.T) Report {
	t.Helper()
	var r Report
	reedS := reedSetup(1, 2, 4, 8, 16, 30)
	jS := slottedSetup(4, 0.02, 0.06, 0.1, 0.14, 0.16, 0.2)
	for _, s := range []Setup{reedS, jS} {
		cs, err := Evaluate(s)
		if err != nil {
			t.Fatal(err)
		}
		pts := make([]SimPoint, len(s.Rates))
		for i, rate := range s.Rates {
			pts[i] = SimPoint{Rate: rate, Status: sim.StatusOK, Values: map[string]SimValue{}}
			for _, c := range cs {
				if v := c.Points[i].Value; c.Bound == Estimate && !math.IsNaN(v) {
					pts[i].Values[c.Sim] = SimValue{Mean: 1.01 * v, HalfWidth: 0.005 * v}
				}
			}
			if len(pts[i].Values) == 0 {
				pts[i] = SimPoint{Rate: rate, Status: sim.StatusSaturated, Reason: "backlog grows"}
			}
		}
		cr := ConfigReport{Setup: s, Sim: pts, Curves: cs}
		for _, c := range cs {
			cr.Comparisons = append(cr.Comparisons, Compare(s.Name, pts, c, s.Tolerance))
		}
		r.Configs = append(r.Configs, cr)
	}
	r.Configs = append(r.Configs, ConfigReport{Setup: Setup{Name: "broken | name", RateUnit: UnitRho}, Errors: []string{"simulator <not> wired"}})
	return r
}

// TestWriteReport checks that the report files exist, that every image the
// HTML and Markdown refer to is a local PNG that decodes, that nothing is
// loaded from the network, and that the tables carry the verdicts.
func TestWriteReport(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("VALIDATION_REPORT_DIR"); d != "" {
		dir = d // keep the files for a look
	}
	r := syntheticReport(t)
	if err := WriteReport(dir, r); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, MDFile))
	if err != nil {
		t.Fatal(err)
	}
	h := string(html)
	if !strings.HasPrefix(h, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(h), "</html>") {
		t.Error("report.html is not a complete document")
	}
	if strings.Contains(h, "http://") || strings.Contains(h, "https://") || strings.Contains(h, "<script") {
		t.Error("report.html refers to the network or runs scripts")
	}
	if !strings.Contains(h, "simulator &lt;not&gt; wired") {
		t.Error("error text not escaped in HTML")
	}
	imgs := regexp.MustCompile(`<img src="([^"]+)"`).FindAllStringSubmatch(h, -1)
	mdImgs := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(string(md), -1)
	if len(imgs) != 2 || len(mdImgs) != 2 {
		t.Fatalf("images: html %d, md %d, want 2 each", len(imgs), len(mdImgs))
	}
	for i, m := range imgs {
		if m[1] != mdImgs[i][1] || filepath.IsAbs(m[1]) {
			t.Errorf("image %d: html %q, md %q", i, m[1], mdImgs[i][1])
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(m[1])))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", m[1], err)
		}
		if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
			t.Errorf("%s: %v too small", m[1], b)
		}
	}
	for _, want := range []string{"| reed | closed | 4 |", "reed-bjb-lower", "jacquet-bernoulli", "saturated (backlog grows)", `broken \| name`} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// Every Markdown table row has as many cells as its header.
	lines := strings.Split(string(md), "\n")
	cols := -1
	for _, l := range lines {
		if !strings.HasPrefix(l, "|") {
			cols = -1
			continue
		}
		n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(l, -1)) - 1
		if cols < 0 {
			cols = n
		} else if n != cols {
			t.Errorf("ragged table row %q: %d cells, header %d", l, n, cols)
		}
	}
	if !r.Failed() {
		t.Error("a report with an errored config must fail")
	}
	r.Configs = r.Configs[:2]
	if r.Failed() {
		for _, c := range r.Comparisons() {
			t.Logf("%s %s: %s %s", c.Config, c.Model, c.Verdict, c.Reason)
		}
		t.Error("synthetic points 1% above the model must pass")
	}
}

// TestReportReferencesExist: every repository file or anchor that the
// generated report (HTML and Markdown) or a model point's reason (printed by
// flitsim model and written to results files) names exists in the
// repository, and nothing names a file outside it.
func TestReportReferencesExist(t *testing.T) {
	r := syntheticReport(t)
	// Makrucki points beyond the loss limit (rho = 0.3: stage p_L = 0.065)
	// carry a reason that names their section of docs/models.md.
	s := deltaSetup(2, simdelta.ResubmitSource, 0.3, 0.5, 0.6)
	cs, err := Evaluate(s)
	if err != nil {
		t.Fatal(err)
	}
	r.Configs = append(r.Configs, ConfigReport{Setup: s, Curves: cs, Sim: make([]SimPoint, len(s.Rates))})
	dir := t.TempDir()
	if err := WriteReport(dir, r); err != nil {
		t.Fatal(err)
	}
	chk := doclinks.New("..")
	for _, f := range []string{HTMLFile, MDFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "docs/models.md#") {
			t.Errorf("%s names no section of docs/models.md (the judging rule should)", f)
		}
		for _, p := range chk.CheckText("", string(b), false) {
			t.Errorf("%s: %v", f, p)
		}
	}
	reasons := 0
	for _, cr := range r.Configs {
		for _, c := range cr.Curves {
			for _, p := range c.Points {
				if strings.Contains(p.Reason, "docs/") {
					reasons++
				}
				for _, pr := range chk.CheckText("", p.Reason, false) {
					t.Errorf("%s %s reason: %v", cr.Setup.Name, c.Model, pr)
				}
			}
		}
	}
	if reasons == 0 {
		t.Error("no model reason names a documentation section; the Makrucki loss limit should")
	}
}

// TestReportTellsTheTruth: the summary counts judged passes, judged
// failures, informational comparisons (with their reasons) and comparisons
// without data; the overall line says pass only without a judged failure;
// an informational row never reads pass; the worst-error columns keep
// judged and informational errors apart.
func TestReportTellsTheTruth(t *testing.T) {
	pts := []SimPoint{sp(0.1, sim.StatusOK, 10, 0.1), sp(0.2, sim.StatusOK, 20, 0.1)}
	good := curve(math.NaN(), Estimate, mp(0.1, 10, sim.StatusOK), mp(0.2, 20, sim.StatusOK))
	bad := curve(math.NaN(), Estimate, mp(0.1, 15, sim.StatusOK), mp(0.2, 30, sim.StatusOK))
	bad.Model = "bad"
	none := curve(math.NaN(), Estimate, mp(0.1, 10, sim.StatusOutOfDomain), mp(0.2, 20, sim.StatusOutOfDomain))
	none.Model = "none"
	judged := ConfigReport{Setup: Setup{Name: "judged", RateUnit: UnitRho, Rates: []float64{0.1, 0.2}}, Sim: pts, Curves: []Curve{good, none},
		Comparisons: []Comparison{Compare("judged", pts, good, Tolerance{}), Compare("judged", pts, none, Tolerance{ExpectNoData: "out of domain"})}}
	infoTol := Tolerance{ReportOnly: true, Reason: "a relaxed assumption"}
	info := ConfigReport{Setup: Setup{Name: "relaxed", RateUnit: UnitRho, Rates: []float64{0.1, 0.2}, Tolerance: infoTol}, Sim: pts, Curves: []Curve{bad},
		Comparisons: []Comparison{Compare("relaxed", pts, bad, infoTol)}}
	r := Report{Configs: []ConfigReport{judged, info}}
	if r.Failed() {
		t.Fatal("a report without a judged failure fails")
	}
	md := Markdown(r)
	for _, want := range []string{
		"Overall: **pass**: 1 judged comparisons pass, 0 fail; 1 informational",
		"1 without data (0 of them failing",
		"- relaxed / bad (latency): a relaxed assumption",
		"| judged |  | 1 | 0 | 0 | 1 | 0.0 % | – | pass |",
		"| relaxed |  | 0 | 0 | 1 | 0 | – | 50.0 % | info |",
		"info: a relaxed assumption",
		"no-data: no eligible point, as expected: out of domain",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| bad ") && strings.Contains(l, "| pass |") {
			t.Errorf("informational row reads pass: %s", l)
		}
	}
	// A judged failure, and a judged comparison without data not declared.
	judged.Comparisons = append(judged.Comparisons, Compare("judged", pts, bad, Tolerance{}), Compare("judged", pts, none, Tolerance{}))
	r = Report{Configs: []ConfigReport{judged, info}, KnownFailures: []string{"judged/bad"}}
	n := r.Counts()
	if !r.Failed() || n != (Counts{JudgedPass: 1, JudgedFail: 1, Informational: 1, NoData: 2, NoDataFailing: 1}) {
		t.Errorf("failed %v, counts %+v", r.Failed(), n)
	}
	md = Markdown(r)
	for _, want := range []string{"Overall: **FAIL**: 1 judged comparisons pass, 1 fail; 1 informational",
		"(1 of them failing: not declared expected); 1 of the failures known and recorded in the baseline",
		"FAIL (known, guarded by the baseline): mean excess error", "FAIL no-data: no eligible point, and the config does not declare it expected"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
