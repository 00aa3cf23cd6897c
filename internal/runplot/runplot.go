// Package runplot draws the figures of a results directory (results.json
// of flitsim run, model or merge) and the index.html that shows them with
// the table, and overlays the curves of several directories (flitsim plot).
//
// Per experiment (config) it draws, each as PNG and SVG under plots/:
//
//	<config>-latency      mean latency and network latency against offered
//	                      load, with 95% CI bars; model rows as lines;
//	                      saturated or deadlocked points marked on the axis
//	<config>-throughput   accepted against offered throughput (the measured
//	                      offered column where the mode has one, else the
//	                      sweep's load), with the line accepted = offered
//	<config>-percentiles  latency percentiles (p50, p95, p99, ...) against
//	                      offered load, where the mode measures them
//
// Output depends only on the rows: the same results give byte-identical
// files.
package runplot

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flitsim/flitsim/internal/chart"
	"github.com/flitsim/flitsim/sim/sweep"
)

// File and directory names written in a results directory.
const (
	IndexFile = "index.html"
	PlotDir   = "plots"
)

// The figures drawn per experiment, by file-name suffix.
const (
	Latency     = "latency"
	Throughput  = "throughput"
	Percentiles = "percentiles"
)

// PlotFile returns the path, relative to the results directory and without
// extension, of figure kind of the experiment config.
func PlotFile(config, kind string) string {
	return PlotDir + "/" + chart.FileName(config) + "-" + kind
}

// experiment is the rows of one config: the simulated ones and one list per
// model, in first-appearance order.
type experiment struct {
	name     string
	rateUnit string
	sim      []sweep.Row
	models   []sourceRows
}

type sourceRows struct {
	source string
	rows   []sweep.Row
}

// group splits rows by config, keeping the order in which configs, sources
// and rows first appear.
func group(rows []sweep.Row) []*experiment {
	var out []*experiment
	byName := map[string]*experiment{}
	for _, r := range rows {
		e := byName[r.Config]
		if e == nil {
			e = &experiment{name: r.Config, rateUnit: r.RateUnit}
			byName[r.Config] = e
			out = append(out, e)
		}
		if r.Source == sweep.SourceSim {
			e.sim = append(e.sim, r)
			continue
		}
		found := false
		for i := range e.models {
			if e.models[i].source == r.Source {
				e.models[i].rows = append(e.models[i].rows, r)
				found = true
				break
			}
		}
		if !found {
			e.models = append(e.models, sourceRows{source: r.Source, rows: []sweep.Row{r}})
		}
	}
	return out
}

// figure is one drawn plot and the name it is saved under.
type figure struct {
	kind string
	plot *plot.Plot
}

// figures draws the figures of one experiment.
func (e *experiment) figures() ([]figure, error) {
	var figs []figure
	lat, err := e.latencyPlot()
	if err != nil {
		return nil, err
	}
	figs = append(figs, figure{Latency, lat})
	thr, err := e.throughputPlot()
	if err != nil {
		return nil, err
	}
	if thr != nil {
		figs = append(figs, figure{Throughput, thr})
	}
	pct, err := e.percentilePlot()
	if err != nil {
		return nil, err
	}
	if pct != nil {
		figs = append(figs, figure{Percentiles, pct})
	}
	return figs, nil
}

func newPlot(title, xlab, ylab string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlab
	p.Y.Label.Text = ylab
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

func ok(r sweep.Row) bool { return r.Status == "ok" }

// val returns *v and whether it is set.
func val(v *float64) (float64, bool) {
	if v == nil || !chart.Finite(*v) {
		return 0, false
	}
	return *v, true
}

func hw(v *float64) float64 {
	if x, ok := val(v); ok {
		return x
	}
	return 0
}

// addSeries adds points with CI bars joined by a thin line of the glyph's
// colour.
func addSeries(p *plot.Plot, pts chart.ErrPoints, g draw.GlyphStyle, legend string, dashed bool) error {
	if len(pts.XYs) == 0 {
		return nil
	}
	if len(pts.XYs) > 1 {
		l, err := plotter.NewLine(pts.XYs)
		if err != nil {
			return err
		}
		l.Color = g.Color
		l.Width = vg.Points(0.8)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l)
	}
	return chart.AddErrPoints(p, pts, g, legend)
}

