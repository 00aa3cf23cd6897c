package configs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/internal/bounded"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/topology"
	goyaml "github.com/goccy/go-yaml"
	goparser "github.com/goccy/go-yaml/parser"
	"gopkg.in/yaml.v3"
)

// maxFileBytes bounds the size of a config file.
const maxFileBytes = 1 << 20

// Load reads, resolves and validates the experiment in the YAML file at
// path. On any problem it returns nil and an [Errors] holding every problem
// found, each naming the file, line and key; an unreadable file gives an
// [Errors] of one.
func Load(path string) (*Experiment, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, Errors{{File: path, Msg: err.Error()}}
	}
	return Parse(path, data)
}

// ErrTooLarge is returned (wrapped) by [ReadFile] for a file longer than
// the 1 MiB a config may have.
var ErrTooLarge = bounded.ErrTooLarge

// ReadFile reads the config file at path through a limit: at most 1 MiB
// and one byte are read, whatever the file is, so that an endless or huge
// input (/dev/zero, /dev/urandom, a FIFO, a multi-gigabyte file given by
// mistake) is refused at once instead of being read whole. A directory is
// refused with the error of reading it.
func ReadFile(path string) ([]byte, error) {
	data, err := bounded.ReadFile(path, maxFileBytes)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("%w for a config: more than %d bytes (a config is YAML text of at most 1 MiB)", bounded.ErrTooLarge, maxFileBytes)
	}
	return data, err
}

// LoadAll loads every file and returns the experiments in argument order,
// each file expanded into its [Experiment.Variants] (a delta file with
// queue_length [1, 2, 4, 8] gives four experiments), or the problems of all
// files together. Two experiments with the same name are a problem too,
// since results are keyed by name.
func LoadAll(paths []string) ([]*Experiment, error) {
	var all Errors
	exps := make([]*Experiment, 0, len(paths))
	names := map[string]string{}
	for _, p := range paths {
		e, err := Load(p)
		if err != nil {
			var es Errors
			if errors.As(err, &es) {
				all = append(all, es...)
				continue
			}
			return nil, err
		}
		for _, v := range e.Variants() {
			if prev, ok := names[v.Name]; ok {
				all = append(all, &Error{File: p, Line: 1, Column: 1, Key: "name",
					Msg: fmt.Sprintf("experiment name %q is also used by %s; names must be unique in one run", v.Name, prev)})
				continue
			}
			names[v.Name] = p
			exps = append(exps, v)
		}
	}
	if len(all) > 0 {
		all.sort()
		return nil, all
	}
	return exps, nil
}

// yamlLine extracts "line N" from a yaml.v3 syntax error message.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// syntaxError places a YAML syntax error (err, from yaml.v3) at a line and
// column. yaml.v3 reports only a line, and often the line where the
// enclosing flow collection or block started rather than the offending
// character; goccy/go-yaml's parser locates the offending token, so its
// position and message are used when it also finds the text malformed.
// Otherwise yaml.v3's line is kept, at column 1.
func syntaxError(data []byte, err error) (pos, string, string, string) {
	var se *goyaml.SyntaxError
	if _, perr := goparser.ParseBytes(data, 0); errors.As(perr, &se) && se.Token != nil && se.Token.Position != nil && se.Token.Position.Line > 0 {
		col := max(se.Token.Position.Column, 1)
		return pos{se.Token.Position.Line, col}, "", "YAML syntax: %s", se.Message
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if l, aerr := strconv.Atoi(m[1]); aerr == nil && l > 0 {
			line = l
		}
	}
	msg = yamlLine.ReplaceAllString(msg, "")
	msg = strings.TrimPrefix(msg, ": ")
	return pos{line, 1}, "", "YAML syntax: %s", msg
}

// Parse resolves and validates the experiment in data; name is the file
// name used in messages and for the default experiment name.
func Parse(name string, data []byte) (*Experiment, error) {
	r := &reporter{file: name, pos: map[string]pos{}}
	if len(data) > maxFileBytes {
		r.errorAt(pos{1, 1}, "", "file is %d bytes, at most %d allowed", len(data), maxFileBytes)
		return nil, r.errs
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			r.errorAt(pos{1, 1}, "", "the file is empty")
			return nil, r.errs
		}
		r.errorAt(syntaxError(data, err))
		return nil, r.errs
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := 1
		if err == nil {
			line = extra.Line
		}
		r.errorAt(pos{line, 1}, "", "only one YAML document per file (found a second one)")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			r.errorAt(pos{1, 1}, "", "the file is empty")
			return nil, r.errs
		}
		root = root.Content[0]
	}
	// A key missing from the file is reported at its nearest ancestor that
	// is there (reporter.at); a missing top-level key at the document's
	// first key, not at 1:1, which is often a comment.
	if root.Line > 0 {
		r.pos[""] = pos{root.Line, root.Column}
	}
	e := &Experiment{File: name, pos: r.pos}
	d := &decoder{r: r}
	d.decode(root, reflect.ValueOf(e).Elem(), "")
	// Validation runs even after decoding problems, so one pass reports
	// everything; checks on a value that failed to decode are suppressed
	// (reporter.isBad), since its zero value would only add follow-on noise.
	e.resolve(r)
	validate(e, r)
	if len(r.errs) > 0 {
		r.errs.sort()
		return nil, r.errs
	}
	return e, nil
}

