package configs

import (
	"reflect"
	"strings"
	"testing"
)

// goFieldNames returns every field name of struct type t and of the
// structs it holds, and the dotted paths of its leaf fields.
func goFieldNames(t reflect.Type, prefix string, names map[string]bool, leaves *[]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		names[f.Name] = true
		if f.Type.Kind() == reflect.Struct {
			goFieldNames(f.Type, prefix+f.Name+".", names, leaves)
			continue
		}
		*leaves = append(*leaves, prefix+f.Name)
	}
}

// notFromFile lists engine fields no key fills (the engine derives them).
var notFromFile = map[string]bool{
	"closed:Pattern.Seed":  true, // the pattern's stream comes from the run's seed
	"closed:Pattern.Table": true, // a precomputed table, built by the engine
	"network:Unit":         true, // the time step's name in reasons: "cycle", the network's own
	"network:TimeScale":    true, // time per step: 1 cycle
}

// leakedNames returns the words of msg that are Go field names of the
// engine's Config.
func leakedNames(msg string, names map[string]bool) []string {
	var out []string
	for _, id := range goIdent.FindAllString(msg, -1) {
		for _, part := range strings.Split(id, ".") {
			if names[part] {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// TestEngineKeysCoverEveryField: every field of each mode's engine Config
// is linked to the key it comes from, so an engine's refusal that names
// the field by its Go path names the file's key instead (a field added to
// an engine's Config without its link fails here).
func TestEngineKeysCoverEveryField(t *testing.T) {
	e, err := Parse("x.yaml", []byte("mode: closed\nnetwork:\n  topology: ring\n  radix: 15\nsweep:\n  unit: population\n  rates: [4]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range modeTable {
		cfg, links := row.links(e)
		keys := engineKeys(e, cfg, links)
		names := map[string]bool{}
		var leaves []string
		goFieldNames(reflect.TypeOf(cfg).Elem(), "", names, &leaves)
		for _, path := range leaves {
			if notFromFile[row.name+":"+path] {
				continue
			}
			msg, first := inKeys(path+" = 1 is out of range", keys, row.keysIn)
			if leak := leakedNames(msg, names); len(leak) > 0 || first == "" {
				t.Errorf("mode %s: engine field %s is reported as %q (Go names %v): link it to its key", row.name, path, msg, leak)
			}
		}
	}
}

// TestEngineRefusalsNameKeys: what the engines refuse at load time is
// reported with the file's keys, never the engines' Go field names.
func TestEngineRefusalsNameKeys(t *testing.T) {
	closedBase := "mode: closed\nnetwork:\n  topology: ring\n  radix: 15\nsweep:\n  unit: population\n  rates: [4]\n"
	deltaBase := "mode: delta\nsweep:\n  unit: rho\n  rates: [0.5]\n"
	slottedBase := "mode: slotted\nslotted:\n  dimensions: 4\nsweep:\n  unit: packets/node/slot\n  rates: [0.2]\n"
	for _, c := range []struct{ mode, yaml, key string }{
		{"closed", closedBase + "run:\n  min_batches: 1\n", "run"},
		{"closed", closedBase + "run:\n  max_warmup: 5\n  max_time: 10\n  min_measure: 8\n", "run"},
		{"delta", deltaBase + "run:\n  warmup: 100\n  max_time: 100\n", "run"},
		{"slotted", slottedBase + "run:\n  max_cycles: 2000\n", "run"},
		{"network", base + "run:\n  max_cycles: 40000\n", "run"},
	} {
		row, _ := lookupMode(c.mode)
		cfg, _ := row.links(&Experiment{Mode: c.mode})
		names := map[string]bool{}
		var leaves []string
		goFieldNames(reflect.TypeOf(cfg).Elem(), "", names, &leaves)
		_, err := Parse("x.yaml", []byte(c.yaml))
		if err == nil {
			t.Errorf("%s: %q loaded, want an engine refusal", c.mode, c.yaml)
			continue
		}
		refused := false
		for _, p := range err.(Errors) {
			if !strings.Contains(p.Msg, "engine refuses") {
				continue
			}
			refused = true
			if p.Key != c.key {
				t.Errorf("%s: refusal at key %q, want %q: %s", c.mode, p.Key, c.key, p.Msg)
			}
			if leak := leakedNames(p.Msg, names); len(leak) > 0 {
				t.Errorf("%s: refusal names Go fields %v, not the file's keys: %s", c.mode, leak, p.Msg)
			}
		}
		if !refused {
			t.Errorf("%s: no engine refusal in %v", c.mode, err)
		}
	}
}
