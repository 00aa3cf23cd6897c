package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
)

// ShardFormat is the format tag of shard files this version writes and reads.
const ShardFormat = "flitsim-shard/1"

// ShardHeader is what a shard file says about itself, enough for a merge to
// tell which run it belongs to and to find missing, duplicated and
// mismatched shards by name: the command that wrote it (Kind: "run",
// "validate"), the flitsim version, the shard i of n, every job of the run
// (name, config hash, seed, rates, replications, costs: the plan is
// recomputed from them) and the indexes ([Unit.Index]) of the units the
// shard holds, ascending.
type ShardHeader struct {
	Format  string `json:"format"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
	Shard   int    `json:"shard"`
	Count   int    `json:"count"`
	Jobs    []Job  `json:"jobs"`
	Units   []int  `json:"units"`
}

// UnitResult is one finished unit in a shard file.
type UnitResult[O any] struct {
	Unit        int    `json:"unit"` // Unit.Index
	Job         int    `json:"job"`
	Point       int    `json:"point"`
	Replication int    `json:"replication"`
	Seed        uint64 `json:"seed"`
	Outcome     O      `json:"outcome"`
}

// ShardFile is the content of one shard file: the header and the units
// finished so far, ascending by unit index. It is complete when every unit
// of Units has a result. O must survive a JSON round trip exactly ([Outcome]
// does, non-finite values included), so that a merge combines the same
// numbers an unsharded run would.
type ShardFile[O any] struct {
	ShardHeader
	Results []UnitResult[O] `json:"results"`
}

// Complete reports whether every unit of the shard has finished.
func (f *ShardFile[O]) Complete() bool { return len(f.Results) == len(f.Units) }

// ShardOptions controls [RunShard].
type ShardOptions struct {
	// Kind is the command writing the shard ("run", "validate").
	Kind string
	// Workers is the number of units run at once (0: runtime.NumCPU()).
	Workers int
	// Dir receives the shard file ([Shard.FileName]); "" writes nothing.
	Dir string
	// Resume keeps the units already in the shard file and runs the rest.
	Resume bool
	// Version is the flitsim version written in the header.
	Version string
	// Progress, if not nil, counts units (as points and as runs).
	Progress *Progress
}

// RunShard runs the units that [Plan] deals to shard s and streams them to
// Dir/s.FileName(): the file is rewritten whole and atomically after every
// finished unit, so a crash or kill keeps every finished unit and
// Resume finishes the shard without redoing them, and without touching the
// other shards' files. It returns the shard file's content and, like
// [Run], a *UnitError, a wrapped ctx.Err() or an I/O error; ErrResumeMismatch
// (wrapped) when the file on disk belongs to another run.
func RunShard[O any](ctx context.Context, jobs []Job, s Shard, fn UnitFunc[O], opt ShardOptions) (*ShardFile[O], error) {
	if err := checkJobs(jobs); err != nil {
		return nil, err
	}
	if _, err := checkShard(s, "shard "+s.String()); err != nil {
		return nil, err
	}
	mine := Plan(jobs, s.Count)[s.Index]
	f := &ShardFile[O]{ShardHeader: ShardHeader{
		Format: ShardFormat, Kind: opt.Kind, Version: opt.Version,
		Shard: s.Index, Count: s.Count, Jobs: jobs, Units: make([]int, len(mine)),
	}}
	for i, u := range mine {
		f.Units[i] = u.Index
	}
	slices.Sort(f.Units)
	path := ""
	if opt.Dir != "" {
		path = filepath.Join(opt.Dir, s.FileName())
	}
	done := map[int]bool{}
	if opt.Resume && path != "" {
		old, err := readShardFile[O](path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err == nil {
			why := headerDiff(&old.ShardHeader, &f.ShardHeader)
			if old.Shard != f.Shard {
				why = fmt.Sprintf("the file holds shard %d/%d", old.Shard, old.Count)
			}
			if why != "" {
				return nil, fmt.Errorf("resume %s: %w: %s; use another --out or drop --resume", path, ErrResumeMismatch, why)
			}
			all := Units(jobs)
			for _, r := range old.Results {
				if r.Unit < 0 || r.Unit >= len(all) || !resultMatches(r, all[r.Unit]) || done[r.Unit] {
					return nil, fmt.Errorf("resume %s: %w: result for unit %d does not match the plan", path, ErrResumeMismatch, r.Unit)
				}
				done[r.Unit] = true
				f.Results = append(f.Results, r)
			}
		}
	}
	var todo []Unit
	for _, u := range mine {
		if !done[u.Index] {
			todo = append(todo, u)
		}
	}
	if opt.Progress != nil {
		opt.Progress.begin(len(mine), len(mine)-len(todo), len(todo))
	}
	flush := func() error {
		if path == "" {
			return nil
		}
		slices.SortFunc(f.Results, func(a, b UnitResult[O]) int { return a.Unit - b.Unit })
		b, err := json.MarshalIndent(f, "", " ")
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return err
		}
		return writeAtomic(path, append(b, '\n'))
	}
	if err := flush(); err != nil {
		return nil, err
	}
	err := ForEach(ctx, jobs, todo, opt.Workers, track(opt.Progress, jobs, fn), func(u Unit, out O) error {
		f.Results = append(f.Results, UnitResult[O]{Unit: u.Index, Job: u.Job, Point: u.Point, Replication: u.Replication, Seed: u.Seed, Outcome: out})
		if opt.Progress != nil {
			var cycles int64
			if o, ok := any(out).(Outcome); ok {
				cycles = o.Cycles
			}
			opt.Progress.unitDone(cycles)
			opt.Progress.pointDone()
		}
		return flush()
	})
	return f, err
}

// resultMatches reports whether r is the result of unit u.
func resultMatches[O any](r UnitResult[O], u Unit) bool {
	return r.Unit == u.Index && r.Job == u.Job && r.Point == u.Point && r.Replication == u.Replication && r.Seed == u.Seed
}

// headerDiff describes the first difference between the run identity of
// two headers (kind, version, shard count, jobs), or "" if they agree; a
// is the file on disk (or the odd one out), b the reference.
func headerDiff(a, b *ShardHeader) string {
	switch {
	case a.Format != b.Format:
		return fmt.Sprintf("format %q, want %q", a.Format, b.Format)
	case a.Kind != b.Kind:
		return fmt.Sprintf("written by flitsim %s, not %s", a.Kind, b.Kind)
	case a.Version != b.Version:
		return fmt.Sprintf("version %s, not %s", a.Version, b.Version)
	case a.Count != b.Count:
		return fmt.Sprintf("%d shards, not %d", a.Count, b.Count)
	}
	if d := jobsDiff(a.Jobs, b.Jobs); d != "" {
		return d
	}
	if a.Shard == b.Shard && !slices.Equal(a.Units, b.Units) {
		return fmt.Sprintf("shard %d/%d holds other units than its plan", a.Shard, a.Count)
	}
	return ""
}

// jobsDiff describes the first difference between two job lists, or "".
func jobsDiff(a, b []Job) string {
	names := func(js []Job) []string {
		s := make([]string, len(js))
		for i := range js {
			s[i] = js[i].Name
		}
		return s
	}
	if !slices.Equal(names(a), names(b)) {
		return fmt.Sprintf("configs %v, not %v", names(a), names(b))
	}
	for i := range a {
		x, y := &a[i], &b[i]
		switch {
		case x.Hash != y.Hash:
			return fmt.Sprintf("config %s has hash %.12s, not %.12s", x.Name, x.Hash, y.Hash)
		case x.Seed != y.Seed:
			return fmt.Sprintf("config %s has seed %d, not %d", x.Name, x.Seed, y.Seed)
		case x.RateUnit != y.RateUnit || !slices.Equal(x.Rates, y.Rates):
			return fmt.Sprintf("config %s has rates %v %s, not %v %s", x.Name, x.Rates, x.RateUnit, y.Rates, y.RateUnit)
		case x.Replications != y.Replications:
			return fmt.Sprintf("config %s has %d replications, not %d", x.Name, x.Replications, y.Replications)
		case !reflect.DeepEqual(x.Cost, y.Cost):
			return fmt.Sprintf("config %s has unit costs %v, not %v", x.Name, x.Cost, y.Cost)
		case x.Source != y.Source:
			return fmt.Sprintf("config %s has another source text (%s vs %s)", x.Name, x.File, y.File)
		}
	}
	return ""
}

// readShardFile reads and decodes one shard file strictly (unknown fields
// refused). A missing file's error wraps fs.ErrNotExist.
func readShardFile[O any](path string) (*ShardFile[O], error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeShardFile[O](path, b)
}

// decodeShardFile decodes the text b of the shard file at path.
func decodeShardFile[O any](path string, b []byte) (*ShardFile[O], error) {
	var f ShardFile[O]
	if err := DecodeStrict(b, &f); err != nil {
		return nil, fmt.Errorf("%s: not a readable shard file: %w", path, err)
	}
	if f.Format != ShardFormat {
		return nil, fmt.Errorf("%s: format %q, this flitsim reads %q", path, f.Format, ShardFormat)
	}
	return &f, nil
}

// outcomeJSON is the JSON form of an Outcome in a shard file.
type outcomeJSON struct {
	Status             string       `json:"status"`
	Reason             string       `json:"reason,omitempty"`
	Latency            JSONFloat    `json:"latency"`
	LatencyCI95        JSONFloat    `json:"latency_ci95"`
	NetworkLatency     JSONFloat    `json:"network_latency"`
	NetworkLatencyCI95 JSONFloat    `json:"network_latency_ci95"`
	Accepted           JSONFloat    `json:"accepted"`
	Offered            JSONFloat    `json:"offered"`
	Cycles             int64        `json:"cycles"`
	Extra              []metricJSON `json:"extra,omitempty"`
}

type metricJSON struct {
	Name  string    `json:"name"`
	Value JSONFloat `json:"value"`
	CI95  JSONFloat `json:"ci95"`
}

// MarshalJSON writes o with every float in its shortest exact form and
// NaN, +Inf, -Inf as the strings "NaN", "+Inf", "-Inf", so that the value
// read back is bit-for-bit the one written (a saturated run's NaN latency
// included) and a merged result equals the unsharded one.
func (o Outcome) MarshalJSON() ([]byte, error) {
	var extra []metricJSON
	for _, m := range o.Extra {
		extra = append(extra, metricJSON{m.Name, JSONFloat(m.Value), JSONFloat(m.CI95)})
	}
	return json.Marshal(outcomeJSON{o.Status, o.Reason, JSONFloat(o.Latency), JSONFloat(o.LatencyCI95),
		JSONFloat(o.NetworkLatency), JSONFloat(o.NetworkLatencyCI95), JSONFloat(o.Accepted), JSONFloat(o.Offered), o.Cycles, extra})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Outcome) UnmarshalJSON(b []byte) error {
	var j outcomeJSON
	if err := DecodeStrict(b, &j); err != nil {
		return err
	}
	var extra []Metric
	for _, m := range j.Extra {
		extra = append(extra, Metric{m.Name, float64(m.Value), float64(m.CI95)})
	}
	*o = Outcome{j.Status, j.Reason, float64(j.Latency), float64(j.LatencyCI95), float64(j.NetworkLatency),
		float64(j.NetworkLatencyCI95), float64(j.Accepted), float64(j.Offered), j.Cycles, extra}
	return nil
}

// DecodeStrict decodes the JSON value at the start of b into v, refusing
// fields v has no place for: the reading of every file and outcome this
// package writes (shard files, results.json, [Outcome]) and of the
// validation harness's points, so a file from another flitsim version fails
// loudly instead of losing data.
func DecodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// JSONFloat is a float64 whose JSON form round-trips exactly, non-finite
// values included: the shortest exact number, or the string "NaN", "+Inf"
// or "-Inf". Every outcome type written to a shard file ([Outcome], the
// validation harness's points) encodes its floats with it.
type JSONFloat float64

// MarshalJSON writes v as its shortest exact number, or "NaN", "+Inf", "-Inf".
func (v JSONFloat) MarshalJSON() ([]byte, error) {
	f := float64(v)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *JSONFloat) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		var err error
		if s, err = strconv.Unquote(s); err != nil || (s != "NaN" && s != "+Inf" && s != "-Inf") {
			return fmt.Errorf("number expected, got %s", b)
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("number expected, got %s", b)
	}
	*v = JSONFloat(f)
	return nil
}
