package validation

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/internal/bounded"
	"github.com/flitsim/flitsim/sim"
)

// External models are named in a config's models: like built-in ones, by a
// prefix (configs.ExternalModel parses it):
//
//	csv:PATH       a CSV file of predictions (path relative to the config file)
//	command:CMD    a program run in the config file's directory: it reads the
//	               experiment as JSON (Experiment) on stdin and prints its
//	               predictions as JSON (Predictions) on stdout
//	go:NAME        a Model registered from Go with RegisterModel
//
// Their predictions become curves judged exactly as a built-in model's:
// same tolerances, verdicts, report rows and plots. A model that predicts
// latency gives the curve "SPEC (latency)"; one that predicts throughput
// "SPEC (throughput)"; one that predicts both, both curves. docs/models-
// external.md is the user's reference, with the JSON schema.

// SchemaVersion names the version of the external-model protocol: the
// "schema" of the Experiment sent to a model and of the Predictions it
// returns.
const SchemaVersion = "flitsim-model/1"

// DefaultModelTimeout bounds a command model's run when the Setup sets no
// ModelTimeout.
const DefaultModelTimeout = 60 * time.Second

// Simulated quantities an external model's throughput and latency are
// compared with, beside the Q constants of the built-in models.
const (
	QCycleTime  = configs.QCycleTime  // closed: R0 = N/X0, time units
	QThroughput = configs.QThroughput // slotted: delivered packets/node/slot
)

// Experiment is what an external model receives: the experiment as
// resolved by flitsim (a command reads it as JSON on stdin).
type Experiment struct {
	// Schema is SchemaVersion.
	Schema string `json:"schema"`
	// Name, Description and Mode are the config's.
	Name        string `json:"name"`
	Description string `json:"description"`
	Mode        string `json:"mode"`
	// RateUnit is the unit of Rates and of a predicted saturation load.
	RateUnit string `json:"rate_unit"`
	// Rates are the sweep's offered loads, ascending: predict at these.
	Rates []float64 `json:"rates"`
	// Seed is the experiment's root seed (a deterministic model may ignore it).
	Seed uint64 `json:"seed"`
	// LatencyUnit and ThroughputUnit are the units the predictions must be
	// in (those of the simulated quantities they are compared with).
	LatencyUnit    string `json:"latency_unit"`
	ThroughputUnit string `json:"throughput_unit"`
	// Config is the resolved config, every default filled in (the JSON
	// form of configs.Experiment whose digest is the config hash); null
	// for a Setup built in Go without one.
	Config json.RawMessage `json:"config"`
}

// Predictions is what an external model returns for one experiment.
type Predictions struct {
	// Schema is SchemaVersion (a command must print it; a Go model may
	// leave it empty).
	Schema string `json:"schema"`
	// Name is an optional label for the report's legend.
	Name string `json:"name,omitempty"`
	// Saturation, if set, is the model's saturation load in the rate unit:
	// points at or above it are saturated, and judging stops at the
	// tolerance's fraction of it, as for a built-in model.
	Saturation *float64 `json:"saturation,omitempty"`
	// Points are the predictions, one per load; loads not among the
	// experiment's rates are ignored, rates without a point are not judged.
	Points []Prediction `json:"points"`
}

