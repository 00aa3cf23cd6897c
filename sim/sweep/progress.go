package sweep

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flitsim/flitsim/sim"
)

// Progress is the sweep's pull-based progress: the sweep bumps atomic
// counters as units finish, each running unit's engine stores the cycles
// it has simulated into its own [sim.Meter] once per run-control period,
// and a renderer goroutine ([Progress.Render]) reads them on its own clock.
// Nothing blocks a worker: the lock below is taken only when a unit starts
// or ends and by the renderer, never inside a run.
type Progress struct {
	pointsTotal, pointsDone atomic.Int64
	unitsTotal, unitsDone   atomic.Int64
	cycles                  atomic.Int64
	startNanos              atomic.Int64

	mu     sync.Mutex
	active []*activeUnit // running units, in start order

	// Width, if positive, is the terminal's width: Render cuts its line to
	// Width-1 characters so it never wraps (a wrapped line cannot be
	// redrawn in place).
	Width int
}

// activeUnit is one running unit as the renderer sees it.
type activeUnit struct {
	label string // "config @ rate"
	start time.Time
	meter sim.Meter
}

// Snapshot is a consistent-enough reading of the counters.
type Snapshot struct {
	PointsDone, PointsTotal int64 // including points resumed from disk
	UnitsDone, UnitsTotal   int64 // units to run in this invocation
	Cycles                  int64 // simulated cycles of finished units
	Elapsed                 time.Duration
	ETA                     time.Duration // 0 until a unit has finished
	// Running lists the units in flight, longest-running first.
	Running []UnitProgress
}

// UnitProgress is the progress inside one running unit (one point of one
// replication): the cycles (time units, slots) its engine has simulated,
// its cycle cap, its rate of simulation and the time left to the cap at
// that rate (an upper bound: the run stops earlier when its CI target is
// met, or it saturates).
type UnitProgress struct {
	Label         string
	Cycles, Limit int64
	Elapsed       time.Duration
	CyclesPerSec  float64       // 0 until the engine has reported
	LeftAtMost    time.Duration // 0 when unknown (no cap or no rate yet)
}

// startUnit registers a running unit and returns its meter's context.
func (p *Progress) startUnit(ctx context.Context, label string) (context.Context, *activeUnit) {
	a := &activeUnit{label: label, start: time.Now()}
	p.mu.Lock()
	p.active = append(p.active, a)
	p.mu.Unlock()
	return sim.WithMeter(ctx, &a.meter), a
}

// endUnit removes a from the running units.
func (p *Progress) endUnit(a *activeUnit) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.active {
		if x == a {
			p.active = append(p.active[:i], p.active[i+1:]...)
			return
		}
	}
}

// running reads the running units.
func (p *Progress) running(now time.Time) []UnitProgress {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]UnitProgress, 0, len(p.active))
	for _, a := range p.active {
		c, lim := a.meter.Load()
		u := UnitProgress{Label: a.label, Cycles: c, Limit: lim, Elapsed: now.Sub(a.start)}
		if sec := u.Elapsed.Seconds(); c > 0 && sec > 0 {
			u.CyclesPerSec = float64(c) / sec
			if lim > c {
				u.LeftAtMost = time.Duration(float64(lim-c) / u.CyclesPerSec * float64(time.Second))
			}
		}
		out = append(out, u)
	}
	return out
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
	now := time.Now()
	if st := p.startNanos.Load(); st != 0 {
		s.Elapsed = now.Sub(time.Unix(0, st))
	}
	s.Running = p.running(now)
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
	inFlight := int64(0)
	for _, u := range s.Running {
		inFlight += u.Cycles
	}
	line := fmt.Sprintf("points %d/%d  runs %d/%d  %s cycles  elapsed %s  ETA %s",
		s.PointsDone, s.PointsTotal, s.UnitsDone, s.UnitsTotal, siCount(s.Cycles+inFlight),
		s.Elapsed.Round(time.Second), eta)
	if len(s.Running) > 0 {
		line += "  |  " + s.Running[0].String()
		if n := len(s.Running) - 1; n > 0 {
			line += "  (+" + strconv.Itoa(n) + " running)"
		}
	}
	return line
}

// String renders the unit's progress: "quickstart @ 0.3: 1.20M/40.0M
// cycles, 310k cycles/s, <= 2m5s left".
func (u UnitProgress) String() string {
	b := u.Label + ": " + siCount(u.Cycles)
	if u.Limit > 0 {
		b += "/" + siCount(u.Limit)
	}
	b += " cycles"
	if u.CyclesPerSec > 0 {
		b += ", " + siCount(int64(u.CyclesPerSec)) + " cycles/s"
	}
	if u.LeftAtMost > 0 {
		b += ", <= " + u.LeftAtMost.Round(time.Second).String() + " left"
	}
	return b
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

// line is the status line, cut to Width.
func (p *Progress) line() string {
	l := p.Snapshot().String()
	if p.Width > 1 {
		if r := []rune(l); len(r) > p.Width-1 {
			l = string(r[:p.Width-1])
		}
	}
	return l
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
				fmt.Fprintf(w, "\r\x1b[K%s", p.line())
			case <-quit:
				fmt.Fprintf(w, "\r\x1b[K%s\n", p.line())
				return
			}
		}
	}()
	return func() { close(quit); <-done }
}
