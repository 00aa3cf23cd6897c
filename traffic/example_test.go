package traffic_test

import (
	"fmt"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/traffic"
)

// ring is a bidirectional ring of k nodes: the 1-dimensional k-ary n-cube.
type ring int

func (k ring) Nodes() int { return int(k) }
func (k ring) Radix() int { return int(k) }
func (k ring) Dims() int  { return 1 }
func (k ring) Distance(a, b int) int {
	d := (b - a + int(k)) % int(k)
	return min(d, int(k)-d)
}

// Reed's Figure I: the cumulative probability of sending a message at most
// l links away on the 15-node ring, and the mean link visits LV, from the
// exact distributions the patterns sample from (docs/models.md#reed-pins).
func ExampleNewPattern() {
	space := ring(15)
	for _, spec := range []traffic.PatternSpec{
		{Name: traffic.Uniform},
		{Name: traffic.Locality, Radius: 2, Phi: 0.8},
		{Name: traffic.Decay, Decay: 0.5},
	} {
		p, err := traffic.NewPattern(spec, space)
		if err != nil {
			fmt.Println(err)
			return
		}
		pr := make([]float64, space.Nodes())
		p.Probabilities(0, pr)
		phi := make([]float64, 8) // Phi(l), l = 0..7
		for j, q := range pr {
			phi[space.Distance(0, j)] += q
		}
		var cum, lv float64
		fmt.Printf("%-8s", p.Name())
		for l := 1; l <= 7; l++ {
			cum += phi[l]
			lv += float64(l) * phi[l]
			fmt.Printf(" %.4f", cum)
		}
		fmt.Printf("  LV %.4f\n", lv)
	}
	// Output:
	// uniform  0.1429 0.2857 0.4286 0.5714 0.7143 0.8571 1.0000  LV 4.0000
	// locality 0.4000 0.8000 0.8400 0.8800 0.9200 0.9600 1.0000  LV 2.2000
	// decay    0.5039 0.7559 0.8819 0.9449 0.9764 0.9921 1.0000  LV 1.9449
}

// One node's traffic as the engine drives it: an offered load in
// flits/node/cycle is converted to a message rate with the length
// distribution's mean, and where, when and how long each draw from their
// own streams of the node.
func Example() {
	const root, node = 1, 3
	space := ring(15)
	length, _ := traffic.NewGeometricLength(4, 16) // mean 4 flits, truncated at 16
	rate := traffic.MessagesPerCycle(0.2, traffic.FlitsPerNodeCycle, length)
	arrivals, _ := traffic.NewPoisson(rate)
	pattern, _ := traffic.NewPattern(traffic.PatternSpec{Name: traffic.Locality, Radius: 2, Phi: 0.8}, space)
	fmt.Printf("mean length %.4f flits; 0.2 %v = %.5f %v\n",
		length.Mean(), traffic.FlitsPerNodeCycle, rate, traffic.MessagesPerNodeCycle)

	when := sim.NewStream(root, sim.PurposeTrafficArrival, node)
	where := sim.NewStream(root, sim.PurposeTrafficDest, node)
	howLong := sim.NewStream(root, sim.PurposeTrafficLength, node)
	ok := true
	for t := arrivals.First(when); t < 1000; t = arrivals.Next(t, when) {
		cycle := traffic.CycleOf(t) // the message may be injected in this cycle
		dest := pattern.Dest(node, where)
		flits := length.Draw(howLong)
		ok = ok && cycle >= 0 && dest != node && flits >= 1 && flits <= length.Max()
	}
	fmt.Println("every message valid:", ok)
	// The mean is the truncated geometric closed form with q = 3/4, M = 16:
	// 1/(1-q) - M q^M/(1-q^M) = 4 - 16*0.0100226/0.9899774 = 3.8380, and
	// 0.2/3.8380 = 0.05211 messages per cycle.

	// Output:
	// mean length 3.8380 flits; 0.2 flits/node/cycle = 0.05211 msgs/node/cycle
	// every message valid: true
}