// addModelLine adds a model's finite values as a dashed line.
func addModelLine(p *plot.Plot, xys plotter.XYs, c color.Color, legend string) error {
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(l)
	p.Legend.Add(legend, l)
	return nil
}

// xRange fixes the x axis to the padded range of the experiment's loads.
func xRange(p *plot.Plot, rows []sweep.Row) {
	if len(rows) == 0 {
		return
	}
	lo, hi := rows[0].Rate, rows[0].Rate
	for _, r := range rows {
		lo, hi = min(lo, r.Rate), max(hi, r.Rate)
	}
	p.X.Min, p.X.Max = chart.Pad(lo, hi)
}

var (
	saturatedGlyph = draw.GlyphStyle{Shape: draw.CrossGlyph{}, Radius: vg.Points(4), Color: color.NRGBA{R: 200, A: 255}}
	otherGlyph     = draw.GlyphStyle{Shape: draw.TriangleGlyph{}, Radius: vg.Points(3.5), Color: color.NRGBA{R: 230, G: 120, A: 255}}
)

// markNotOK flags every row of rows whose status is not ok, at the point
// at(r) gives (ok false: not drawn): saturated and deadlocked points as red
// crosses, any other status (unconverged, ...) as orange triangles labelled
// with the status, so a figure never reads better than the run.
func markNotOK(p *plot.Plot, rows []sweep.Row, at func(sweep.Row) (plotter.XY, bool)) error {
	type flag struct {
		label string
		xys   plotter.XYs
	}
	var flags []*flag
	byLabel := map[string]*flag{}
	for _, r := range rows {
		if ok(r) {
			continue
		}
		xy, drawn := at(r)
		if !drawn {
			continue
		}
		label := r.Status
		if r.Status == "saturated" || r.Status == "deadlock" {
			label = "saturated / deadlock"
		}
		f := byLabel[label]
		if f == nil {
			f = &flag{label: label}
			byLabel[label] = f
			flags = append(flags, f)
		}
		f.xys = append(f.xys, xy)
	}
	for _, f := range flags {
		sc, err := plotter.NewScatter(f.xys)
		if err != nil {
			return err
		}
		sc.GlyphStyle = otherGlyph
		if f.label == "saturated / deadlock" {
			sc.GlyphStyle = saturatedGlyph
		}
		p.Add(sc)
		p.Legend.Add(f.label, sc)
	}
	return nil
}

// onAxis places a row's flag on the x axis at its load.
func onAxis(r sweep.Row) (plotter.XY, bool) { return plotter.XY{X: r.Rate}, true }

func (e *experiment) all() []sweep.Row {
	rows := append([]sweep.Row(nil), e.sim...)
	for _, m := range e.models {
		rows = append(rows, m.rows...)
	}
	return rows
}

func (e *experiment) latencyPlot() (*plot.Plot, error) {
	p := newPlot(e.name+": latency", "offered load ("+e.rateUnit+")", "latency ("+timeUnit(e.rateUnit)+"; mean, 95% CI)")
	xRange(p, e.all())
	var lat, net chart.ErrPoints
	ymax := 0.0
	for _, r := range e.sim {
		if !ok(r) {
			continue
		}
		if v, ok := val(r.Latency); ok {
			lat.Add(r.Rate, v, hw(r.LatencyCI95))
		}
		if v, ok := val(r.NetworkLatency); ok {
			net.Add(r.Rate, v, hw(r.NetworkLatencyCI95))
		}
	}
	ymax = max(lat.Max(), net.Max())
	for i, m := range e.models {
		var xys, nxys plotter.XYs
		for _, r := range m.rows {
			if v, ok := val(r.Latency); ok && ok2(r) {
				xys = append(xys, plotter.XY{X: r.Rate, Y: v})
			}
			if v, ok := val(r.NetworkLatency); ok && ok2(r) {
				nxys = append(nxys, plotter.XY{X: r.Rate, Y: v})
			}
		}
		// A diverging model must not flatten the simulated curve.
		if err := addModelLine(p, clip(xys, ymax), chart.Color(2*i+2), m.source+" latency"); err != nil {
			return nil, err
		}
		if err := addModelLine(p, clip(nxys, ymax), chart.Color(2*i+3), m.source+" network latency"); err != nil {
			return nil, err
		}
	}
	if err := addSeries(p, lat, draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(2.5), Color: color.Black}, "latency", false); err != nil {
		return nil, err
	}
	if err := addSeries(p, net, draw.GlyphStyle{Shape: draw.BoxGlyph{}, Radius: vg.Points(2.2), Color: chart.Color(1)}, "network latency", true); err != nil {
		return nil, err
	}
	if err := markNotOK(p, e.sim, onAxis); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	return p, nil
}

