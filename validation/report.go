package validation

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/flitsim/flitsim/internal/chart"
	"github.com/flitsim/flitsim/sim"
)

// ConfigReport is everything the harness found for one experiment.
type ConfigReport struct {
	// Setup is the experiment as run.
	Setup Setup
	// Sim holds the simulated points, one per sweep rate (empty when the
	// simulation could not run).
	Sim []SimPoint
	// Curves holds the model curves; Comparisons their judgement, in curve
	// order, each curve's saturation judgement (Sim = QSaturation) right
	// after its own where it has one.
	Curves      []Curve
	Comparisons []Comparison
	// Errors lists what went wrong (model mapping, simulator), if anything.
	Errors []string
}

// Failed reports whether any comparison failed (Comparison.Failed) or the
// experiment could not be evaluated at all.
func (cr ConfigReport) Failed() bool {
	if len(cr.Errors) > 0 {
		return true
	}
	for _, c := range cr.Comparisons {
		if c.Failed() {
			return true
		}
	}
	return false
}

// Counts tallies comparisons by what their verdict claims.
type Counts struct {
	JudgedPass, JudgedFail int // judged comparisons that pass, fail
	Informational          int // informational comparisons with data (verdict info)
	NoData                 int // comparisons without an eligible point
	NoDataFailing          int // of those, judged and not declared expected: they fail
	Errors                 int // experiments that could not be evaluated
}

// Counts returns the tallies of the comparisons of cr.
func (cr ConfigReport) Counts() Counts {
	var n Counts
	if len(cr.Errors) > 0 {
		n.Errors = 1
	}
	for _, c := range cr.Comparisons {
		switch {
		case c.Verdict == NoData:
			n.NoData++
			if c.Failed() {
				n.NoDataFailing++
			}
		case !c.Judged:
			n.Informational++
		case c.Verdict == Fail:
			n.JudgedFail++
		default:
			n.JudgedPass++
		}
	}
	return n
}

func (n *Counts) add(m Counts) {
	n.JudgedPass += m.JudgedPass
	n.JudgedFail += m.JudgedFail
	n.Informational += m.Informational
	n.NoData += m.NoData
	n.NoDataFailing += m.NoDataFailing
	n.Errors += m.Errors
}

// Report is the result of a validation run.
type Report struct {
	Configs []ConfigReport
	// Regressions are the comparisons whose mean error grew past the
	// committed baseline (empty when no baseline was given).
	Regressions []Regression
	// KnownFailures are the keys (BaselineKey) of the failing comparisons
	// the baseline records as known, documented failures: they still fail
	// the report, and are marked as known in it.
	KnownFailures []string
}

// Counts returns the tallies over every experiment.
func (r Report) Counts() Counts {
	var n Counts
	for _, cr := range r.Configs {
		n.add(cr.Counts())
	}
	return n
}

// Failed reports whether any experiment failed or regressed: the condition
// for a non-zero exit status of `flitsim validate`.
func (r Report) Failed() bool {
	if len(r.Regressions) > 0 {
		return true
	}
	for _, cr := range r.Configs {
		if cr.Failed() {
			return true
		}
	}
	return false
}

// Comparisons returns the comparisons of every experiment, in order.
func (r Report) Comparisons() []Comparison {
	var out []Comparison
	for _, cr := range r.Configs {
		out = append(out, cr.Comparisons...)
	}
	return out
}

// Report file names inside the output directory.
const (
	HTMLFile = "report.html"
	MDFile   = "report.md"
	PlotDir  = "plots"
)

// PlotFile returns the path of an experiment's plot relative to the report
// directory.
func PlotFile(name string) string {
	return PlotDir + "/" + chart.FileName(name) + ".png"
}

