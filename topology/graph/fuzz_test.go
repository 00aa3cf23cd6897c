package graph

import (
	"bytes"
	"testing"
)

// FuzzParse feeds arbitrary text to the graph-file parser: a network or an
// error naming file:line, never a panic. Run with:
// go test -fuzz=FuzzParse ./topology/graph
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"router a\nrouter b\nlink a b\nterminal a\nterminal b\n",
		"router a\nrouter b\nchannel a b 3\nchannel b a\nterminal a\nterminal b\n",
		"", "router\n", "link a b\n", "router a\nrouter a\n", "router a\nterminal a 0\n", "# c\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := Parse(bytes.NewReader(b), "g.txt")
		if err == nil && n == nil {
			t.Fatal("nil network without error")
		}
		if err != nil && !bytes.HasPrefix([]byte(err.Error()), []byte("g.txt")) {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