// timeUnit names the time unit of a rate unit ("cycles" for
// "flits/node/cycle", "slots" for "packets/node/slot"); "time units" when
// the unit names none.
func timeUnit(rateUnit string) string {
	i := strings.LastIndexByte(rateUnit, '/')
	switch u := rateUnit[i+1:]; u {
	case "cycle", "slot":
		return u + "s"
	}
	return "time units"
}

// throughputUnit is the unit of the accepted and offered columns: flits per
// node per cycle in mode network (loads in flits or messages per node per
// cycle), otherwise named by docs/config.md per mode ("" here).
func throughputUnit(rateUnit string) string {
	if strings.HasSuffix(rateUnit, "/node/cycle") {
		return " (flits/node/cycle)"
	}
	return ""
}

// ok2 accepts a model row that has a value (models mark the points they
// cannot give with a status other than ok).
func ok2(r sweep.Row) bool { return r.Status == "ok" || r.Status == "" }

// clip drops model points above 1.5 times the simulated maximum (none when
// there is no simulated value).
func clip(xys plotter.XYs, simMax float64) plotter.XYs {
	if simMax <= 0 {
		return xys
	}
	var out plotter.XYs
	for _, p := range xys {
		if p.Y <= 1.5*simMax {
			out = append(out, p)
		}
	}
	return out
}

// throughputPlot draws accepted against offered throughput; nil when no row
// has an accepted throughput.
func (e *experiment) throughputPlot() (*plot.Plot, error) {
	measured := len(e.sim) > 0
	for _, r := range e.sim {
		if _, ok := val(r.Offered); !ok {
			measured = false
		}
	}
	var pts chart.ErrPoints
	lo, hi := 0.0, 0.0
	for _, r := range e.sim {
		a, ok := val(r.Accepted)
		if !ok {
			continue
		}
		x := r.Rate
		if measured {
			x = *r.Offered
		}
		pts.Add(x, a, 0)
		hi = max(hi, x, a)
	}
	if len(pts.XYs) == 0 {
		return nil, nil
	}
	tu := throughputUnit(e.rateUnit)
	xlab := "offered load (" + e.rateUnit + ")"
	if measured {
		xlab = "offered throughput, measured" + tu
	}
	p := newPlot(e.name+": throughput", xlab, "accepted throughput"+tu)
	if measured {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: 150}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(l)
		p.Legend.Add("accepted = offered", l)
	}
	if err := addSeries(p, pts, draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(2.5), Color: color.Black}, "accepted", false); err != nil {
		return nil, err
	}
	err := markNotOK(p, e.sim, func(r sweep.Row) (plotter.XY, bool) {
		a, ok := val(r.Accepted)
		x := r.Rate
		if measured {
			x = *r.Offered
		}
		return plotter.XY{X: x, Y: a}, ok
	})
	if err != nil {
		return nil, err
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max, p.Y.Max = 1.04*hi, 1.04*hi
	return p, nil
}

// percentileName matches the Extra metrics that are latency percentiles
// ("p50 cycles", "p99 cycles").
var percentileName = regexp.MustCompile(`^p([0-9]+(\.[0-9]+)?)( |$)`)

