package validation

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
)

// DefaultSlack is the absolute increase of a mean error over its baseline
// tolerated before Baseline.Check reports a regression (0.02 = two points of
// relative error; the statistical noise of a reduced run is about one).
const DefaultSlack = 0.02

// Baseline holds, for every (config, model) comparison with data, keyed
// "config/model" ("config/model@saturation" for a saturation judgement),
// the committed mean absolute relative error and the verdict it had
// (validation/testdata/baseline.json). A verdict "fail" records a known,
// documented judged failure: flitsim validate still fails on it (exit 6),
// while the guard tests accept it as long as its error does not grow. In
// the file an entry is {"mean_err": e, "verdict": v}; a bare number (the
// older form) is a mean error with no verdict. encoding/json writes map
// keys sorted, so the file is stable.
type Baseline map[string]BaselineEntry

// BaselineEntry is one comparison's committed mean error and verdict.
type BaselineEntry struct {
	MeanErr float64 `json:"mean_err"`
	Verdict string  `json:"verdict,omitempty"`
}

// UnmarshalJSON reads an entry, or a bare number as its mean error.
func (e *BaselineEntry) UnmarshalJSON(b []byte) error {
	var v float64
	if err := json.Unmarshal(b, &v); err == nil {
		*e = BaselineEntry{MeanErr: v}
		return nil
	}
	type plain BaselineEntry
	return json.Unmarshal(b, (*plain)(e))
}

// BaselineKey returns the key of a comparison in a Baseline.
func BaselineKey(c Comparison) string {
	if c.Sim == QSaturation {
		return c.Config + "/" + c.Model + "@saturation"
	}
	return c.Config + "/" + c.Model
}

// NewBaseline records the mean errors and verdicts of the comparisons that
// have data, and the judged comparisons without data that fail (verdict
// "no-data", mean error 0: a known failure with no error to guard).
func NewBaseline(cs []Comparison) Baseline {
	b := Baseline{}
	for _, c := range cs {
		switch {
		case c.Bound == Estimate && c.Verdict != NoData:
			b[BaselineKey(c)] = BaselineEntry{MeanErr: math.Round(c.MeanErr*1e6) / 1e6, Verdict: c.Verdict}
		case c.Verdict == NoData && c.Failed():
			b[BaselineKey(c)] = BaselineEntry{Verdict: NoData}
		}
	}
	return b
}

// KnownFailure reports whether c fails and the baseline records it as a
// known failure: the same failing verdict ("fail", or "no-data" for a
// judged comparison without data) under the same key.
func (b Baseline) KnownFailure(c Comparison) bool {
	e, ok := b[BaselineKey(c)]
	return c.Failed() && ok && e.Verdict == c.Verdict
}

// MaxBaselineBytes bounds the size of a baseline file LoadBaseline reads:
// a committed baseline is a few kilobytes (one short entry per
// comparison); anything near this size is not one.
const MaxBaselineBytes = 4 << 20

// LoadBaseline reads a baseline file. A missing file, a file larger than
// MaxBaselineBytes and malformed JSON are errors naming the file: a
// mistyped --baseline must not run unguarded.
func LoadBaseline(path string) (Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("validation: baseline: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBaselineBytes+1))
	if err != nil {
		return nil, fmt.Errorf("validation: baseline %s: %w", path, err)
	}
	if len(data) > MaxBaselineBytes {
		return nil, fmt.Errorf("validation: baseline %s is larger than %d bytes, the most a baseline may have (one short entry per comparison): not a baseline file?", path, MaxBaselineBytes)
	}
	b := Baseline{}
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("validation: baseline %s: %w", path, err)
	}
	return b, nil
}

// Save writes the baseline as indented JSON.
func (b Baseline) Save(path string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Regression is a comparison whose mean error grew past its baseline.
type Regression struct {
	Key               string
	Baseline, MeanErr float64
	Slack             float64
}

// String describes the regression.
func (r Regression) String() string {
	return fmt.Sprintf("%s: mean error %.4f > baseline %.4f + slack %.4f", r.Key, r.MeanErr, r.Baseline, r.Slack)
}

// Check returns the comparisons whose mean error exceeds the baseline's by
// more than slack (slack <= 0 means DefaultSlack), sorted by key. A pair
// missing from the baseline, or without data now, is not a regression.
func (b Baseline) Check(cs []Comparison, slack float64) []Regression {
	if slack <= 0 {
		slack = DefaultSlack
	}
	var out []Regression
	for _, c := range cs {
		base, ok := b[BaselineKey(c)]
		if !ok || c.Bound != Estimate || c.Verdict == NoData {
			continue
		}
		if c.MeanErr > base.MeanErr+slack {
			out = append(out, Regression{Key: BaselineKey(c), Baseline: base.MeanErr, MeanErr: c.MeanErr, Slack: slack})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
