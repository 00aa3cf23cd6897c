package trace

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/small.tra.bz2 with the bzip2 command")

// TestFixtureUpToDate keeps testdata/small.tra.bz2 in step with
// fixtureNetrace: with -update it writes the uncompressed bytes through
// the bzip2 command (compress/bzip2 has no writer; a committed fixture
// avoids a dependency that only tests would use), and it always checks
// that the committed file decompresses to them.
func TestFixtureUpToDate(t *testing.T) {
	path := filepath.Join("testdata", "small.tra.bz2")
	if *update {
		cmd := exec.Command("bzip2", "-9", "-c")
		cmd.Stdin = bytesReader(fixtureNetrace())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bzip2: %v", err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := decompress(t, path)
	if string(got) != string(fixtureNetrace()) {
		t.Fatalf("%s is stale: run go test ./traffic/trace -run TestFixtureUpToDate -update", path)
	}
}