// WriteReport writes dir/report.html, dir/report.md and one PNG per
// experiment under dir/plots. The HTML refers to the images by relative
// path and loads nothing else, so it opens without a network.
func WriteReport(dir string, r Report) error {
	if err := os.MkdirAll(filepath.Join(dir, PlotDir), 0o755); err != nil {
		return err
	}
	for _, cr := range r.Configs {
		if len(cr.Curves) == 0 && len(cr.Sim) == 0 {
			continue
		}
		if err := plotConfig(cr, filepath.Join(dir, filepath.FromSlash(PlotFile(cr.Setup.Name)))); err != nil {
			return fmt.Errorf("validation: plot %s: %w", cr.Setup.Name, err)
		}
	}
	var h bytes.Buffer
	if err := htmlTmpl.Execute(&h, newView(r)); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, HTMLFile), h.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, MDFile), []byte(Markdown(r)), 0o644)
}

// num formats a number for the tables ("–" for NaN).
func num(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	if math.IsInf(v, 0) {
		return "∞"
	}
	return fmt.Sprintf("%.4g", v)
}

// pct formats a relative error in percent.
func pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*v)
}

// view is the template data: every cell preformatted, so HTML and Markdown
// show the same text.
type view struct {
	Failed      bool
	Counts      string
	Info        []string // informational comparisons, each with its reason
	Summary     [][]string
	Configs     []configView
	Regressions []string
}

type configView struct {
	Name, Description, Plot, Mode, Tolerance string
	HasPlot                                  bool
	Errors                                   []string
	ErrHead                                  []string
	ErrRows                                  [][]string
	PointHead                                []string
	PointRows                                [][]string
}

var (
	errHead     = []string{"model", "compared with", "kind", "points", "mean err", "max err", "mean excess", "max excess", "zero-load offset", "sim saturation", "model saturation", "verdict"}
	summaryHead = []string{"config", "mode", "judged pass", "judged fail", "informational", "no data", "worst judged max error", "worst informational max error", "verdict"}
)

// Summary returns the report's summary sentence: judged passes and
// failures, informational comparisons and comparisons without data.
func (r Report) Summary() string { return countsLine(r.Counts(), len(r.KnownFailures)) }

// countsLine is the summary sentence of the report.
func countsLine(n Counts, known int) string {
	s := fmt.Sprintf("%d judged comparisons pass, %d fail", n.JudgedPass, n.JudgedFail)
	s += fmt.Sprintf("; %d informational (each with its reason, never a pass); %d without data", n.Informational, n.NoData)
	if n.NoData > 0 {
		s += fmt.Sprintf(" (%d of them failing: not declared expected)", n.NoDataFailing)
	}
	if known > 0 {
		s += fmt.Sprintf("; %d of the failures known and recorded in the baseline", known)
	}
	if n.Errors > 0 {
		s += fmt.Sprintf("; %d experiments could not be evaluated", n.Errors)
	}
	return s + "."
}

// verdictCell is a comparison's verdict as the report prints it.
func verdictCell(c Comparison, known map[string]bool) string {
	switch {
	case c.Verdict == Fail && known[BaselineKey(c)]:
		return "FAIL (known, guarded by the baseline): " + c.Reason
	case c.Verdict == Fail:
		return "FAIL: " + c.Reason
	case c.Verdict == NoData && c.Failed() && known[BaselineKey(c)]:
		return "FAIL no-data (known, recorded in the baseline): " + c.Reason
	case c.Verdict == NoData && c.Failed():
		return "FAIL no-data: " + c.Reason
	case c.Reason != "" && c.Verdict != Pass:
		return c.Verdict + ": " + c.Reason
	}
	return c.Verdict
}

