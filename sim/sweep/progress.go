package sweep

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Progress is the sweep's pull-based progress: the sweep bumps atomic
// counters as units finish, and a renderer goroutine ([Progress.Render])
// reads them on its own clock. Nothing blocks a worker.
type Progress struct {
	pointsTotal, pointsDone atomic.Int64
	unitsTotal, unitsDone   atomic.Int64
	cycles                  atomic.Int64
	startNanos              atomic.Int64
}

// Snapshot is a consistent-enough reading of the counters.
type Snapshot struct {
	PointsDone, PointsTotal int64 // including points resumed from disk
	UnitsDone, UnitsTotal   int64 // units to run in this invocation
	Cycles                  int64 // simulated cycles of finished units
	Elapsed                 time.Duration
	ETA                     time.Duration // 0 until a unit has finished
}

func (p *Progress) begin(points, resumed, units int) {
	p.pointsTotal.Store(int64(points))
	p.pointsDone.Store(int64(resumed))
	p.unitsTotal.Store(int64(units))
	p.startNanos.Store(time.Now().UnixNano())
}

func (p *Progress) unitDone(cycles int64) {
	p.cycles.Add(cycles)
	p.unitsDone.Add(1)
}

func (p *Progress) pointDone() { p.pointsDone.Add(1) }

// Snapshot reads the counters.
func (p *Progress) Snapshot() Snapshot {
	s := Snapshot{
		PointsDone: p.pointsDone.Load(), PointsTotal: p.pointsTotal.Load(),
		UnitsDone: p.unitsDone.Load(), UnitsTotal: p.unitsTotal.Load(),
		Cycles: p.cycles.Load(),
	}
	if st := p.startNanos.Load(); st != 0 {
		s.Elapsed = time.Since(time.Unix(0, st))
	}
	if s.UnitsDone > 0 {
		per := s.Elapsed / time.Duration(s.UnitsDone)
		s.ETA = per * time.Duration(s.UnitsTotal-s.UnitsDone)
	}
	return s
}

// String renders the snapshot as one status line.
func (s Snapshot) String() string {
	eta := "--"
	if s.UnitsDone > 0 {
		eta = s.ETA.Round(time.Second).String()
	}
	return fmt.Sprintf("points %d/%d  runs %d/%d  %s cycles  elapsed %s  ETA %s",
		s.PointsDone, s.PointsTotal, s.UnitsDone, s.UnitsTotal, siCount(s.Cycles),
		s.Elapsed.Round(time.Second), eta)
}

// siCount writes n with a k/M/G suffix.
func siCount(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Render starts one goroutine that redraws the status line on w (a
// terminal) every interval, and returns a stop function that draws the last
// line, ends it with a newline and waits for the goroutine to exit.
func (p *Progress) Render(w io.Writer, interval time.Duration) (stop func()) {
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				fmt.Fprintf(w, "\r\x1b[K%s", p.Snapshot())
			case <-quit:
				fmt.Fprintf(w, "\r\x1b[K%s\n", p.Snapshot())
				return
			}
		}
	}()
	return func() { close(quit); <-done }
}
