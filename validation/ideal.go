package validation

import (
	"errors"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/ideal"
	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/traffic"
)

// evalIdeal evaluates model "ideal": the channel-load bound Θ on the
// accepted throughput (flits/node/cycle) of a graph topology under its
// routing function and traffic pattern. The curve is min(offered, Θ), an
// upper bound on the simulated accepted throughput, saturating at Θ.
//
// Θ is the closed form of analytic/ideal where one covers the topology,
// routing and pattern (Extra "closed-form" = 1); otherwise it is computed
// path by path by graph.ChannelLoads (Extra "closed-form" = 0). UGAL
// chooses per packet between the minimal and the Valiant path, so its
// ideal throughput is the larger of theirs.
func evalIdeal(c *Curve, s Setup) error {
	e := s.Network
	g, err := e.GraphNetwork()
	if err != nil {
		return err
	}
	if g == nil {
		return fmt.Errorf("the ideal-throughput model covers the dragonfly, flattened-butterfly, fat-tree, cmesh and graph topologies, not %s", e.Network.Topology)
	}
	theta, closed, err := idealThroughput(g, e)
	if err != nil {
		return err
	}
	M := e.MeanLength()
	toSweep := 1 / M // sweep unit per flit/node/cycle
	if e.Sweep.Unit == configs.UnitFlits {
		toSweep = 1
	}
	c.Sim, c.Unit, c.Bound = QAccepted, "flits/node/cycle", Upper
	c.Saturation = theta * toSweep
	c.Extra = []Extra{{"theta", theta, "flits/node/cycle"}, {"closed-form", b2f(closed), ""}}
	for i, rate := range s.Rates {
		offered := e.MessageRate(i) * M
		setPoint(&c.Points[i], rate, math.Min(offered, theta), nil)
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// idealThroughput returns Θ and whether a closed form gave it.
func idealThroughput(g *graph.Network, e *configs.Experiment) (float64, bool, error) {
	pat := e.Traffic.Pattern
	rt := e.Routing
	if v, err := idealClosedForm(g, rt, pat); err == nil {
		return v, true, nil
	} else if !errors.Is(err, errNoClosedForm) {
		return 0, false, err
	}
	p, err := traffic.NewPattern(traffic.PatternSpec{Name: pat, IncludeSelf: e.Traffic.IncludeSelf, Radius: e.Traffic.Radius,
		Phi: e.Traffic.Phi, Decay: e.Traffic.Decay, HotNodes: e.Traffic.HotspotNodes, HotFraction: e.Traffic.HotspotFraction}, network.PatternSpace(g))
	if err != nil {
		return 0, false, err
	}
	bound := func(name string) (float64, error) {
		r, err := graph.NewRouting(g, name, min(e.Router.VCs, max(g.Diameter(), 1)))
		if err != nil {
			return 0, err
		}
		return graph.Bound(graph.ChannelLoads(g, r, p.Probabilities)), nil
	}
	if rt == graph.RouteUGALLocal || rt == graph.RouteUGALGlobal {
		a, err := bound(graph.RouteMinimal)
		if err != nil {
			return 0, false, err
		}
		b, err := bound(graph.RouteValiant)
		return math.Max(a, b), false, err
	}
	v, err := bound(rt)
	return v, false, err
}

var errNoClosedForm = errors.New("no closed form")

// idealClosedForm returns the analytic/ideal closed form for the
// topology, routing and pattern, or errNoClosedForm.
func idealClosedForm(g *graph.Network, rt, pat string) (float64, error) {
	v, err := func() (float64, error) {
		switch {
		case g.Dragonfly() != nil:
			d := g.Dragonfly()
			switch {
			case rt == graph.RouteMinimal && pat == traffic.Uniform:
				return ideal.DragonflyMinimalUniform(d.P, d.A, d.H)
			case rt == graph.RouteMinimal && pat == traffic.GroupShift:
				return ideal.DragonflyMinimalShift(d.P, d.A, d.H)
			case rt == graph.RouteValiant && pat == traffic.Uniform:
				return ideal.DragonflyValiantUniform(d.P, d.A, d.H)
			case rt == graph.RouteValiant && pat == traffic.GroupShift && d.Arrangement == graph.ArrangementConsecutive:
				return ideal.DragonflyValiantShift(d.P, d.A, d.H)
			case pat == traffic.Uniform: // UGAL: minimal's is the larger
				return ideal.DragonflyMinimalUniform(d.P, d.A, d.H)
			case pat == traffic.GroupShift && d.Arrangement == graph.ArrangementConsecutive:
				return ideal.DragonflyValiantShift(d.P, d.A, d.H)
			}
		case g.FlatFly() != nil:
			f := g.FlatFly()
			switch {
			case rt == graph.RouteMinimal && pat == traffic.Uniform:
				return ideal.FlatFlyMinimalUniform(f.K, f.N, f.C)
			case rt == graph.RouteMinimal && pat == traffic.GroupShift:
				return ideal.FlatFlyMinimalShift(f.K, f.N, f.C)
			}
		case g.FatTree() != nil && pat == traffic.Uniform:
			return ideal.FatTreeUniform(g.FatTree().K, g.FatTree().N)
		case g.CMesh() != nil && pat == traffic.Uniform:
			m := g.CMesh()
			return ideal.CMeshUniform(m.K, m.N, m.C)
		}
		return 0, errNoClosedForm
	}()
	if errors.Is(err, analytic.ErrDomain) {
		return 0, errNoClosedForm // e.g. Valiant on an unbalanced dragonfly: computed path by path
	}
	return v, err
}
