package validation

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/network"
)

// Consumers of a config key: what must change when the key's value changes.
const (
	useEngine = 1 << iota // the engine configuration of some sweep point (configs.Experiment.NetworkConfig)
	useModel              // the model curve the harness evaluates (EvaluateModel)
	useJudge              // the Setup's tolerance (FromExperiment)
	useLabel              // the Setup's name or description
	useRunner             // read by `flitsim run` only (replications: the harness runs one)
	useNone   = 0         // redundant in these files (see the key)
)

// paperKeys declares, for every key the Safaei set-ups use, who reads it.
// A key found in a file but missing here fails the test, so a new key is
// declared before it is trusted.
var paperKeys = map[string]int{
	"name": useLabel, "description": useLabel, "seed": useEngine,
	"network.topology": useEngine | useModel, "network.radix": useEngine | useModel,
	"network.dimensions": useEngine | useModel, "network.bidirectional": useEngine | useModel,
	"network.link_latency": useEngine, "network.credit_delay": useEngine,
	"network.injection_latency": useEngine, "network.ejection_latency": useEngine,
	"network.ejection_vcs": useEngine, "network.injection_vcs": useEngine,
	"router.vcs": useEngine | useModel, "router.buffer_depth": useEngine, "router.escape_vcs": useEngine,
	"routing":             useEngine,
	"switching.technique": useEngine, "switching.scouting_distance": useEngine | useModel,
	// The model holds for uniform destinations only (seed 004 §3.1).
	"traffic.pattern": useEngine | useModel, "traffic.process": useEngine,
	"traffic.length.distribution": useEngine | useModel, "traffic.length.flits": useEngine | useModel,
	"sweep.unit": useEngine | useModel, "sweep.rates": useEngine | useModel,
	"models":     useModel,
	"run.warmup": useEngine, "run.min_measure": useEngine, "run.max_cycles": useEngine,
	"run.target_rel_ci": useEngine, "run.backlog_limit": useEngine, "run.deadlock_cycles": useEngine,
	"run.replications":          useRunner,
	"validation.mean_tolerance": useJudge, "validation.max_tolerance": useJudge,
	"validation.fraction": useJudge, "validation.report_only": useJudge, "validation.reason": useJudge,
	// subtract_offset: true repeats the Safaei family default
	// (FamilyTolerance), and FromExperiment can only switch a boolean on,
	// so no value of this key changes the judgement of these files. It is
	// exempt here; the verdict machinery owns what false should mean.
	"validation.subtract_offset": useNone,
}

// altStrings are the other values tried for a string key (the first one the
// loader accepts is used).
var altStrings = map[string][]string{
	"network.topology":    {"mesh"},
	"routing":             {"dimension-order", "random-minimal"},
	"switching.technique": {"scouting", "wormhole", "virtual-cut-through"},
	"traffic.pattern":     {"transpose", "tornado"},
	"traffic.process":     {"bernoulli", "poisson"},
	"sweep.unit":          {configs.UnitFlits, configs.UnitMessages},
}

// leaf is one key of a file: its dotted path and its value node (a scalar,
// or a sequence taken as one value).
type leaf struct {
	path   string
	node   *yaml.Node
	parent *yaml.Node // the mapping holding it
}

func leaves(n *yaml.Node, prefix string, out []leaf) []leaf {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := k.Value
		if prefix != "" {
			p = prefix + "." + k.Value
		}
		if v.Kind == yaml.MappingNode {
			out = leaves(v, p, out)
			continue
		}
		out = append(out, leaf{path: p, node: v, parent: n})
	}
	return out
}

// alternatives returns edits of leaf l, each a function applying one other
// value (and undoing it).
func alternatives(l leaf) [][2]func() {
	n := l.node
	old := *n
	set := func(v string) [2]func() {
		return [2]func(){func() { n.Value = v }, func() { *n = old }}
	}
	var alts [][2]func()
	switch {
	case l.path == "models":
		for _, m := range []string{"safaei:printed", "safaei"} {
			m := m
			alts = append(alts, [2]func(){func() {
				*n = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle,
					Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: m}}}
			}, func() { *n = old }})
		}
	case n.Kind == yaml.SequenceNode: // sweep.rates: every rate 1 % higher
		alts = append(alts, [2]func(){func() {
			c := make([]*yaml.Node, len(old.Content))
			for i, e := range old.Content {
				f, _ := strconv.ParseFloat(e.Value, 64)
				c[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f*1.01, 'g', -1, 64)}
			}
			n.Content = c
		}, func() { *n = old }})
	case l.path == "traffic.length.distribution": // geometric of the same mean: flits becomes mean
		p := l.parent
		var k *yaml.Node
		for i := 0; i+1 < len(p.Content); i += 2 {
			if p.Content[i].Value == "flits" {
				k = p.Content[i]
			}
		}
		if k != nil {
			alts = append(alts, [2]func(){func() { n.Value, k.Value = "geometric", "mean" }, func() { *n = old; k.Value = "flits" }})
		}
	case n.Tag == "!!bool":
		b, _ := strconv.ParseBool(n.Value)
		alts = append(alts, set(strconv.FormatBool(!b)))
		// A switch that only switches on (subtract_offset, report_only:
		// an explicit false is refused) is changed by leaving it out.
		if p := l.parent; b && p != nil {
			kept := p.Content
			for i := 0; i+1 < len(kept); i += 2 {
				if kept[i+1] == n {
					i := i
					alts = append(alts, [2]func(){func() {
						p.Content = append(append([]*yaml.Node{}, kept[:i]...), kept[i+2:]...)
					}, func() { p.Content = kept }})
				}
			}
		}
	case n.Tag == "!!int":
		v, _ := strconv.Atoi(n.Value)
		for _, w := range []int{v + 1, v - 1, 2 * v, v + 2} {
			if w >= 0 && w != v {
				alts = append(alts, set(strconv.Itoa(w)))
			}
		}
	case n.Tag == "!!float":
		f, _ := strconv.ParseFloat(n.Value, 64)
		for _, g := range []float64{f * 1.1, f * 0.9} {
			alts = append(alts, set(strconv.FormatFloat(g, 'g', -1, 64)))
		}
	default:
		for _, s := range altStrings[l.path] {
			if s != n.Value {
				alts = append(alts, set(s))
			}
		}
		if len(alts) == 0 {
			alts = append(alts, set(n.Value+"-changed"))
		}
	}
	return alts
}