// Prediction is an external model's value at one load.
type Prediction struct {
	// Load is the offered load in the experiment's rate unit.
	Load float64 `json:"load"`
	// Latency and Throughput are the predictions (nil: none), in the
	// experiment's LatencyUnit and ThroughputUnit.
	Latency    *float64 `json:"latency,omitempty"`
	Throughput *float64 `json:"throughput,omitempty"`
	// Status is "ok" (the default), "saturated" or "out-of-domain"; a point
	// that is not ok is never judged, and Reason says why.
	Status string `json:"status,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Model is an analytical model written in Go outside flitsim: registered
// under a name with RegisterModel, it is named go:NAME in a config's
// models:. Predict is called once per experiment and must not keep x.
type Model interface {
	Predict(ctx context.Context, x Experiment) (Predictions, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, x Experiment) (Predictions, error)

// Predict calls f.
func (f ModelFunc) Predict(ctx context.Context, x Experiment) (Predictions, error) { return f(ctx, x) }

var registry = struct {
	sync.RWMutex
	m map[string]Model
}{m: map[string]Model{}}

// RegisterModel makes m available as go:name in a config's models:. It
// panics (a programmer error) if name is empty, holds white space or a
// colon, or is already registered.
func RegisterModel(name string, m Model) {
	if name == "" || strings.ContainsAny(name, " \t\n:") || m == nil {
		panic(fmt.Sprintf("validation: RegisterModel(%q): want a non-empty name without spaces or colons, and a model", name))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic(fmt.Sprintf("validation: RegisterModel(%q): registered twice", name))
	}
	registry.m[name] = m
}

// RegisteredModels returns the names registered with RegisterModel, sorted.
func RegisteredModels() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.m))
	for k := range registry.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// externalUnits returns the simulated quantities (and their units) an
// external model's latency and throughput are compared with in mode (its
// row of the mode table; an unknown mode is read as network, the default).
func externalUnits(mode string) (latQ, latUnit, thrQ, thrUnit string) {
	m, ok := configs.LookupMode(mode)
	if !ok {
		m, _ = configs.LookupMode(configs.Modes()[0])
	}
	c := m.Compared()
	return c.Latency, c.LatencyUnit, c.Throughput, c.ThroughputUnit
}

// experimentOf returns what an external model receives for s.
func experimentOf(s Setup) Experiment {
	_, latU, _, thrU := externalUnits(s.Mode())
	x := Experiment{Schema: SchemaVersion, Name: s.Name, Description: s.Description, Mode: s.Mode(),
		RateUnit: s.RateUnit, Rates: append([]float64(nil), s.Rates...), Seed: s.Seed,
		LatencyUnit: latU, ThroughputUnit: thrU, Config: json.RawMessage("null")}
	if e := s.experiment(); e != nil {
		if b, err := json.Marshal(e); err == nil {
			x.Config = b
		}
	}
	return x
}

// experiment returns the loaded experiment s came from, or nil.
func (s Setup) experiment() *configs.Experiment {
	if s.Experiment != nil {
		return s.Experiment
	}
	return s.Network
}

// baseDir is the directory relative paths of s's external models start
// from: the config file's, or the working directory.
func (s Setup) baseDir() string {
	if e := s.experiment(); e != nil && e.File != "" {
		return filepath.Dir(e.File)
	}
	return "."
}

// IsExternal reports whether a models: entry names an external model.
func IsExternal(name string) bool {
	_, _, ok := configs.ExternalModel(name)
	return ok
}

// evaluateExternal evaluates one external model over the sweep of s.
func evaluateExternal(s Setup, name string) ([]Curve, error) {
	kind, arg, _ := configs.ExternalModel(name)
	var p Predictions
	var err error
	switch kind {
	case "csv":
		p, err = readPredictionsCSV(filepath.Join(s.baseDir(), arg))
	case "command":
		p, err = runCommandModel(s, arg)
	case "go":
		registry.RLock()
		m := registry.m[arg]
		registry.RUnlock()
		if m == nil {
			known := strings.Join(RegisteredModels(), ", ")
			if known == "" {
				known = "none"
			}
			return nil, fmt.Errorf("validation: %s: no Go model registered as %q (validation.RegisterModel; registered: %s)", s.Name, arg, known)
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.modelTimeout())
		defer cancel()
		p, err = m.Predict(ctx, experimentOf(s))
		if err == nil {
			err = p.check(false)
		}
	default:
		err = fmt.Errorf("unknown external model kind %q", kind)
	}
	if err != nil {
		return nil, fmt.Errorf("validation: %s: model %s: %w", s.Name, name, err)
	}
	return p.curves(s, name), nil
}

func (s Setup) modelTimeout() time.Duration {
	if s.ModelTimeout > 0 {
		return s.ModelTimeout
	}
	return DefaultModelTimeout
}

// check reports predictions that cannot be judged: a wrong schema (when
// strict, for a command's output), a non-finite or repeated load, a
// negative or non-finite value, an unknown status.
func (p *Predictions) check(strict bool) error {
	if (strict || p.Schema != "") && p.Schema != SchemaVersion {
		return fmt.Errorf("schema %q, want %q", p.Schema, SchemaVersion)
	}
	if p.Saturation != nil && !(*p.Saturation > 0 && !math.IsInf(*p.Saturation, 0)) {
		return fmt.Errorf("saturation %g: want a load > 0", *p.Saturation)
	}
	if len(p.Points) == 0 {
		return errors.New("no points")
	}
	seen := map[float64]bool{}
	for i, pt := range p.Points {
		where := fmt.Sprintf("points[%d] (load %g)", i, pt.Load)
		if math.IsNaN(pt.Load) || math.IsInf(pt.Load, 0) {
			return fmt.Errorf("points[%d]: load is not a number", i)
		}
		if seen[pt.Load] {
			return fmt.Errorf("%s: load repeats", where)
		}
		seen[pt.Load] = true
		for _, v := range []struct {
			name string
			v    *float64
		}{{"latency", pt.Latency}, {"throughput", pt.Throughput}} {
			if v.v != nil && !(*v.v >= 0 && !math.IsInf(*v.v, 0)) {
				return fmt.Errorf("%s: %s %g: want a finite value >= 0", where, v.name, *v.v)
			}
		}
		switch pt.Status {
		case "", sim.StatusOK, sim.StatusSaturated, sim.StatusOutOfDomain:
		default:
			return fmt.Errorf("%s: status %q: want ok, saturated or out-of-domain", where, pt.Status)
		}
	}
	return nil
}

// curves turns checked predictions into the curves of name over s's sweep:
// one for latency and one for throughput, each where some point has it.
func (p *Predictions) curves(s Setup, name string) []Curve {
	latQ, latU, thrQ, thrU := externalUnits(s.Mode())
	label := p.Name
	if label == "" {
		label = name
	}
	sat := math.NaN()
	if p.Saturation != nil {
		sat = *p.Saturation
	}
	var out []Curve
	for _, q := range []struct {
		what, sim, unit string
		get             func(Prediction) *float64
	}{
		{"latency", latQ, latU, func(pt Prediction) *float64 { return pt.Latency }},
		{"throughput", thrQ, thrU, func(pt Prediction) *float64 { return pt.Throughput }},
	} {
		any := false
		for _, pt := range p.Points {
			any = any || q.get(pt) != nil
		}
		if !any {
			continue
		}
		c := Curve{Model: name + " (" + q.what + ")", Label: label + ", " + q.what, Sim: q.sim, Unit: q.unit,
			Saturation: sat, Points: make([]ModelPoint, len(s.Rates))}
		for i, r := range s.Rates {
			mp := ModelPoint{Rate: r, Value: math.NaN(), Status: sim.StatusOutOfDomain, Reason: "no prediction at this load"}
			if pt, ok := p.at(r); ok {
				v := q.get(pt)
				switch {
				case !math.IsNaN(sat) && r >= sat*(1-1e-12):
					mp.Status, mp.Reason = sim.StatusSaturated, fmt.Sprintf("at or above the model's saturation load %g", sat)
				case pt.Status != "" && pt.Status != sim.StatusOK:
					mp.Status, mp.Reason = pt.Status, pt.Reason
				case v == nil:
					mp.Reason = "no " + q.what + " predicted at this load"
				default:
					mp.Value, mp.Status, mp.Reason = *v, sim.StatusOK, ""
				}
			}
			c.Points[i] = mp
		}
		out = append(out, c)
	}
	return out
}

// at returns the prediction at load r (equal to 1e-9 relative).
func (p *Predictions) at(r float64) (Prediction, bool) {
	for _, pt := range p.Points {
		if math.Abs(pt.Load-r) <= 1e-9*math.Max(1, math.Abs(r)) {
			return pt, true
		}
	}
	return Prediction{}, false
}

// readPredictionsCSV reads a CSV of predictions: optional leading lines
// "# name: LABEL" and "# saturation: LOAD" (other # lines are comments),
// then a header with load and at least one of latency and throughput
// (status and reason optional), then one row per load; an empty cell is no
// value. Errors name the file, line and column.
func readPredictionsCSV(path string) (Predictions, error) {
	data, err := bounded.ReadFile(path, maxPredictionsBytes)
	if err != nil {
		return Predictions{}, err
	}
	return parsePredictionsCSV(path, data)
}

// maxPredictionsBytes bounds a predictions file: a model's curve over a
// sweep is a few kilobytes, so 16 MiB is generous, and /dev/zero or a
// wrong multi-gigabyte file is refused at once instead of read whole.
const maxPredictionsBytes = 16 << 20

// parsePredictionsCSV parses the text of a predictions file (path names it
// in errors); FuzzPredictionsCSV feeds it arbitrary bytes.
func parsePredictionsCSV(path string, data []byte) (Predictions, error) {
	var p Predictions
	for n, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(t[1:]), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "name":
			p.Name = v
		case "saturation":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return p, fmt.Errorf("%s:%d: saturation: %q is not a number", path, n+1, v)
			}
			p.Saturation = &f
		}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return p, fmt.Errorf("%s: no header line (load,latency,throughput): %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		switch h {
		case "load", "latency", "throughput", "status", "reason":
		default:
			line, c := r.FieldPos(i)
			return p, fmt.Errorf("%s:%d:%d: unknown column %q (want load, latency, throughput, status, reason)", path, line, c, header[i])
		}
		if _, dup := col[h]; dup {
			line, c := r.FieldPos(i)
			return p, fmt.Errorf("%s:%d:%d: column %q twice", path, line, c, h)
		}
		col[h] = i
	}
	_, hasLat := col["latency"]
	_, hasThr := col["throughput"]
	if _, ok := col["load"]; !ok || (!hasLat && !hasThr) {
		line, _ := r.FieldPos(0)
		return p, fmt.Errorf("%s:%d: the header needs load and at least one of latency, throughput; it has %s", path, line, strings.Join(header, ","))
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p, fmt.Errorf("%s: %w", path, err)
		}
		var pt Prediction
		num := func(name string) (*float64, error) {
			i, ok := col[name]
			if !ok || strings.TrimSpace(rec[i]) == "" {
				return nil, nil
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(rec[i]), 64)
			if err != nil {
				line, c := r.FieldPos(i)
				return nil, fmt.Errorf("%s:%d:%d: %s: %q is not a number", path, line, c, name, rec[i])
			}
			return &f, nil
		}
		load, err := num("load")
		if err != nil {
			return p, err
		}
		if load == nil {
			line, c := r.FieldPos(col["load"])
			return p, fmt.Errorf("%s:%d:%d: load: empty", path, line, c)
		}
		pt.Load = *load
		if pt.Latency, err = num("latency"); err != nil {
			return p, err
		}
		if pt.Throughput, err = num("throughput"); err != nil {
			return p, err
		}
		if i, ok := col["status"]; ok {
			pt.Status = strings.TrimSpace(rec[i])
		}
		if i, ok := col["reason"]; ok {
			pt.Reason = strings.TrimSpace(rec[i])
		}
		p.Points = append(p.Points, pt)
	}
	if err := p.check(false); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// CommandError is the failure of a command model: it could not start,
// exited non-zero, ran out of time or printed malformed predictions. Its
// message carries what the command printed.
type CommandError struct {
	Command string // as written after command:
	Dir     string // where it ran
	Problem string // what went wrong
	Stdout  string // what it printed (cut to a few kilobytes)
	Stderr  string
}

func (e *CommandError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command %q (in %s) %s", e.Command, e.Dir, e.Problem)
	for _, out := range []struct{ name, s string }{{"stderr", e.Stderr}, {"stdout", e.Stdout}} {
		if s := strings.TrimRight(out.s, "\n"); s != "" {
			fmt.Fprintf(&b, "\n  its %s:\n    %s", out.name, strings.ReplaceAll(s, "\n", "\n    "))
		} else {
			fmt.Fprintf(&b, "\n  its %s: (empty)", out.name)
		}
	}
	return b.String()
}

// maxOutput is how much of a command's stdout is read (predictions are
// small); maxShown how much of each stream an error quotes.
const (
	maxOutput = 16 << 20
	maxShown  = 4 << 10
)

func shown(b []byte) string {
	if len(b) > maxShown {
		return string(b[:maxShown]) + fmt.Sprintf("\n[... %d more bytes]", len(b)-maxShown)
	}
	return string(b)
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// commandMemo keeps the predictions of each (directory, command, input)
// that succeeded, so a command model runs once per process even when the
// models are evaluated twice (the pre-run check, then the report).
var commandMemo sync.Map

// runCommandModel runs a command model for s: the command line is split on
// white space (no shell, no quoting: put anything more in a script), run in
// the config file's directory with the Experiment as JSON on stdin, killed
// after the Setup's ModelTimeout.
func runCommandModel(s Setup, command string) (Predictions, error) {
	argv := strings.Fields(command)
	dir := s.baseDir()
	input, err := json.MarshalIndent(experimentOf(s), "", "  ")
	if err != nil {
		return Predictions{}, err
	}
	key := dir + "\x00" + command + "\x00" + string(input)
	if p, ok := commandMemo.Load(key); ok {
		return p.(Predictions), nil
	}
	timeout := s.modelTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(append(input, '\n'))
	stdout, stderr := &limitedBuffer{max: maxOutput}, &limitedBuffer{max: maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second // a child holding the pipes open cannot hang us
	runErr := cmd.Run()
	fail := func(problem string) error {
		return &CommandError{Command: command, Dir: dir, Problem: problem, Stdout: shown(stdout.Bytes()), Stderr: shown(stderr.Bytes())}
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return Predictions{}, fail(fmt.Sprintf("did not finish within %s and was killed (--model-timeout)", timeout))
	case errors.As(runErr, &exitErr):
		return Predictions{}, fail(fmt.Sprintf("failed: %v", exitErr))
	case runErr != nil:
		return Predictions{}, fail(fmt.Sprintf("could not run: %v", runErr))
	}
	var p Predictions
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Predictions{}, fail("printed malformed predictions: " + jsonProblem(stdout.Bytes(), err))
	}
	if dec.More() {
		return Predictions{}, fail("printed malformed predictions: more than one JSON value on stdout")
	}
	if err := p.check(true); err != nil {
		return Predictions{}, fail("printed unusable predictions: " + err.Error())
	}
	commandMemo.Store(key, p)
	return p, nil
}

// jsonProblem describes a decoding error with the line and column of the
// offending byte where it knows the offset.
func jsonProblem(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offending byte is the last one read
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off >= int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n')) // 1-based
	return fmt.Sprintf("stdout line %d, column %d: %v", line, col, err)
}

// CheckExternal evaluates the external models of s (none: nil) and returns
// their problems joined, so a command can refuse a broken model before it
// simulates anything. A command model's answer is kept for the report.
func CheckExternal(s Setup) error {
	var errs []error
	for _, m := range s.Models {
		if IsExternal(m) {
			if _, err := evaluateExternal(s, m); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
