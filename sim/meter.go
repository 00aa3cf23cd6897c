package sim

import (
	"context"
	"sync/atomic"
)

// Meter is the progress of one running simulation, read by another
// goroutine while the run goes on: the cycles (or time units, or slots)
// simulated so far and the run's cap on them. The engine stores into it
// once per run-control period, where it already checks its context, so
// the cost in the hot loop is one atomic store every Period cycles; a
// renderer ([sweep.Progress]) loads it on its own clock.
//
// A nil *Meter is valid and records nothing, so an engine stores into
// MeterFrom(ctx) without testing for it.
type Meter struct {
	now, limit atomic.Int64
}

// Store records that the run has reached time now of at most limit
// (limit <= 0: no cap).
func (m *Meter) Store(now, limit int64) {
	if m == nil {
		return
	}
	m.now.Store(now)
	m.limit.Store(limit)
}

// Load returns the last stored time and cap (0, 0 before the first
// Store or on a nil Meter).
func (m *Meter) Load() (now, limit int64) {
	if m == nil {
		return 0, 0
	}
	return m.now.Load(), m.limit.Load()
}

type meterKey struct{}

// WithMeter returns a context carrying m, for the engine that runs under it.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// MeterFrom returns the Meter ctx carries, or nil.
func MeterFrom(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}
