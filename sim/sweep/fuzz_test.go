package sweep

import (
	"encoding/json"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// FuzzDecodeResults feeds arbitrary bytes to the results.json decoder that
// --resume reads: it must return rows or an error, never panic, and rows it
// accepts must encode again. Run with: go test -fuzz=FuzzDecodeResults ./sim/sweep
func FuzzDecodeResults(f *testing.F) {
	lat := 12.5
	f.Add(EncodeJSON([]Row{{Config: "a", Source: SourceSim, Rate: 0.1, RateUnit: "flits/node/cycle", Latency: &lat, Status: sim.StatusOK, Replications: 1}}))
	f.Add(EncodeJSON(nil))
	for _, s := range []string{"", "{}", `{"rows": null}`, `{"rows": [{"rate": 1e999}]}`, `{"rows": [{"extra": [{}]}]}`, `{"rows": [], "x": 1}`, "[", `{"rows":[{"latency":"NaN"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var doc jsonDoc
		if err := DecodeStrict(b, &doc); err != nil {
			return
		}
		_ = EncodeJSON(doc.Rows)
		_ = EncodeCSV(doc.Rows)
	})
}

// FuzzDecodeShardFile feeds arbitrary bytes to the shard-file decoder that
// flitsim merge and --resume read: an error or a file, never a panic.
// Run with: go test -fuzz=FuzzDecodeShardFile ./sim/sweep
func FuzzDecodeShardFile(f *testing.F) {
	good := &ShardFile[Outcome]{ShardHeader: ShardHeader{Format: ShardFormat, Kind: "run", Version: "v", Shard: 0, Count: 2,
		Jobs: []Job{{Name: "a", Hash: "h", Seed: 1, RateUnit: "flits/node/cycle", Rates: []float64{0.1}, Replications: 1}}, Units: []int{0}},
		Results: []UnitResult[Outcome]{{Unit: 0, Outcome: Outcome{Status: sim.StatusOK, Latency: 3, Cycles: 10}}}}
	b, _ := json.Marshal(good)
	f.Add(b)
	for _, s := range []string{"", "{}", `{"format":"flitsim-shard/1"}`, `{"format":"flitsim-shard/1","results":[{"outcome":{"latency":"Inf"}}]}`, "null"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sf, err := decodeShardFile[Outcome]("s.json", b)
		if err == nil && sf == nil {
			t.Fatal("nil file without error")
		}
		if err == nil {
			_ = sf.Complete()
			if _, err := json.Marshal(sf); err != nil {
				t.Fatalf("a decoded shard file does not encode again: %v", err)
			}
		}
	})
}
