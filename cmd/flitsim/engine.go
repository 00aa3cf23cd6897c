package main

import (
	"context"
	"fmt"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/sim/sweep"
)

// engineUnitFunc returns the function that runs one sweep unit of exps on
// the flit-level network engine. Before returning it builds every
// experiment's network at its first load, so a configuration the engine
// refuses (beyond what the loader checks) is reported as an invalid config
// before any run starts.
func engineUnitFunc(exps []*configs.Experiment) (sweep.Func, error) {
	for _, e := range exps {
		cfg, err := e.NetworkConfig(0, e.Seed)
		if err == nil {
			_, err = network.New(cfg)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: the network engine refuses this config: %w", e.File, err)
		}
	}
	return func(ctx context.Context, u sweep.Unit) (sweep.Outcome, error) {
		cfg, err := exps[u.Job].NetworkConfig(u.Point, u.Seed)
		if err != nil {
			return sweep.Outcome{}, err
		}
		n, err := network.New(cfg)
		if err != nil {
			return sweep.Outcome{}, err
		}
		r, err := n.Run(ctx)
		if err != nil {
			return sweep.Outcome{}, err
		}
		return sweep.Outcome{
			Status: r.Status, Reason: r.Reason,
			Latency: r.Latency, LatencyCI95: r.LatencyCI95,
			NetworkLatency: r.NetworkLatency, NetworkLatencyCI95: r.NetworkLatencyCI95,
			Accepted: r.Accepted, Offered: r.Offered, Cycles: r.Cycles,
		}, nil
	}, nil
}