// observed is what the consumers of a key produce from an experiment.
type observed struct {
	engine []network.Config
	model  []Curve
	judge  Tolerance
	label  [2]string
	runner int
}

func observe(t *testing.T, e *configs.Experiment, withModel bool) observed {
	t.Helper()
	var o observed
	for i := range e.Sweep.Rates {
		c, err := e.NetworkConfig(i, e.Seed)
		if err != nil {
			t.Fatal(err)
		}
		o.engine = append(o.engine, c)
	}
	s, err := FromExperiment(e)
	if err != nil {
		t.Fatal(err)
	}
	o.judge, o.label, o.runner = s.Tolerance, [2]string{s.Name, s.Description}, e.Run.Replications
	if withModel {
		for _, m := range s.Models {
			c, err := EvaluateModel(s, m)
			if err != nil {
				c.Model = m + ": " + err.Error() // a refusal is a change too
			}
			o.model = append(o.model, c)
		}
	}
	return o
}

// TestPaperConfigKeysAreRead: every key of the Safaei set-ups
// (configs/validation/safaei-*, configs/scouting/paper, configs/scouting/escape)
// is read by the consumer paperKeys declares. For each key the file is
// edited to another value the loader accepts, and the engine
// configuration of every sweep point, the model curve, the tolerance or
// the label (whichever the key feeds) must change: a key the loader, the
// engine mapping or the harness ignored would leave them equal. Which
// values the engine honours is TestPaperEngineKeysMatter's job
// (sim/network). -short checks one file of each directory and shape.
func TestPaperConfigKeysAreRead(t *testing.T) {
	var files []string
	for _, g := range []string{"../configs/validation/safaei-*.yaml", "../configs/scouting/paper/*.yaml", "../configs/scouting/escape/*.yaml"} {
		fs, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 17+32+16 {
		t.Fatalf("found %d Safaei files, want at least 65", len(files))
	}
	if testing.Short() {
		files = []string{
			"../configs/validation/safaei-8x8-m64-k0.yaml",             // report-only, judged keys
			"../configs/validation/safaei-16x16-m32-k1.yaml",           // judged
			"../configs/scouting/paper/scouting-torus8-m32-v1-k0.yaml", // V = 1, wormhole, run keys
			"../configs/scouting/escape/scouting-torus8-m64-v6-k3-escape.yaml",
		}
	}
	sort.Strings(files)
	seen, tested := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			e0, err := configs.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(mustRead(t, f), &doc); err != nil {
				t.Fatal(err)
			}
			base := observe(t, e0, true)
			for _, l := range leaves(doc.Content[0], "", nil) {
				use, ok := paperKeys[l.path]
				if !ok {
					t.Errorf("key %s is not declared in paperKeys: say who reads it", l.path)
					continue
				}
				seen[l.path] = true
				var e *configs.Experiment
				var tried []string
				for _, a := range alternatives(l) {
					a[0]()
					data, err := yaml.Marshal(&doc)
					if err != nil {
						t.Fatal(err)
					}
					tried = append(tried, l.node.Value)
					e, err = configs.Parse(f, data)
					if err != nil {
						tried = append(tried, err.Error())
					}
					a[1]()
					if err == nil {
						break
					}
					e = nil
				}
				if e == nil {
					// Some keys have no other value in some set-ups (V = 1
					// on a torus takes adaptive routing only); every key
					// must be tested in at least one file (below).
					t.Logf("%s: no other value the loader accepts here (tried %v)", l.path, tried)
					continue
				}
				tested[l.path] = true
				got := observe(t, e, use&useModel != 0)
				var missed []string
				if use&useEngine != 0 && reflect.DeepEqual(got.engine, base.engine) {
					missed = append(missed, "engine configuration")
				}
				if use&useModel != 0 && reflect.DeepEqual(got.model, base.model) {
					missed = append(missed, "model curve")
				}
				if use&useJudge != 0 && got.judge == base.judge {
					missed = append(missed, "tolerance")
				}
				if use&useLabel != 0 && got.label == base.label {
					missed = append(missed, "label")
				}
				if use&useRunner != 0 && got.runner == base.runner {
					missed = append(missed, "replications")
				}
				if len(missed) > 0 {
					t.Errorf("%s changed (%v) but the %s did not: the key is ignored", l.path, tried[len(tried)-1], strings.Join(missed, ", "))
				}
			}
		})
	}
	for k := range seen {
		if !tested[k] {
			t.Errorf("key %s was never changed to another accepted value: it is not covered", k)
		}
	}
	for _, k := range []string{"network.ejection_vcs", "router.vcs", "switching.scouting_distance", "routing", "validation.report_only", "router.escape_vcs"} {
		if !seen[k] {
			t.Errorf("no Safaei file checked sets %s; the list of files is wrong", k)
		}
	}

}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
