package configs

import (
	"sort"
	"strings"
)

// Modes lists the simulator modes the loader accepts, in documentation
// order.
func Modes() []string { return []string{"network", "closed", "delta", "slotted"} }

// notRead lists, per mode, the keys of the schema that mode does not read.
// Writing one is a problem (an impossible combination): the value would be
// silently ignored. A section listed whole (router) is reported once, not
// key by key. Each list is sorted once, at init, for the report order.
var notRead = map[string][]string{
	"network": {"closed", "delta", "slotted", "run.max_time"},
	"closed": {
		"network.bidirectional", "network.link_latency", "network.credit_delay", "network.injection_latency",
		"network.ejection_latency", "network.ejection_vcs", "network.injection_vcs", "router", "routing", "switching",
		"traffic.process", "traffic.burst_length", "traffic.duty_cycle", "traffic.length", "traffic.include_self", "delta", "slotted", "run.max_cycles", "run.backlog_limit", "run.deadlock_cycles", "run.max_drain",
	},
	"delta": {
		"network", "router", "routing", "switching", "traffic", "closed", "slotted",
		"run.max_cycles", "run.max_warmup", "run.min_batches", "run.max_batches", "run.deadlock_cycles", "run.max_drain",
	},
	"slotted": {
		"network", "router", "routing", "switching", "traffic.radius", "traffic.phi", "traffic.decay",
		"traffic.hotspot_nodes", "traffic.hotspot_fraction", "traffic.include_self", "traffic.length", "traffic.burst_length", "traffic.duty_cycle", "closed", "delta", "run.max_time", "run.deadlock_cycles", "run.max_drain",
	},
}

func init() {
	for _, keys := range notRead {
		sort.Strings(keys)
	}
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
	for _, k := range notRead[e.Mode] {
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
