package main

import (
	"context"
	"errors"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/sweep"
)

// engineUnitFunc returns the function that runs one sweep unit of exps on
// the flit-level network engine.
func engineUnitFunc(exps []*configs.Experiment) (sweep.Func, error) {
	return func(ctx context.Context, u sweep.Unit) (sweep.Outcome, error) {
		return sweep.Outcome{}, errors.New("the network engine (sim/network) is not wired in yet")
	}, nil
}
