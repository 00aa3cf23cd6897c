package configs

import (
	"math"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
)

// Modes lists the simulator modes the loader accepts, in documentation
// order (the rows of modeTable).
func Modes() []string {
	out := make([]string, len(modeTable))
	for i, m := range modeTable {
		out[i] = m.name
	}
	return out
}

// modeRow is one simulator mode's row of the mode table: everything the
// loader, `flitsim run`, `flitsim model`, `flitsim validate` and the
// validation harness need to know of a mode, so that none of them switches
// on the mode's name:
//
//   - the file: its sweep units, how its defaults are filled (resolve), how
//     its sections and rates are checked (check, checkRate, the run-control
//     rules timeCap and needsTarget), the keys it does not read (notRead),
//     its node count (nodes);
//   - the engine: how the load-time check asks it to build point 0
//     (engineCheck, with the engine's defaults for the messages;
//     builtAtLoad says whether that check built the engine, so the front
//     end need not build point 0 again), which key of the file each field
//     of the engine's Config comes from (links, refusedAt, keysIn: an
//     engine's refusal names the file's keys, keys.go), how its config is
//     built at a (point, seed), run, and its result mapped onto one
//     results row (engine), its memory estimate (memory; nil: not
//     estimated);
//   - the harness: the quantities it measures and those external models
//     are compared with (engine.measure, compared).
type modeRow struct {
	name        string
	units       []string // sweep.unit values, the first the default of docs/config.md
	resolve     func(e *Experiment, r *reporter)
	check       func(e *Experiment, r *reporter) // the mode's sections and the shared ones it reads
	checkRate   func(e *Experiment, r *reporter, i int, key string, rate float64, lenOK bool)
	timeCap     string // the run key capping a run's length: "max_cycles" or "max_time"
	needsTarget bool   // the engine always stops on its precision target: run.target_rel_ci < 0 is refused
	notRead     []string
	nodes       func(e *Experiment) int

	// How the mode reads the sections it shares (network:, traffic:).
	graphs             bool     // network.topology may be a graph (dragonfly, ..., graph)
	ringsBidirectional bool     // a ring or torus is always bidirectional
	processes          []string // traffic.process values (nil: the key is not read)
	morePatterns       []string // traffic.pattern values beside the ones every such mode has

	engineCheck func(e *Experiment, r *reporter) error
	builtAtLoad bool
	links       func(e *Experiment) (cfg any, links []fieldLink) // the engine's Config fields and the keys they come from (keys.go)
	refusedAt   string                                           // the key of an engine refusal that names no linked field
	keysIn      string                                           // the section whose keys a refusal writes without it (the engine's Config is that section)
	defaults    string                                           // the engine's run-control defaults, for messages

	engine   modeEngine
	memory   func(e *Experiment) (network.Memory, error)
	compared Compared
}

// Compared names the simulated quantities (and their units) an external
// model's latency and throughput are compared with in a mode.
type Compared struct {
	Latency, LatencyUnit       string
	Throughput, ThroughputUnit string
}

// modeTable has one row per mode, in documentation order (filled by init:
// the checks themselves consult Modes).
var modeTable []modeRow

func init() { modeTable = modeRows() }