// percentilePlot draws every latency percentile the ok rows carry against
// offered load; nil when there is none.
func (e *experiment) percentilePlot() (*plot.Plot, error) {
	var names []string
	series := map[string]*chart.ErrPoints{}
	for _, r := range e.sim {
		if !ok(r) {
			continue
		}
		for _, m := range r.Extra {
			v, ok := val(m.Value)
			if !ok || !percentileName.MatchString(m.Name) {
				continue
			}
			s := series[m.Name]
			if s == nil {
				s = &chart.ErrPoints{}
				series[m.Name] = s
				names = append(names, m.Name)
			}
			s.Add(r.Rate, v, hw(m.CI95))
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	unit := ""
	if i := strings.IndexByte(names[0], ' '); i > 0 {
		unit = " (" + names[0][i+1:] + ")"
	}
	p := newPlot(e.name+": latency percentiles", "offered load ("+e.rateUnit+")", "latency percentile"+unit)
	xRange(p, e.sim)
	for i, n := range names {
		label := n
		if j := strings.IndexByte(n, ' '); j > 0 {
			label = n[:j]
		}
		if err := addSeries(p, *series[n], chart.Glyph(i), label, false); err != nil {
			return nil, err
		}
	}
	var mean chart.ErrPoints
	for _, r := range e.sim {
		if v, ok := val(r.Latency); ok && ok2(r) {
			mean.Add(r.Rate, v, 0)
		}
	}
	if err := addSeries(p, mean, draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(1.5), Color: color.Gray{Y: 110}}, "mean", true); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	return p, nil
}

// Write draws the figures of rows into dir/plots (PNG and SVG) and writes
// dir/index.html showing them above the table of rows. It writes nothing
// when rows is empty.
func Write(dir string, rows []sweep.Row) error {
	if len(rows) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, PlotDir), 0o755); err != nil {
		return err
	}
	v := indexView{Files: []string{sweep.CSVFile, sweep.JSONFile}}
	for _, e := range group(rows) {
		figs, err := e.figures()
		if err != nil {
			return fmt.Errorf("plot %s: %w", e.name, err)
		}
		ev := expView{Name: e.name}
		for _, f := range figs {
			base := PlotFile(e.name, f.kind)
			if err := chart.Save(f.plot, filepath.Join(dir, filepath.FromSlash(base))); err != nil {
				return fmt.Errorf("plot %s: %w", e.name, err)
			}
			ev.Figures = append(ev.Figures, figView{PNG: base + ".png", SVG: base + ".svg", Alt: e.name + " " + f.kind})
		}
		for _, r := range e.all() {
			ev.Rows = append(ev.Rows, rowView(r))
		}
		v.Experiments = append(v.Experiments, ev)
	}
	var b bytes.Buffer
	if err := indexTmpl.Execute(&b, v); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, IndexFile), b.Bytes(), 0o644)
}

type indexView struct {
	Files       []string
	Experiments []expView
}

type expView struct {
	Name    string
	Figures []figView
	Rows    []rowFields
}

type figView struct{ PNG, SVG, Alt string }

type rowFields struct {
	Source, Rate, Unit, Latency, CI, NetLatency, Accepted, Offered, Status, Reason string
	OK                                                                             bool
}

