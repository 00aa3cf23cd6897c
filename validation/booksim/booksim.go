// Package booksim is flitsim's BookSim 2 reference: the BookSim
// configuration files of the conformance set (ref/*.cfg), the figures
// BookSim 2 measured on them (ref/reference.csv, written by
// scripts/booksim-ref.sh from an already-built BookSim binary), the mapping
// of each configuration onto the flit-level engine (Config.Network, with
// the router preset network.PresetBookSimIQ) and the comparison of the two
// (Compare) with the conformance targets of docs/booksim.md:
//
//   - zero-load latency (the lowest load, 5% of BookSim's saturation)
//     within ZeroLoadCycles cycles;
//   - latency within LatencyTolerance at every load below 0.9 of BookSim's
//     saturation throughput (0.9 itself is reported, not judged);
//   - saturation throughput (sim_type = throughput at offered load 1.0)
//     within SaturationTolerance.
//
// BookSim's code is not part of flitsim and is never built by it: the data
// is, with the BookSim commit it came from. A second set, ref-adaptive/,
// holds figures of BookSim at the same commit with one change, described
// in words in its reference.csv and in docs/booksim.md#adaptive (its
// min_adapt keeps every candidate: the adaptive reference).
package booksim

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

//go:embed ref/*.cfg ref/reference.csv ref-adaptive/*.cfg ref-adaptive/reference.csv
var refFS embed.FS

// sets are the reference sets, each a directory of configurations and
// their reference.csv: the pinned BookSim first (its commit is
// Reference.Commit), then the changed one (docs/booksim.md#adaptive).
var sets = []string{"ref", "ref-adaptive"}

// Conformance targets (docs/booksim.md; issue 17).
const (
	ZeroLoadCycles      = 1.0  // |flitsim - BookSim| at the lowest load, cycles
	LatencyTolerance    = 0.05 // relative latency error below JudgedFraction of saturation
	SaturationTolerance = 0.05 // relative saturation-throughput error
	// JudgedFraction: latency is judged at loads below this fraction of
	// BookSim's saturation throughput.
	JudgedFraction = 0.9
)

// Config is one BookSim configuration file: its name (the file name without
// .cfg) and its keys.
type Config struct {
	Name string
	Keys map[string]string
	// Set is the reference set the configuration belongs to ("ref",
	// "ref-adaptive"); Commit the BookSim commit its figures came from;
	// Change, when not empty, the one change made to that commit,
	// in words (the "# change:" line of the set's reference.csv).
	Set, Commit, Change string
}

// Provenance says where the configuration's figures came from: "BookSim 2
// commit 28f4329" and, for a changed build, " plus one change: ...".
func (c Config) Provenance() string {
	s := "BookSim 2 commit " + c.Commit[:min(7, len(c.Commit))]
	if c.Change != "" {
		s += " plus one change: " + c.Change
	}
	return s
}

