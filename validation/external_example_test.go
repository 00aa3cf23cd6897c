package validation_test

import (
	"context"
	"fmt"

	"github.com/flitsim/flitsim/validation"
)

// A model written in Go outside flitsim: registered under a name, a config
// names it go:NAME in models:, and the harness judges its curves like a
// built-in model's. Here an M/D/1-shaped latency for an 8x8 torus (about
// 4.06 hops of 2 cycles, 16-flit messages, channel load rate*4.06/4).
func ExampleRegisterModel() {
	validation.RegisterModel("md1-torus", validation.ModelFunc(func(_ context.Context, x validation.Experiment) (validation.Predictions, error) {
		const hops, hop, length, channels = 4.0635, 2.0, 16.0, 4.0
		p := validation.Predictions{Name: "M/D/1 per hop", Saturation: ptr(channels / hops)}
		for _, r := range x.Rates {
			rho := r * hops / channels
			t := hops*hop + length + hops*rho*length/(2*(1-rho))
			p.Points = append(p.Points, validation.Prediction{Load: r, Latency: &t, Throughput: ptr(r)})
		}
		return p, nil
	}))

	setups, err := validation.SetupsFromSource("torus.yaml", []byte(`
name: torus
network: {topology: torus, radix: 8, dimensions: 2}
traffic: {length: {flits: 16}}
sweep: {unit: flits/node/cycle, rates: [0.05, 0.15, 0.25]}
models: ["go:md1-torus"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	// validation.Run(ctx, setups, opts) would simulate and judge them; here
	// only the model is evaluated.
	curves, err := validation.Evaluate(setups[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range curves {
		fmt.Printf("%s, compared with simulated %s (%s):", c.Model, c.Sim, c.Unit)
		for _, p := range c.Points {
			fmt.Printf(" %.4g", p.Value)
		}
		fmt.Println()
	}
	// Output:
	// go:md1-torus (latency), compared with simulated latency (cycles): 25.87 29.97 35.19
	// go:md1-torus (throughput), compared with simulated accepted (flits/node/cycle): 0.05 0.15 0.25
}

func ptr(v float64) *float64 { return &v }
