package validation

import (
	"fmt"
	"image/color"
	"math"

	"github.com/flitsim/flitsim/sim"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flitsim/flitsim/internal/chart"
)

// shadeColor is the fill of the regions where a model is not judged.
var shadeColor = color.NRGBA{R: 160, G: 160, B: 160, A: 70}

// ineligibleSpans returns the x intervals where no model point can be judged
// for reasons of the model: beyond Fraction of the lowest model saturation,
// or where a model point is out of domain or saturated (the span reaches
// half-way to the neighbouring sweep points).
func ineligibleSpans(cr ConfigReport) [][2]float64 {
	rates := cr.Setup.Rates
	if len(rates) == 0 {
		return nil
	}
	tol := cr.Setup.Tolerance.resolved()
	hi := rates[len(rates)-1]
	_, padHi := chart.Pad(rates[0], hi)
	pad := padHi - hi
	var spans [][2]float64
	satMin := math.Inf(1)
	for _, c := range cr.Curves {
		if c.Bound == Estimate && !math.IsNaN(c.Saturation) {
			satMin = math.Min(satMin, c.Saturation)
		}
	}
	if f := tol.Fraction * satMin; f < hi+pad {
		spans = append(spans, [2]float64{f, hi + pad})
	}
	bad := make([]bool, len(rates))
	for _, c := range cr.Curves {
		if c.Bound != Estimate {
			continue
		}
		for i, p := range c.Points {
			if i < len(bad) && p.Status != sim.StatusOK {
				bad[i] = true
			}
		}
	}
	for i := 0; i < len(rates); i++ {
		if !bad[i] {
			continue
		}
		j := i
		for j+1 < len(rates) && bad[j+1] {
			j++
		}
		a, b := rates[i]-pad, rates[j]+pad
		if i > 0 {
			a = (rates[i-1] + rates[i]) / 2
		}
		if j+1 < len(rates) {
			b = (rates[j] + rates[j+1]) / 2
		}
		spans = append(spans, [2]float64{a, b})
		i = j
	}
	return spans
}

