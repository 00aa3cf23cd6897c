package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Row is one line of results: one (config, source, offered load). Pointer
// fields are nil (empty in CSV, null in JSON) when there is no number: the
// latency of a point that is not ok, or a value that came out non-finite.
type Row struct {
	Config             string   `json:"config"`
	Source             string   `json:"source"`
	Rate               float64  `json:"rate"`      // offered load in RateUnit
	RateUnit           string   `json:"rate_unit"` // messages/node/cycle or flits/node/cycle
	Latency            *float64 `json:"latency"`   // cycles, creation to delivery of the tail
	LatencyCI95        *float64 `json:"latency_ci95"`
	NetworkLatency     *float64 `json:"network_latency"` // cycles, injection to delivery
	NetworkLatencyCI95 *float64 `json:"network_latency_ci95"`
	Accepted           *float64 `json:"accepted"` // flits/node/cycle
	Offered            *float64 `json:"offered"`  // flits/node/cycle
	Status             string   `json:"status"`
	Reason             string   `json:"reason"`
	Replications       int      `json:"replications"`
	Cycles             int64    `json:"cycles"` // simulated cycles, all replications
	Seed               uint64   `json:"seed"`
	ConfigHash         string   `json:"config_hash"`
	Version            string   `json:"version"`
	// Extra holds the mode's further measurements with their 95% CIs
	// (Outcome.Extra combined over replications); only on ok rows.
	Extra []RowMetric `json:"extra,omitempty"`
}

// RowMetric is one further measurement in a result row; nil numbers are
// absent (no interval, or a non-finite value).
type RowMetric struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
	CI95  *float64 `json:"ci95"`
}

// Columns is the header of results.csv, in order.
var Columns = []string{
	"config", "source", "rate", "rate_unit", "latency", "latency_ci95", "network_latency", "network_latency_ci95",
	"accepted", "offered", "status", "reason", "replications", "cycles", "seed", "config_hash", "version", "extra",
}

// File names written in the output directory.
const (
	CSVFile  = "results.csv"
	JSONFile = "results.json"
)

// fmtFloat writes v in the shortest form that reads back exactly.
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func fmtPtr(v *float64) string {
	if v == nil {
		return ""
	}
	return fmtFloat(*v)
}

// record returns the CSV fields of r, in Columns order.
func (r *Row) record() []string {
	return []string{
		r.Config, r.Source, fmtFloat(r.Rate), r.RateUnit, fmtPtr(r.Latency), fmtPtr(r.LatencyCI95),
		fmtPtr(r.NetworkLatency), fmtPtr(r.NetworkLatencyCI95), fmtPtr(r.Accepted), fmtPtr(r.Offered),
		r.Status, r.Reason, strconv.Itoa(r.Replications), strconv.FormatInt(r.Cycles, 10),
		strconv.FormatUint(r.Seed, 10), r.ConfigHash, r.Version, r.extraField(),
	}
}

// extraField renders Extra for the CSV's last column as
// "name=value±ci95; ..." ("name=value" without an interval).
func (r *Row) extraField() string {
	var b strings.Builder
	for i, m := range r.Extra {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(m.Name)
		b.WriteByte('=')
		b.WriteString(fmtPtr(m.Value))
		if m.CI95 != nil {
			b.WriteString("±")
			b.WriteString(fmtFloat(*m.CI95))
		}
	}
	return b.String()
}

// EncodeCSV renders rows as results.csv.
func EncodeCSV(rows []Row) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(Columns)
	for i := range rows {
		_ = w.Write(rows[i].record())
	}
	w.Flush() // writes to a bytes.Buffer cannot fail
	return b.Bytes()
}

// jsonDoc is the layout of results.json.
type jsonDoc struct {
	Rows []Row `json:"rows"`
}

// EncodeJSON renders rows as results.json.
func EncodeJSON(rows []Row) []byte {
	if rows == nil {
		rows = []Row{}
	}
	b, err := json.MarshalIndent(jsonDoc{Rows: rows}, "", "  ")
	if err != nil {
		panic("sweep: encoding rows: " + err.Error()) // only finite floats and strings
	}
	return append(b, '\n')
}

// WriteFiles writes results.csv and results.json to dir as one pair:
// both are written in full to temporary files in dir and synced, and only
// when both succeeded are they renamed over the old files (JSON first:
// --resume reads it). A write that fails (a full disk, a quota) removes both
// temporary files and leaves the old pair as it was, so the two files never
// hold different rows because of it.
func WriteFiles(dir string, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	jsonPath, csvPath := filepath.Join(dir, JSONFile), filepath.Join(dir, CSVFile)
	jsonTmp, err := writeTemp(jsonPath, EncodeJSON(rows))
	if err != nil {
		return err
	}
	csvTmp, err := writeTemp(csvPath, EncodeCSV(rows))
	if err != nil {
		os.Remove(jsonTmp)
		return err
	}
	if err := os.Rename(jsonTmp, jsonPath); err != nil {
		os.Remove(jsonTmp)
		os.Remove(csvTmp)
		return fmt.Errorf("writing %s: %w", jsonPath, err)
	}
	if err := os.Rename(csvTmp, csvPath); err != nil {
		os.Remove(csvTmp)
		return fmt.Errorf("writing %s: %w", csvPath, err)
	}
	return nil
}

// writeAtomic replaces path by data so that a reader sees the old or the new
// content, never a mix.
func writeAtomic(path string, data []byte) error {
	tmp, err := writeTemp(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// syncFile flushes a temporary file to disk; tests replace it to simulate a
// full disk.
var syncFile = (*os.File).Sync

// writeTemp writes data to a new temporary file beside path, synced and
// readable by all, and returns its name; on failure nothing is left.
func writeTemp(path string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = syncFile(f)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("writing %s: %w", path, werr)
	}
	return tmp, nil
}

// ReadJSON reads dir/results.json; a missing file gives no rows and no error.
func ReadJSON(dir string) ([]Row, error) {
	b, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc jsonDoc
	if err := DecodeStrict(b, &doc); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, JSONFile), err)
	}
	return doc.Rows, nil
}