func newView(r Report) view {
	v := view{Failed: r.Failed(), Counts: countsLine(r.Counts(), len(r.KnownFailures))}
	known := map[string]bool{}
	for _, k := range r.KnownFailures {
		known[k] = true
	}
	for _, g := range r.Regressions {
		v.Regressions = append(v.Regressions, g.String())
	}
	for _, cr := range r.Configs {
		tol := cr.Setup.Tolerance.resolved()
		desc := fmt.Sprintf("mean %s, max %s (CI excess), points up to %.2g of model saturation, saturation %s",
			pct(tol.Mean), pct(tol.Max), tol.Fraction, pct(tol.Saturation))
		if tol.SubtractOffset {
			desc += fmt.Sprintf(", zero-load offset removed (at most %s of the simulated value; its anchoring point not judged)", pct(tol.MaxOffset))
		}
		switch {
		case tol.ReportOnly:
			desc += "; informational: " + tol.Reason
		case tol.Reason != "":
			desc += "; note: " + tol.Reason
		}
		if tol.ExpectNoData != "" {
			desc += "; no judged point expected: " + tol.ExpectNoData
		}
		cv := configView{
			Name: cr.Setup.Name, Description: cr.Setup.Description, Mode: cr.Setup.Mode(),
			Plot: PlotFile(cr.Setup.Name), HasPlot: len(cr.Curves) > 0 || len(cr.Sim) > 0,
			Tolerance: desc, Errors: cr.Errors, ErrHead: errHead,
		}
		n := cr.Counts()
		verdict := "no-data"
		switch {
		case cr.Failed():
			verdict = "FAIL"
		case n.JudgedPass > 0:
			verdict = "pass"
		case n.Informational > 0:
			verdict = "info"
		}
		worstJ, worstI := math.NaN(), math.NaN()
		for _, c := range cr.Comparisons {
			kind := c.Bound.String()
			if c.Sim == QSaturation {
				kind = "saturation load"
			}
			cv.ErrRows = append(cv.ErrRows, []string{c.Model, c.Sim, kind, fmt.Sprint(c.Eligible),
				pct(c.MeanErr), pct(c.MaxErr), pct(c.MeanExcess), pct(c.MaxExcess), num(c.Offset),
				num(c.SimSaturation), num(c.ModelSaturation), verdictCell(c, known)})
			if c.Bound != Estimate || math.IsNaN(c.MaxErr) {
				continue
			}
			if c.Judged && !(c.MaxErr <= worstJ) {
				worstJ = c.MaxErr
			}
			if !c.Judged && !(c.MaxErr <= worstI) {
				worstI = c.MaxErr
			}
			if !c.Judged && c.Verdict == Info {
				v.Info = append(v.Info, fmt.Sprintf("%s / %s (%s): %s", c.Config, c.Model, c.Sim, c.Reason))
			}
		}
		v.Summary = append(v.Summary, []string{cr.Setup.Name, cr.Setup.Mode(), fmt.Sprint(n.JudgedPass), fmt.Sprint(n.JudgedFail),
			fmt.Sprint(n.Informational), fmt.Sprint(n.NoData), pct(worstJ), pct(worstI), verdict})
		quantities := simQuantities(cr.Curves)
		cv.PointHead = []string{"rate (" + cr.Setup.RateUnit + ")", "sim status"}
		for _, q := range quantities {
			cv.PointHead = append(cv.PointHead, "sim "+q+" ± 95% CI")
		}
		for _, c := range cr.Curves {
			cv.PointHead = append(cv.PointHead, c.Model)
		}
		for i, rate := range cr.Setup.Rates {
			row := []string{num(rate)}
			if i < len(cr.Sim) {
				st := cr.Sim[i].Status
				if cr.Sim[i].Reason != "" && st != sim.StatusOK {
					st += " (" + cr.Sim[i].Reason + ")"
				}
				row = append(row, st)
				for _, q := range quantities {
					if sv, ok := cr.Sim[i].Values[q]; ok && cr.Sim[i].Status == sim.StatusOK {
						row = append(row, num(sv.Mean)+" ± "+num(sv.HalfWidth))
					} else {
						row = append(row, "–")
					}
				}
			} else {
				row = append(row, "not run")
				for range quantities {
					row = append(row, "–")
				}
			}
			for _, c := range cr.Curves {
				cell := "–"
				if i < len(c.Points) {
					p := c.Points[i]
					cell = num(p.Value)
					if p.Status != sim.StatusOK {
						cell += " (" + p.Status + ")"
					}
				}
				row = append(row, cell)
			}
			cv.PointRows = append(cv.PointRows, row)
		}
		v.Configs = append(v.Configs, cv)
	}
	return v
}

var htmlTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>flitsim validation report</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:80em}
table{border-collapse:collapse;margin:1em 0;font-size:90%}
td,th{border:1px solid #bbb;padding:.25em .5em;text-align:right}
th{background:#eee}
td:first-child{text-align:left}
.fail{color:#b00;font-weight:bold}
img{max-width:100%;border:1px solid #ddd}
</style></head><body>
<h1>flitsim validation report</h1>
<p>Overall: {{if .Failed}}<span class="fail">FAIL</span>{{else}}pass{{end}}: {{.Counts}}</p>
<p>Overall reads pass only when no judged comparison fails, no judged comparison lacks data without declaring it, every experiment was evaluated and no error regressed past the baseline. Errors are relative to the simulated mean; the excess is the part outside the simulated 95% confidence interval, and is what the tolerances judge (docs/models.md#harness). Shaded regions of the plots are loads where a model is out of its domain, saturated, or above the judged fraction of its saturation load.</p>
{{if .Regressions}}<h2 class="fail">Regressions against the baseline</h2><ul>{{range .Regressions}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Info}}<h2>Informational comparisons (never a pass)</h2><ul>{{range .Info}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Summary</h2>
<table><tr><th>config</th><th>mode</th><th>judged pass</th><th>judged fail</th><th>informational</th><th>no data</th><th>worst judged max error</th><th>worst informational max error</th><th>verdict</th></tr>
{{range .Summary}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{range .Configs}}
<h2 id="{{.Name}}">{{.Name}}</h2>
<p>{{.Description}} (mode {{.Mode}}). Tolerance: {{.Tolerance}}.</p>
{{range .Errors}}<p class="fail">{{.}}</p>{{end}}
{{if .HasPlot}}<p><img src="{{.Plot}}" alt="{{.Name}}: simulation and model against offered load"></p>{{end}}
<table><tr>{{range .ErrHead}}<th>{{.}}</th>{{end}}</tr>
{{range .ErrRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<details><summary>points</summary>
<table><tr>{{range .PointHead}}<th>{{.}}</th>{{end}}</tr>
{{range .PointRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></details>
{{end}}
</body></html>
`))

// Markdown renders the report as Markdown with the same tables as the HTML.
func Markdown(r Report) string {
	v := newView(r)
	var b strings.Builder
	b.WriteString("# flitsim validation report\n\n")
	fmt.Fprintf(&b, "Overall: **%s**: %s\n\nOverall reads pass only when no judged comparison fails, no judged comparison lacks data without declaring it, every experiment was evaluated and no error regressed past the baseline. Errors are relative to the simulated mean; the excess is the part outside the simulated 95%% confidence interval, and is what the tolerances judge (docs/models.md#harness). Shaded plot regions: loads where a model is out of its domain, saturated, or above the judged fraction of its saturation load.\n\n",
		map[bool]string{true: "FAIL", false: "pass"}[v.Failed], v.Counts)
	if len(v.Regressions) > 0 {
		b.WriteString("## Regressions against the baseline\n\n")
		for _, g := range v.Regressions {
			b.WriteString("- " + g + "\n")
		}
		b.WriteString("\n")
	}
	if len(v.Info) > 0 {
		b.WriteString("## Informational comparisons (never a pass)\n\n")
		for _, i := range v.Info {
			b.WriteString("- " + i + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("## Summary\n\n")
	mdTable(&b, summaryHead, v.Summary)
	for _, cv := range v.Configs {
		fmt.Fprintf(&b, "## %s\n\n%s (mode %s). Tolerance: %s.\n\n", cv.Name, cv.Description, cv.Mode, cv.Tolerance)
		for _, e := range cv.Errors {
			fmt.Fprintf(&b, "**Error:** %s\n\n", e)
		}
		if cv.HasPlot {
			fmt.Fprintf(&b, "![%s](%s)\n\n", cv.Name, cv.Plot)
		}
		mdTable(&b, cv.ErrHead, cv.ErrRows)
		mdTable(&b, cv.PointHead, cv.PointRows)
	}
	return b.String()
}

func mdTable(b *strings.Builder, head []string, rows [][]string) {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	b.WriteString("|")
	for _, h := range head {
		b.WriteString(" " + esc(h) + " |")
	}
	b.WriteString("\n|")
	for range head {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}