// ParseConfig reads a BookSim configuration: "key = value;" statements,
// "//" comments to the end of a line. It accepts the subset the
// conformance set uses (one statement per line, no braces).
func ParseConfig(name string, data []byte) (Config, error) {
	c := Config{Name: name, Keys: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if k := strings.Index(s, "//"); k >= 0 {
			s = s[:k]
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !strings.HasSuffix(s, ";") {
			return Config{}, fmt.Errorf("%s.cfg:%d: statement without ';': %q", name, line, s)
		}
		k, v, ok := strings.Cut(strings.TrimSuffix(s, ";"), "=")
		if !ok {
			return Config{}, fmt.Errorf("%s.cfg:%d: want key = value;, got %q", name, line, s)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if _, dup := c.Keys[k]; dup {
			return Config{}, fmt.Errorf("%s.cfg:%d: key %s given twice", name, line, k)
		}
		c.Keys[k] = v
	}
	return c, sc.Err()
}

func (c Config) str(key string) (string, error) {
	v, ok := c.Keys[key]
	if !ok {
		return "", fmt.Errorf("%s.cfg: key %s missing (the conformance set writes every key it relies on)", c.Name, key)
	}
	return v, nil
}

func (c Config) int(key string) (int, error) {
	v, err := c.str(key)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s.cfg: key %s: %q is not an integer", c.Name, key, v)
	}
	return n, nil
}

// patterns maps BookSim traffic names onto flitsim's.
var patterns = map[string]string{
	"uniform":   traffic.Uniform,
	"transpose": traffic.Transpose,
	"bitcomp":   traffic.BitComplement,
	"bitrev":    traffic.BitReverse,
	"shuffle":   traffic.Shuffle,
	"tornado":   traffic.Tornado,
	"neighbor":  traffic.Neighbour,
}

// Network returns the flit-level configuration that mirrors c at offered
// load `flits` (flits/node/cycle) with root seed `seed`: the router preset
// network.PresetBookSimIQ, and
//
//   - topology = torus / mesh with k, n: the k-ary n-cube or mesh; mesh
//     with k = 2 is the binary n-cube (BookSim has no hypercube topology;
//     its 2-ary mesh has one channel each way per dimension, as flitsim's
//     hypercube);
//   - routing_function = dim_order: dimension-order routing; min_adapt:
//     adaptive routing with escape VCs, one on a mesh (BookSim's VC 0) and
//     the two dateline classes on a torus (VCs 0 and 1). BookSim's
//     min_adapt_torus routes adaptively on VC 3 only and never uses VC 2,
//     so the mirror has 3 VCs (2 escape, 1 adaptive) where BookSim has 4;
//     a packet that has taken an escape VC stays on escape VCs, as in
//     min_adapt (router.Arch.StickyEscape), and a header requests every
//     free VC of its route through the VC allocator, free once the
//     previous tail has left (router.BookSimVC: no whole-packet rule, so
//     the mirror can deadlock past saturation as BookSim does; flitsim's
//     default differs, docs/booksim.md#adaptive). BookSim's min_adapt at the
//     pinned commit keeps only one adaptive direction in its route set, so
//     it routes by dimension order (docs/booksim.md#adaptive): the mirror
//     is of what it means to do;
//   - num_vcs, vc_buf_size, packet_size, traffic as they are, Bernoulli
//     injection (BookSim's default injection_process).
func (c Config) Network(flits float64, seed uint64) (network.Config, error) {
	var nc network.Config
	topo, err := c.str("topology")
	if err != nil {
		return nc, err
	}
	k, err := c.int("k")
	if err != nil {
		return nc, err
	}
	n, err := c.int("n")
	if err != nil {
		return nc, err
	}
	switch {
	case topo == "torus":
		nc.Topology = topology.Spec{Kind: topology.Torus, K: k, N: n, Bidirectional: true}
	case topo == "mesh" && k == 2:
		nc.Topology = topology.Spec{Kind: topology.Hypercube, K: 2, N: n, Bidirectional: true}
	case topo == "mesh":
		nc.Topology = topology.Spec{Kind: topology.Mesh, K: k, N: n, Bidirectional: true}
	default:
		return nc, fmt.Errorf("%s.cfg: topology %s is not mirrored (torus, mesh)", c.Name, topo)
	}
	vcs, err := c.int("num_vcs")
	if err != nil {
		return nc, err
	}
	buf, err := c.int("vc_buf_size")
	if err != nil {
		return nc, err
	}
	size, err := c.int("packet_size")
	if err != nil {
		return nc, err
	}
	if u, err := c.int("injection_rate_uses_flits"); err != nil || u != 1 {
		return nc, fmt.Errorf("%s.cfg: injection_rate_uses_flits must be 1 (loads are in flits/node/cycle)", c.Name)
	}
	tr, err := c.str("traffic")
	if err != nil {
		return nc, err
	}
	pat, ok := patterns[tr]
	if !ok {
		return nc, fmt.Errorf("%s.cfg: traffic %s is not mirrored", c.Name, tr)
	}
	rf, err := c.str("routing_function")
	if err != nil {
		return nc, err
	}
	switch rf {
	case "dim_order":
		nc.Routing = network.RoutingDimensionOrder
	case "min_adapt":
		nc.Routing = network.RoutingAdaptive
		nc.EscapeVCs = 1
		nc.Router.StickyEscape = true
		nc.Router.AdaptiveVC = router.BookSimVC
		if nc.Topology.Kind == topology.Torus {
			if vcs < 4 {
				return nc, fmt.Errorf("%s.cfg: min_adapt on a torus needs num_vcs >= 4 in BookSim", c.Name)
			}
			nc.EscapeVCs, vcs = 2, 3
		}
	default:
		return nc, fmt.Errorf("%s.cfg: routing_function %s is not mirrored (dim_order, min_adapt)", c.Name, rf)
	}
	nc.Router.VCs, nc.Router.BufferDepth = vcs, buf
	nc.Pattern = traffic.PatternSpec{Name: pat}
	nc.Length = network.LengthSpec{Distribution: "fixed", Flits: size}
	nc.Process = "bernoulli"
	nc.Rate = math.Min(1, flits/float64(size))
	nc.Seed = seed
	network.BookSimIQ(nc.Topology.Kind).Apply(&nc)
	if pat != traffic.Uniform {
		nc.Pattern.IncludeSelf = false // a permutation has no choice to make
	}
	return nc, nil
}

// Point is one row of the reference: one BookSim run.
type Point struct {
	Config   string
	Kind     string  // "saturation" (sim_type = throughput at 1.0) or "latency"
	Fraction float64 // of the configuration's saturation throughput (1 for saturation rows)
	Offered  float64 // flits/node/cycle
	Seed     uint64
	Latency  float64 // packet latency, generation to tail delivered, cycles (NaN unless ok)
	Accepted float64 // flits/node/cycle
	Hops     float64 // BookSim's hop count: routers crossed (links + 1)
	Status   string  // "ok", "unstable" (latency above latency_thres) or "failed"
}

// Reference is the committed BookSim data.
type Reference struct {
	Commit  string   // BookSim commit the figures of the first set came from
	Configs []Config // sorted by name
	Points  []Point  // file order
}

// Load reads the embedded reference.
func Load() (*Reference, error) { return load(refFS) }

func load(fsys fs.FS) (*Reference, error) {
	ref := &Reference{}
	for _, set := range sets {
		if err := ref.loadSet(fsys, set); err != nil {
			return nil, err
		}
	}
	sort.Slice(ref.Configs, func(a, b int) bool { return ref.Configs[a].Name < ref.Configs[b].Name })
	return ref, nil
}

// loadSet adds the configurations and rows of one set (a directory).
func (ref *Reference) loadSet(fsys fs.FS, set string) error {
	data, err := fs.ReadFile(fsys, set+"/reference.csv")
	if err != nil {
		return err
	}
	var body []byte
	var commit, change string
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if s := string(line); strings.HasPrefix(s, "#") {
			if _, c, ok := strings.Cut(s, "booksim commit "); ok {
				commit, _, _ = strings.Cut(c, ";")
			}
			if _, c, ok := strings.Cut(s, "# change: "); ok {
				change = strings.TrimSpace(c)
			}
			continue
		}
		body = append(body, line...)
	}
	if len(commit) != 40 {
		return fmt.Errorf("%s/reference.csv: BookSim commit %q, want 40 hex digits", set, commit)
	}
	if ref.Commit == "" {
		ref.Commit = commit
	}
	names, err := fs.Glob(fsys, set+"/*.cfg")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, f := range names {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return err
		}
		c, err := ParseConfig(strings.TrimSuffix(path.Base(f), ".cfg"), data)
		if err != nil {
			return err
		}
		if _, dup := ref.Config(c.Name); dup {
			return fmt.Errorf("%s: configuration %s is in two sets", f, c.Name)
		}
		c.Set, c.Commit, c.Change = set, commit, change
		ref.Configs = append(ref.Configs, c)
	}
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		return fmt.Errorf("%s/reference.csv: %w", set, err)
	}
	for i, r := range rows[1:] {
		p, err := parsePoint(r)
		if err != nil {
			return fmt.Errorf("%s/reference.csv: row %d: %w", set, i+2, err)
		}
		ref.Points = append(ref.Points, p)
	}
	return nil
}

