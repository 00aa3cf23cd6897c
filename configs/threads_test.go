package configs

import "testing"

// TestRunThreads checks run.threads: a value out of 0..network.MaxThreads
// is refused at its line and key, the modes that do not run on the network
// engine refuse the key, it reaches network.Config.Threads, and it is not
// part of the hash (results do not depend on it).
func TestRunThreads(t *testing.T) {
	checkErrs(t, base+"run:\n  threads: -1\n", []wantErr{{18, "run.threads", "out of range"}})
	checkErrs(t, base+"run:\n  threads: 1000\n", []wantErr{{18, "run.threads", "out of range"}})
	closed := "mode: closed\nnetwork:\n  topology: ring\n  radix: 15\nsweep:\n  unit: population\n  rates: [4]\nrun:\n  threads: 2\n"
	checkErrs(t, closed, []wantErr{{9, "run.threads", ""}})
	one, err := Parse("x.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	two, err := Parse("x.yaml", []byte(base+"run:\n  threads: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if one.Hash() != two.Hash() {
		t.Errorf("run.threads changes the hash: %s, %s", one.Hash(), two.Hash())
	}
	cfg, err := two.NetworkConfig(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Threads != 2 {
		t.Errorf("network.Config.Threads = %d, want 2", cfg.Threads)
	}
}