func fmtNum(v *float64, prec int) string {
	x, ok := val(v)
	if !ok {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

func rowView(r sweep.Row) rowFields {
	return rowFields{
		Source: r.Source, Rate: strconv.FormatFloat(r.Rate, 'g', -1, 64), Unit: r.RateUnit,
		Latency: fmtNum(r.Latency, 2), CI: fmtNum(r.LatencyCI95, 2), NetLatency: fmtNum(r.NetworkLatency, 2),
		Accepted: fmtNum(r.Accepted, 4), Offered: fmtNum(r.Offered, 4), Status: r.Status, Reason: r.Reason,
		OK: r.Status == "ok",
	}
}

var indexTmpl = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>flitsim results</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;font-size:90%;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td.l,th.l{text-align:left}
tr.bad td{color:#a00}
img{max-width:100%;border:1px solid #eee}
.figs{display:flex;flex-wrap:wrap;gap:1em}
.figs figure{margin:0;flex:1 1 520px}
</style></head><body>
<h1>flitsim results</h1>
<p>Data: {{range $i, $f := .Files}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}. Latencies in the mode's time unit (cycles for mode network), error bars are 95% confidence intervals; docs/config.md describes every column.</p>
{{range .Experiments}}
<h2 id="{{.Name}}">{{.Name}}</h2>
<div class="figs">{{range .Figures}}
<figure><a href="{{.SVG}}"><img src="{{.PNG}}" alt="{{.Alt}}"></a><figcaption><a href="{{.SVG}}">SVG</a></figcaption></figure>{{end}}
</div>
<table>
<tr><th class="l">source</th><th>rate</th><th class="l">unit</th><th>latency</th><th>±ci95</th><th>net. latency</th><th>accepted</th><th>offered</th><th class="l">status</th><th class="l">reason</th></tr>
{{range .Rows}}<tr{{if not .OK}} class="bad"{{end}}><td class="l">{{.Source}}</td><td>{{.Rate}}</td><td class="l">{{.Unit}}</td><td>{{.Latency}}</td><td>{{.CI}}</td><td>{{.NetLatency}}</td><td>{{.Accepted}}</td><td>{{.Offered}}</td><td class="l">{{.Status}}</td><td class="l">{{.Reason}}</td></tr>
{{end}}</table>
{{end}}
</body></html>
`))

// Set is the rows of one results directory, under the label its curves
// carry in an overlay.
type Set struct {
	Label string
	Rows  []sweep.Row
}

// Overlay draws the simulated curves of several result sets on one figure
// of two panels, latency against offered load (95% CI bars) and accepted
// against offered throughput, and writes it to path (PNG or SVG by its
// extension). Each (set, config) is one curve, labelled "label" when the
// set holds one config and "label: config" otherwise. Sets whose loads are
// in different units are refused.
func Overlay(path string, sets []Set) error {
	f, err := chart.FormatOf(path)
	if err != nil {
		return err
	}
	unit := ""
	type curve struct {
		label string
		rows  []sweep.Row
	}
	var curves []curve
	for _, s := range sets {
		exps := group(s.Rows)
		for _, e := range exps {
			if len(e.sim) == 0 {
				continue
			}
			if unit == "" {
				unit = e.rateUnit
			} else if e.rateUnit != unit {
				return fmt.Errorf("%s: config %s has loads in %s, an earlier curve in %s; curves of different units cannot share an axis", s.Label, e.name, e.rateUnit, unit)
			}
			label := s.Label
			if len(exps) > 1 {
				label += ": " + e.name
			}
			curves = append(curves, curve{label, e.sim})
		}
	}
	if len(curves) == 0 {
		return errors.New("no simulated rows to plot")
	}
	lat := newPlot("latency", "offered load ("+unit+")", "latency ("+timeUnit(unit)+"; mean, 95% CI)")
	thr := newPlot("throughput", "offered load ("+unit+")", "accepted throughput"+throughputUnit(unit))
	var all []sweep.Row
	for i, c := range curves {
		all = append(all, c.rows...)
		var lp, tp chart.ErrPoints
		for _, r := range c.rows {
			if v, good := val(r.Latency); good && ok(r) {
				lp.Add(r.Rate, v, hw(r.LatencyCI95))
			}
			if a, good := val(r.Accepted); good {
				tp.Add(r.Rate, a, 0)
			}
		}
		g := chart.Glyph(i)
		if err := addSeries(lat, lp, g, c.label, false); err != nil {
			return err
		}
		if err := addSeries(thr, tp, g, c.label, false); err != nil {
			return err
		}
	}
	xRange(lat, all)
	xRange(thr, all)
	lat.Y.Min, thr.Y.Min = 0, 0
	return chart.WriteFile(path, f, 2*chart.Width, chart.Height, 1, 2, []*plot.Plot{lat, thr})
}