func modeRows() []modeRow {
	return []modeRow{
		{
			name: "network", units: []string{UnitMessages, UnitFlits, UnitTraceSpeedup},
			resolve: (*Experiment).resolveNetwork,
			check: func(e *Experiment, r *reporter) {
				topoOK := validateNetwork(e, r)
				validateRouter(e, r, topoOK)
				if r.set("traffic.trace") {
					maxLen := validateTrace(e, r, topoOK)
					validateSwitching(e, r, maxLen, maxLen > 0)
					validateSweep(e, r, false)
					return
				}
				maxLen, lenOK := validateLength(e, r)
				validateSwitching(e, r, maxLen, lenOK)
				validateTraffic(e, r, topoOK)
				validateSweep(e, r, lenOK)
			},
			checkRate: checkNetworkRate,
			graphs:    true, processes: []string{"bernoulli", "poisson", "onoff"},
			morePatterns: []string{"random-permutation", "halo", "group-shift", "worst-case"},
			timeCap:      "max_cycles",
			notRead:      []string{"closed", "delta", "slotted", "run.max_time"},
			nodes: func(e *Experiment) int {
				if isGraph(e.Network.Topology) {
					return graphNodes(e)
				}
				n, _ := nodeCount(e.Network.Radix, e.Network.Dimensions)
				return n
			},
			// The network itself is built by the front end before the sweep
			// starts (builtAtLoad false); run control is checked here.
			engineCheck: func(e *Experiment, r *reporter) error {
				mon, err := sim.NewMonitor(e.runControl())
				if err == nil {
					checkDeadlockCycles(e, r, mon.Config())
					checkRunLength(e, r, mon.Config())
				}
				return err
			},
			links: runControlLinks, refusedAt: "run", keysIn: "run",
			defaults: " (engine defaults: period 1000, max_warmup 50 periods, min_measure 10 periods, max_cycles 1000000, min/max_batches 10/64)",
			engine: engineOf(network.New, networkOutcome, measureNetwork,
				func(e *Experiment) (*Experiment, error) { return e, nil },
				func(e *Experiment, point int, _ float64, seed uint64) (network.Config, string, error) {
					cfg, err := e.NetworkConfig(point, seed)
					return cfg, "", err
				}),
			memory: func(e *Experiment) (network.Memory, error) {
				cfg, err := e.NetworkConfig(0, e.Seed)
				if err != nil {
					return network.Memory{}, err
				}
				return network.EstimateMemory(cfg)
			},
			compared: Compared{QLatency, "cycles", QAccepted, "flits/node/cycle"},
		},
		{
			name: "closed", units: []string{UnitPopulation},
			resolve: (*Experiment).resolveClosed,
			check: func(e *Experiment, r *reporter) {
				topoOK := validateClosedNetwork(e, r)
				validateClosed(e, r)
				validateTraffic(e, r, topoOK)
				validateSweep(e, r, false)
			},
			checkRate: func(_ *Experiment, r *reporter, _ int, key string, v float64, _ bool) {
				if v != math.Trunc(v) || v > maxPopulation {
					r.errorf(key, "a population is a whole number of messages in [1, %d], got %g", maxPopulation, v)
				}
			},
			timeCap: "max_time", needsTarget: true, ringsBidirectional: true,
			notRead: []string{
				"network.bidirectional", "network.link_latency", "network.credit_delay", "network.injection_latency",
				"network.ejection_latency", "network.ejection_vcs", "network.injection_vcs", "router", "routing", "switching",
				"traffic.process", "traffic.burst_length", "traffic.duty_cycle", "traffic.length", "traffic.include_self", "delta", "slotted", "run.max_cycles", "run.backlog_limit", "run.deadlock_cycles", "run.max_drain", "run.threads",
			},
			nodes: func(e *Experiment) int {
				if e.Network.Topology == "bus" {
					return e.Network.Radix
				}
				n, _ := nodeCount(e.Network.Radix, e.Network.Dimensions)
				return n
			},
			engineCheck: buildsPoint0(closedEngine),
			builtAtLoad: true,
			links:       closedLinks, refusedAt: "closed",
			defaults: " (sim/closed defaults: period 10 R1, max_warmup 1000 periods, min_measure 200 periods, max_time 100000 periods, target_rel_ci 0.01, min/max_batches 10/64)",
			engine:   closedEngine,
			compared: Compared{QCycleTime, "time units", QX0, "messages / time unit"},
		},
		{
			name: "delta", units: []string{UnitRho},
			resolve: (*Experiment).resolveDelta,
			check: func(e *Experiment, r *reporter) {
				validateDelta(e, r)
				validateSweep(e, r, false)
			},
			checkRate: func(e *Experiment, r *reporter, _ int, key string, v float64, _ bool) {
				if e.Delta.Time == "slotted" && e.Delta.Mu > 0 && v*e.Delta.Mu > 1 {
					r.errorf(key, "slotted time has Bernoulli sources, at most 1 packet per cycle: rho %g * mu %g = %g", v, e.Delta.Mu, v*e.Delta.Mu)
				}
			},
			timeCap: "max_time",
			notRead: []string{
				"network", "router", "routing", "switching", "traffic", "closed", "slotted",
				"run.max_cycles", "run.max_warmup", "run.min_batches", "run.max_batches", "run.deadlock_cycles", "run.max_drain", "run.threads",
			},
			nodes: func(e *Experiment) int {
				n, _ := deltaTerminals(e.Delta)
				return n
			},
			engineCheck: buildsPoint0(deltaEngine),
			builtAtLoad: true,
			links:       deltaLinks, refusedAt: "delta",
			defaults: " (sim/delta defaults: period max(10/mu, 200/(n lambda)), min_measure 64 periods, max_time 2000 periods, target_rel_ci 0.02)",
			engine:   deltaEngine,
			compared: Compared{QPDT, "time units", QNTP, "packets / time unit"},
		},
		{
			name: "slotted", units: []string{UnitSlots},
			resolve: (*Experiment).resolveSlotted,
			check: func(e *Experiment, r *reporter) {
				validateSlotted(e, r)
				validateSweep(e, r, false)
			},
			checkRate: func(e *Experiment, r *reporter, _ int, key string, v float64, _ bool) {
				if e.Traffic.Process == "bernoulli" && v > 1 {
					r.errorf(key, "a Bernoulli source creates at most 1 packet per slot; rate %g packets/node/slot", v)
				}
			},
			timeCap: "max_cycles", needsTarget: true,
			notRead: []string{
				"network", "router", "routing", "switching", "traffic.radius", "traffic.phi", "traffic.decay",
				"traffic.hotspot_nodes", "traffic.hotspot_fraction", "traffic.include_self", "traffic.length", "traffic.burst_length", "traffic.duty_cycle", "closed", "delta", "run.max_time", "run.deadlock_cycles", "run.max_drain", "run.threads",
			},
			nodes: func(e *Experiment) int {
				n, _ := nodeCount(2, e.Slotted.Dimensions)
				return n
			},
			engineCheck: buildsPoint0(slottedEngine),
			builtAtLoad: true,
			links:       slottedLinks, refusedAt: "slotted",
			defaults: " (sim/slotted defaults: period 128, max_warmup max_cycles/2, min_measure 10000, max_cycles 1048576, target_rel_ci 0.01, min/max_batches 10/64)",
			engine:   slottedEngine,
			compared: Compared{QDelay, "slots", QThroughput, "packets/node/slot"},
		},
	}
}