func parsePoint(r []string) (Point, error) {
	if len(r) != 10 {
		return Point{}, fmt.Errorf("%d fields, want 10", len(r))
	}
	num := func(s string) float64 {
		if s == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	seed, err := strconv.ParseUint(r[4], 10, 64)
	if err != nil {
		return Point{}, fmt.Errorf("seed %q", r[4])
	}
	return Point{Config: r[0], Kind: r[1], Fraction: num(r[2]), Offered: num(r[3]), Seed: seed,
		Latency: num(r[5]), Accepted: num(r[7]), Hops: num(r[8]), Status: r[9]}, nil
}

// Config returns the configuration named name.
func (ref *Reference) Config(name string) (Config, bool) {
	for _, c := range ref.Configs {
		if c.Name == name {
			return c, true
		}
	}
	return Config{}, false
}

// Curve is one configuration's BookSim figures, seeds averaged.
type Curve struct {
	Config     string
	Saturation Stat        // accepted flits/node/cycle at offered 1.0
	Loads      []LoadPoint // by fraction
}

// LoadPoint is BookSim's latency at one offered load.
type LoadPoint struct {
	Fraction float64
	Offered  float64
	Latency  Stat // over the seeds whose run was ok
	Unstable int  // seeds that ended "unstable"
}

// Stat is a mean over seeds with its spread.
type Stat struct {
	Mean, Min, Max float64
	N              int
}

func (s *Stat) add(x float64) {
	if math.IsNaN(x) {
		return
	}
	if s.N == 0 {
		s.Min, s.Max = x, x
	}
	s.Mean = (s.Mean*float64(s.N) + x) / float64(s.N+1)
	s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	s.N++
}

// Curve returns configuration name's figures.
func (ref *Reference) Curve(name string) Curve {
	cv := Curve{Config: name}
	idx := map[float64]int{}
	for _, p := range ref.Points {
		if p.Config != name {
			continue
		}
		if p.Kind == "saturation" {
			if p.Status == "ok" {
				cv.Saturation.add(p.Accepted)
			}
			continue
		}
		k, ok := idx[p.Fraction]
		if !ok {
			k = len(cv.Loads)
			idx[p.Fraction] = k
			cv.Loads = append(cv.Loads, LoadPoint{Fraction: p.Fraction, Offered: p.Offered})
		}
		if p.Status == "ok" {
			cv.Loads[k].Latency.add(p.Latency)
		} else {
			cv.Loads[k].Unstable++
		}
	}
	sort.Slice(cv.Loads, func(a, b int) bool { return cv.Loads[a].Fraction < cv.Loads[b].Fraction })
	return cv
}