// plotConfig draws one experiment to a PNG at path: one panel per unit of
// its curves (a model predicting latency and throughput gets two panels,
// one above the other), each drawn by configPlot.
func plotConfig(cr ConfigReport, path string) error {
	var units []string
	byUnit := map[string][]int{}
	for i, c := range cr.Curves {
		if _, ok := byUnit[c.Unit]; !ok {
			units = append(units, c.Unit)
		}
		byUnit[c.Unit] = append(byUnit[c.Unit], i)
	}
	if len(units) <= 1 {
		p, err := configPlot(cr)
		if err != nil {
			return err
		}
		return chart.SaveAs(p, path, chart.PNG)
	}
	var panels []*plot.Plot
	for _, u := range units {
		sub := cr
		sub.Curves, sub.Comparisons = nil, nil
		for _, i := range byUnit[u] {
			sub.Curves = append(sub.Curves, cr.Curves[i])
		}
		p, err := configPlot(sub)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return chart.WriteFile(path, chart.PNG, chart.Width, chart.Height*vg.Length(len(panels))*0.8, len(panels), 1, panels)
}

// configPlot draws one panel: simulated points with 95% CI bars for every
// simulated quantity the curves of cr (of one unit) are compared with, one
// line per model curve over its finite values, and grey bands where the
// models are not judged.
func configPlot(cr ConfigReport) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = cr.Setup.Name
	p.X.Label.Text = "offered load (" + cr.Setup.RateUnit + ")"
	quantities := simQuantities(cr.Curves)
	ylab := ""
	for i, q := range quantities {
		if i > 0 {
			ylab += ", "
		}
		ylab += q
	}
	if len(cr.Curves) > 0 {
		ylab += " (" + cr.Curves[0].Unit + ")"
	}
	p.Y.Label.Text = ylab
	p.Legend.Top = true
	p.Legend.Left = true

	// y range: simulated values with their bars, model values up to 1.5x the
	// largest simulated value (a diverging model must not flatten the plot).
	ymax := 0.0
	for _, sp := range cr.Sim {
		if sp.Status != sim.StatusOK {
			continue
		}
		for _, q := range quantities {
			if v, ok := sp.Values[q]; ok && !math.IsNaN(v.Mean+v.HalfWidth) && !math.IsInf(v.HalfWidth, 0) {
				ymax = math.Max(ymax, v.Mean+v.HalfWidth)
			}
		}
	}
	modelMax := 0.0
	for _, c := range cr.Curves {
		for _, pt := range c.Points {
			if !math.IsNaN(pt.Value) && !math.IsInf(pt.Value, 0) {
				modelMax = math.Max(modelMax, pt.Value)
			}
		}
	}
	if ymax == 0 {
		ymax = modelMax
	} else {
		ymax = math.Max(ymax, math.Min(modelMax, 1.5*ymax))
	}
	if ymax <= 0 {
		ymax = 1
	}
	ymax *= 1.08
	p.Y.Min, p.Y.Max = 0, ymax
	if rs := cr.Setup.Rates; len(rs) > 0 {
		p.X.Min, p.X.Max = chart.Pad(rs[0], rs[len(rs)-1])
	}

	for _, s := range ineligibleSpans(cr) {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: s[0], Y: 0}, {X: s[1], Y: 0}, {X: s[1], Y: ymax}, {X: s[0], Y: ymax}})
		if err != nil {
			return nil, err
		}
		poly.Color = shadeColor
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	if len(ineligibleSpans(cr)) > 0 {
		p.Legend.Add("not judged (model domain / saturation)", chart.Swatch{Color: shadeColor})
	}

	for i, c := range cr.Curves {
		var xys plotter.XYs
		for _, pt := range c.Points {
			if !math.IsNaN(pt.Value) && !math.IsInf(pt.Value, 0) && pt.Value <= ymax {
				xys = append(xys, plotter.XY{X: pt.Rate, Y: pt.Value})
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i + 1)
		l.Width = vg.Points(1.5)
		if c.Bound != Estimate {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add("model "+c.Model, l)
	}

	for qi, q := range quantities {
		var pts chart.ErrPoints
		for _, sp := range cr.Sim {
			v, ok := sp.Values[q]
			if sp.Status != sim.StatusOK || !ok || math.IsNaN(v.Mean) {
				continue
			}
			pts.Add(sp.Rate, v.Mean, v.HalfWidth)
		}
		g := draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(2.5), Color: color.Black}
		if qi > 0 {
			g.Shape = draw.BoxGlyph{}
			g.Color = color.NRGBA{R: 90, G: 90, B: 90, A: 255}
		}
		if err := chart.AddErrPoints(p, pts, g, fmt.Sprintf("sim %s (95%% CI)", q)); err != nil {
			return nil, err
		}
	}
	// Simulated saturation: a marker on the x axis for each saturated point.
	var satXY plotter.XYs
	for _, sp := range cr.Sim {
		if sp.Status == sim.StatusSaturated || sp.Status == sim.StatusDeadlock {
			satXY = append(satXY, plotter.XY{X: sp.Rate, Y: 0})
		}
	}
	if len(satXY) > 0 {
		sc, err := plotter.NewScatter(satXY)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Shape = draw.CrossGlyph{}
		sc.GlyphStyle.Radius = vg.Points(4)
		sc.GlyphStyle.Color = color.NRGBA{R: 200, A: 255}
		p.Add(sc)
		p.Legend.Add("sim saturated / deadlock", sc)
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// simQuantities lists the simulated quantities the curves refer to, in
// first-use order.
func simQuantities(cs []Curve) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if !seen[c.Sim] {
			seen[c.Sim] = true
			out = append(out, c.Sim)
		}
	}
	return out
}