// ErrorAt returns a problem found with key after loading (by a check that
// lives outside this package, such as a model's applicability), placed
// where the file wrote key or, if it did not, its nearest ancestor, as the
// loader's own problems are.
func (e *Experiment) ErrorAt(key, format string, args ...any) *Error {
	r := &reporter{file: e.File, pos: e.pos}
	if r.pos == nil {
		r.pos = map[string]pos{}
	}
	p := r.at(key)
	return &Error{File: e.File, Line: p.line, Column: p.col, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// resolve fills in every default left unset in the file. Only the keys
// the experiment's mode reads get defaults; the others stay zero, so they
// are left out of the canonical encoding (see [Experiment.Hash]).
func (e *Experiment) resolve(r *reporter) {
	if !r.set("name") {
		base := filepath.Base(e.File)
		e.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if !r.set("mode") {
		e.Mode = "network"
	}
	if !r.set("seed") {
		e.Seed = 1
	}
	if !r.set("run.replications") {
		e.Run.Replications = 1
	}
	if e.Models == nil {
		e.Models = []string{}
	}
	modeOf(e.Mode).resolve(e, r)
}

// resolveTraffic fills the destination-pattern defaults shared by modes
// network and closed. "decreasing", Reed's name for the decay pattern
// (docs/models.md#reed-routing), is resolved to "decay", so both spellings hash alike.
func (e *Experiment) resolveTraffic(r *reporter) {
	if !r.set("traffic.pattern") {
		e.Traffic.Pattern = "uniform"
	}
	if e.Traffic.Pattern == "decreasing" {
		e.Traffic.Pattern = "decay"
	}
	if e.Traffic.HotspotNodes == nil {
		e.Traffic.HotspotNodes = []int{}
	}
}

// resolveNetwork fills the defaults of mode network.
func (e *Experiment) resolveNetwork(r *reporter) {
	n := &e.Network
	if !r.set("network.radix") && n.Topology == "hypercube" {
		n.Radix = 2
	}
	if !r.set("network.dimensions") && n.Topology == "ring" {
		n.Dimensions = 1
	}
	if !r.set("network.bidirectional") {
		n.Bidirectional = true
	}
	for _, f := range []struct {
		key string
		v   *int
	}{
		{"network.link_latency", &n.LinkLatency},
		{"network.credit_delay", &n.CreditDelay},
		{"network.injection_latency", &n.InjectionLatency},
		{"network.ejection_latency", &n.EjectionLatency},
	} {
		if !r.set(f.key) {
			*f.v = 1
		}
	}
	if !r.set("router.vcs") {
		e.Router.VCs = 2
	}
	if !r.set("router.buffer_depth") {
		e.Router.BufferDepth = 8
	}
	if !r.set("routing") {
		e.Routing = "dimension-order"
		if n.Topology == "delta" {
			e.Routing = "destination-tag"
		}
	}
	if isGraph(n.Topology) {
		e.resolveGraph(r)
	}
	if n.Topology == "delta" && !r.set("network.wiring") {
		n.Wiring = "omega"
	}
	if !r.set("switching.technique") {
		e.Switching.Technique = "wormhole"
	}
	e.resolveTraffic(r)
	if !r.set("traffic.process") {
		e.Traffic.Process = "bernoulli"
	}
	if !r.set("traffic.length.distribution") {
		e.Traffic.Length.Distribution = "fixed"
	}
	e.resolvePreset(r) // last: the preset replaces the defaults above
}

// resolvePreset fills, for router.preset, every key the preset covers
// that the file leaves unset (network.PresetFor), over the defaults; an
// unknown preset is reported by validateRouter.
func (e *Experiment) resolvePreset(r *reporter) {
	if !r.set("router.preset") {
		return
	}
	kind, err := topology.ParseKind(e.Network.Topology)
	if isGraph(e.Network.Topology) {
		kind, err = topology.Mesh, nil // BookSim's channels outside its k-ary n-cubes take 1 cycle, as on a mesh
	}
	if err != nil {
		return // reported with network.topology
	}
	p, err := network.PresetFor(e.Router.Preset, kind)
	if err != nil {
		return
	}
	for _, f := range []struct {
		key string
		dst *int
		v   int
	}{
		{"router.routing_delay", &e.Router.RoutingDelay, p.RoutingDelay},
		{"router.vc_alloc_delay", &e.Router.VCAllocDelay, p.VCAllocDelay},
		{"router.switch_alloc_delay", &e.Router.SwitchAllocDelay, p.SwitchAllocDelay},
		{"router.switch_traversal_delay", &e.Router.SwitchTraversalDelay, p.SwitchTraversalDelay},
		{"network.link_latency", &e.Network.LinkLatency, p.LinkLatency},
		{"network.credit_delay", &e.Network.CreditDelay, p.CreditDelay},
		{"network.injection_latency", &e.Network.InjectionLatency, p.InjectionLatency},
		{"network.ejection_latency", &e.Network.EjectionLatency, p.EjectionLatency},
	} {
		if !r.set(f.key) {
			*f.dst = f.v
		}
	}
	if !r.set("router.tie_break") {
		e.Router.TieBreak = p.Ties.String()
	}
	if !r.set("router.vc_allocator") {
		e.Router.VCAllocator = p.VCAllocator
	}
	if !r.set("router.switch_allocator") {
		e.Router.SwitchAllocator = p.SwitchAllocator
	}
	if !r.set("router.alloc_iterations") {
		e.Router.AllocIterations = p.AllocIterations
	}
	if !r.set("router.dateline") {
		e.Router.Dateline = "per-hop"
		if p.HoldClass && !isGraph(e.Network.Topology) { // a dateline class exists on rings only
			e.Router.Dateline = "hold"
		}
	}
	if !r.set("traffic.include_self") && (e.Traffic.Pattern == "" || e.Traffic.Pattern == "uniform") {
		e.Traffic.IncludeSelf = p.IncludeSelf
	}
}

// Hash returns the hex SHA-256 of the canonical encoding of the resolved
// experiment: its JSON form with fields in schema order and every default
// filled in. Comments, key order, formatting and spelled-out defaults in the
// file do not change it; the file path and the seed are not part of it (the
// seed is reported next to the hash in every result row).
func (e *Experiment) Hash() string {
	c := *e
	// A key written with its default value means what the unset key means:
	// router.tie_break balanced, router.dateline per-hop and
	// router.adaptive_vc whole-packet are encoded as
	// unset (left out), as they were before the keys existed.
	if c.Router.TieBreak == "balanced" {
		c.Router.TieBreak = ""
	}
	if c.Router.Dateline == "per-hop" {
		c.Router.Dateline = ""
	}
	if c.Router.AdaptiveVC == "whole-packet" {
		c.Router.AdaptiveVC = ""
	}
	b, err := json.Marshal(&c)
	if err != nil {
		// Every field is a plain value; Marshal cannot fail.
		panic("configs: canonical encoding: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Nodes returns the number of terminal nodes: one per router (mode
// network), the K PEs (mode closed; a bus has radix of them), the n = b^z
// sources (mode delta) or the 2^n nodes (mode slotted).
func (e *Experiment) Nodes() int { return modeOf(e.Mode).nodes(e) }

// MeanLength returns the mean message length in flits: length.flits for
// fixed lengths, length.mean for geometric ones.
func (e *Experiment) MeanLength() float64 {
	if e.Traffic.Length.Distribution == "geometric" {
		return e.Traffic.Length.Mean
	}
	return float64(e.Traffic.Length.Flits)
}

// MessageRate returns the offered load of sweep point i in messages per
// node per cycle, converting from flits per node per cycle by the mean
// message length when the sweep is given in flits:
//
//	lambda_msg = lambda_flit / mean length
func (e *Experiment) MessageRate(i int) float64 {
	r := e.Sweep.Rates[i]
	if e.Sweep.Unit == UnitFlits {
		return r / e.MeanLength()
	}
	return r
}

// FlitRate returns the offered load of sweep point i in flits per node per
// cycle.
func (e *Experiment) FlitRate(i int) float64 {
	r := e.Sweep.Rates[i]
	if e.Sweep.Unit == UnitMessages {
		return r * e.MeanLength()
	}
	return r
}
