package validation

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
)

// bookSimRow is one row of validation/booksim/graph/reference.csv.
type bookSimRow struct {
	config, kind      string
	fraction, offered float64
	latency, accepted float64
	ok                bool
}

func readBookSimGraph(t *testing.T) []bookSimRow {
	t.Helper()
	f, err := os.Open(filepath.Join("booksim", "graph", "reference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []bookSimRow
	for _, rec := range recs[1:] {
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return math.NaN()
			}
			return v
		}
		out = append(out, bookSimRow{config: rec[0], kind: rec[1], fraction: num(rec[2]), offered: num(rec[3]),
			latency: num(rec[5]), accepted: num(rec[7]), ok: rec[9] == "ok"})
	}
	return out
}

// runTwin runs the flitsim twin of a BookSim configuration at offered
// flits/node/cycle and returns its result.
func runTwin(t *testing.T, name string, offered float64) network.Result {
	t.Helper()
	e, err := configs.Load(filepath.Join("booksim", "graph", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	e.Sweep.Rates = []float64{offered}
	cfg, err := e.NetworkConfig(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, err := network.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBookSimGraphNetworks compares flitsim with BookSim 2 on the graph
// networks BookSim has (dragonfly, fat tree, flattened butterfly), at the
// conformance set's targets (docs/booksim.md): the saturation throughput
// (accepted flits at offered load 1.0) within 5%, and the latency within 5%
// at every load below 0.9 of BookSim's saturation throughput (the mean of
// BookSim's seeds; flitsim's point must be ok). With -short it checks one
// point (the flattened butterfly at 0.3 of saturation); the full set takes
// minutes: go test ./validation -run BookSimGraph.
func TestBookSimGraphNetworks(t *testing.T) {
	rows := readBookSimGraph(t)
	type key struct {
		config   string
		fraction float64
	}
	lat := map[key][]float64{}
	offered := map[key]float64{}
	sat := map[string][]float64{}
	for _, r := range rows {
		if !r.ok {
			continue
		}
		if r.kind == "saturation" {
			sat[r.config] = append(sat[r.config], r.accepted)
			continue
		}
		k := key{r.config, r.fraction}
		lat[k] = append(lat[k], r.latency)
		offered[k] = r.offered
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	var keys []key
	for k := range lat {
		if k.fraction < 0.9 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].config != keys[j].config {
			return keys[i].config < keys[j].config
		}
		return keys[i].fraction < keys[j].fraction
	})
	if testing.Short() {
		keys = []key{{"flatfly4x2-min-p4-v2-b8-uniform", 0.3}}
		sat = nil
	}
	for _, k := range keys {
		b := mean(lat[k])
		res := runTwin(t, k.config, offered[k])
		if res.Status != sim.StatusOK {
			t.Errorf("%s at %g of saturation (%g flits/node/cycle): flitsim %s (%s), BookSim %.2f cycles", k.config, k.fraction, offered[k], res.Status, res.Reason, b)
			continue
		}
		rel := res.Latency/b - 1
		t.Logf("%s at %g of saturation: BookSim %.2f, flitsim %.2f cycles (%+.1f%%)", k.config, k.fraction, b, res.Latency, 100*rel)
		if math.Abs(rel) > 0.05 {
			t.Errorf("%s at %g of saturation: latency flitsim %.2f, BookSim %.2f cycles: %+.1f%%, beyond 5%%", k.config, k.fraction, res.Latency, b, 100*rel)
		}
	}
	var names []string
	for c := range sat {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		b := mean(sat[c])
		res := runTwin(t, c, 1.0)
		rel := res.Accepted/b - 1
		t.Logf("%s saturation: BookSim %.4f, flitsim %.4f flits/node/cycle (%+.1f%%)", c, b, res.Accepted, 100*rel)
		if math.Abs(rel) > 0.05 || !strings.Contains(string(res.Status), "saturated") {
			t.Errorf("%s saturation throughput: flitsim %.4f (%s), BookSim %.4f flits/node/cycle: %+.1f%%", c, res.Accepted, res.Status, b, 100*rel)
		}
	}
}