// buildsPoint0 is the engine check of a mode whose engine is cheap to
// build: it builds sweep point 0 of every variant of the file (its engine
// refuses what it cannot run) and runs nothing.
func buildsPoint0(m modeEngine) func(e *Experiment, _ *reporter) error {
	return func(e *Experiment, _ *reporter) error {
		for _, v := range e.Variants() {
			cfg, err := m.config(v, 0, v.Seed)
			if err == nil {
				_, err = m.start(cfg)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// lookupMode returns the row of mode.
func lookupMode(mode string) (*modeRow, bool) {
	for i := range modeTable {
		if modeTable[i].name == mode {
			return &modeTable[i], true
		}
	}
	return nil, false
}

// modeOf returns the row of mode; an unknown mode (refused by the checks)
// is resolved as network, the default mode.
func modeOf(mode string) *modeRow {
	if row, ok := lookupMode(mode); ok {
		return row
	}
	return &modeTable[0]
}

// notRead lists, per mode, the keys of the schema that mode does not read
// (its row's notRead): writing one is a problem (an impossible
// combination), the value would be silently ignored. A section listed
// whole (router) is reported once, not key by key. Each list is sorted
// once, at init, for the report order.
func init() {
	for i := range modeTable {
		sort.Strings(modeTable[i].notRead)
	}
}

// Reads reports whether e's mode reads key: the key is not in its row's
// notRead, nor under a section listed there whole.
func (e *Experiment) Reads(key string) bool {
	for _, k := range modeOf(e.Mode).notRead {
		if key == k || strings.HasPrefix(key, k+".") {
			return false
		}
	}
	return true
}

// why explains, for messages, why a mode does not read a key.
var why = map[string]string{
	"network":   "its topology is fixed by the mode's own section",
	"router":    "the paper modes have no VC router",
	"routing":   "the paper modes route on their own shortest paths",
	"switching": "the paper modes switch whole packets",
	"traffic":   "sources are Poisson (or Bernoulli when slotted) with uniform destinations, as in the report",

	"network.bidirectional": "a closed ring, torus or mesh is always bidirectional (closed.duplex says how its links are served)",
	"traffic.process":       "a closed network has no sources: a message is created when one completes",
	"traffic.length":        "message length is the link service time, closed.link",
	"traffic.burst_length":  "its sources are the model's (Poisson or Bernoulli), not on/off",
	"traffic.duty_cycle":    "its sources are the model's (Poisson or Bernoulli), not on/off",
	"traffic.include_self":  "its destinations are always another node (the model's routing distribution)",
	"run.backlog_limit":     "a closed network has a finite population and cannot saturate",
	"run.deadlock_cycles":   "this mode cannot deadlock",
	"run.max_cycles":        "its time is continuous, in the unit of the service means: use max_time",
	"run.max_time":          "its time is counted in cycles or slots: use max_cycles",
	"run.max_warmup":        "sim/delta has no cap on warm-up detection",
	"run.min_batches":       "sim/delta sizes its batches itself",
	"run.max_batches":       "sim/delta sizes its batches itself",
	"run.max_drain":         "only the flit-level network tags the messages of the measurement window and drains them",
}

// checkModeKeys reports every key written in the file that e's mode does
// not read.
func checkModeKeys(e *Experiment, r *reporter) {
	for _, k := range modeOf(e.Mode).notRead {
		if !r.set(k) {
			continue
		}
		switch {
		case k == "closed" || k == "delta" || k == "slotted":
			r.errorf(k, "section %s applies only to mode: %s (mode is %s)", k, k, e.Mode)
		case why[k] != "":
			r.errorf(k, "does not apply to mode: %s (%s)", e.Mode, why[k])
		case strings.HasPrefix(k, "network."):
			r.errorf(k, "does not apply to mode: %s (only topology, radix and dimensions do)", e.Mode)
		default:
			r.errorf(k, "does not apply to mode: %s", e.Mode)
		}
	}
}

// ExternalModel parses a models: entry that names a model from outside
// flitsim: "csv:PATH" (a CSV of predictions, PATH relative to the config
// file), "command:PROGRAM ARGS..." (a program that reads the experiment as
// JSON and prints predictions) or "go:NAME" (registered from Go with
// validation.RegisterModel). ok is false for any other entry; arg is what
// follows the prefix, trimmed.
func ExternalModel(m string) (kind, arg string, ok bool) {
	for _, k := range []string{"csv", "command", "go"} {
		if rest, found := strings.CutPrefix(m, k+":"); found {
			return k, strings.TrimSpace(rest), true
		}
	}
	return "", "", false
}

// modelFamily returns the KnownModels name m belongs to: m itself, or a
// variant of it written "<family>-<variant>" or "<family>:<reading>"
// (reed-mva:printed, makrucki-ntp, jacquet-bernoulli), the names the
// validation harness evaluates. It returns "" for an unknown family.
func modelFamily(m string) string {
	best := ""
	for _, k := range KnownModels() {
		if m == k || (strings.HasPrefix(m, k) && len(m) > len(k) && (m[len(k)] == '-' || m[len(k)] == ':')) {
			if len(k) > len(best) {
				best = k
			}
		}
	}
	if best == "" || !modelNameRE.MatchString(m) {
		return ""
	}
	return best
}
