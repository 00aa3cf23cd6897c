// Package chart holds the plotting pieces flitsim's figures share: points
// with 95% confidence-interval bars, axis padding, the legend swatch of a
// shaded region, and saving a plot as PNG and SVG with byte-identical output
// for identical input (gonum.org/v1/plot draws deterministically; nothing
// here adds a time stamp or a random id).
//
// The validation report (package validation) and the plots of every
// `flitsim run` (internal/runplot) draw with it.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Size of a single figure.
const (
	Width  = 7 * vg.Inch
	Height = 4.5 * vg.Inch
)

// ErrPoints are points with symmetric y error bars (95% CI half-widths);
// it implements plotter.XYer and plotter.YErrorer.
type ErrPoints struct {
	plotter.XYs
	HalfWidth []float64
}

// Add appends the point (x, y) with half-width hw; a non-finite hw draws
// no bar.
func (e *ErrPoints) Add(x, y, hw float64) {
	if math.IsNaN(hw) || math.IsInf(hw, 0) {
		hw = 0
	}
	e.XYs = append(e.XYs, plotter.XY{X: x, Y: y})
	e.HalfWidth = append(e.HalfWidth, hw)
}

// YError returns the bar of point i.
func (e ErrPoints) YError(i int) (float64, float64) { return e.HalfWidth[i], e.HalfWidth[i] }

// Max returns the largest y + half-width (0 when empty).
func (e ErrPoints) Max() float64 {
	m := 0.0
	for i, p := range e.XYs {
		m = math.Max(m, p.Y+e.HalfWidth[i])
	}
	return m
}

// AddErrPoints adds pts to p as glyphs of style g with their CI bars in
// the glyph's colour, under legend (none when empty). Empty pts add nothing.
func AddErrPoints(p *plot.Plot, pts ErrPoints, g draw.GlyphStyle, legend string) error {
	if len(pts.XYs) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return err
	}
	sc.GlyphStyle = g
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.Color = g.Color
	p.Add(eb, sc)
	if legend != "" {
		p.Legend.Add(legend, sc)
	}
	return nil
}

// Color returns the i-th colour of the palette every figure uses for its
// series (plotutil's).
func Color(i int) color.Color { return plotutil.Color(i) }

// Glyph returns the i-th glyph style: the palette's colour and a shape
// that differs between neighbouring series.
func Glyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: Color(i), Radius: vg.Points(2.5), Shape: plotutil.Shape(i)}
}

// Pad returns the range [lo, hi] widened by 3% of its width on each side
// (5% of |lo| when it is a single value) so the end points are not drawn
// on the axes.
func Pad(lo, hi float64) (float64, float64) {
	pad := 0.03 * (hi - lo)
	if pad == 0 {
		pad = 0.05 * math.Abs(lo)
	}
	if pad == 0 {
		pad = 1
	}
	return lo - pad, hi + pad
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Swatch is a legend entry drawn as a filled square of its colour (for a
// shaded region).
type Swatch struct{ Color color.Color }

// Thumbnail draws the swatch.
func (s Swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.Color, c.ClipPolygonY(pts))
}

// Format is an image format a figure is written in.
type Format string

// The formats: PNG (vgimg at its default resolution) and SVG (fonts named,
// not embedded).
const (
	PNG Format = "png"
	SVG Format = "svg"
)

// FormatOf returns the format named by path's extension.
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")); ext {
	case "png":
		return PNG, nil
	case "svg":
		return SVG, nil
	default:
		return "", fmt.Errorf("%s: unknown image format %q (want .png or .svg)", path, filepath.Ext(path))
	}
}

// canvas is a drawing target that can write itself out.
type canvas interface {
	vg.CanvasWriterTo
}

func newCanvas(f Format, w, h vg.Length) canvas {
	if f == SVG {
		return vgsvg.New(w, h)
	}
	return vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
}

// Encode draws the plots in a grid of rows x cols tiles (row-major; nil
// leaves a tile empty) on one w x h figure and writes it in format f. The
// plots' axes are aligned across tiles.
func Encode(out io.Writer, f Format, w, h vg.Length, rows, cols int, plots []*plot.Plot) error {
	c := newCanvas(f, w, h)
	dc := draw.New(c)
	if rows*cols == 1 {
		if plots[0] != nil {
			plots[0].Draw(dc)
		}
	} else {
		grid := make([][]*plot.Plot, rows)
		for r := range grid {
			grid[r] = plots[r*cols : (r+1)*cols]
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		canvases := plot.Align(grid, tiles, dc)
		for r := range grid {
			for k, p := range grid[r] {
				if p != nil {
					p.Draw(canvases[r][k])
				}
			}
		}
	}
	_, err := c.WriteTo(out)
	return err
}

// Save writes p, Width x Height, to base.png and base.svg.
func Save(p *plot.Plot, base string) error {
	for _, f := range []Format{PNG, SVG} {
		if err := SaveAs(p, base+"."+string(f), f); err != nil {
			return err
		}
	}
	return nil
}

// SaveAs writes p, Width x Height, to path in format f.
func SaveAs(p *plot.Plot, path string, f Format) error {
	return WriteFile(path, f, Width, Height, 1, 1, []*plot.Plot{p})
}

// WriteFile encodes the plots as [Encode] does and writes them to path.
func WriteFile(path string, f Format, w, h vg.Length, rows, cols int, plots []*plot.Plot) error {
	var b bytes.Buffer
	if err := Encode(&b, f, w, h, rows, cols, plots); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// FileName turns a config name into a file-name stem: letters, digits,
// '-', '_' and '.' are kept, anything else becomes '_'.
func FileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
