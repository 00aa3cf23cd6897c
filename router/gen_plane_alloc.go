//go:build ignore

// gen_plane_alloc writes plane_alloc_gen.go from the generator in
// router/internal/planegen. Run it with go generate in router/ (the
// directive is in plane_alloc.go); -o names another output.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/flitsim/flitsim/router/internal/planegen"
)

func main() {
	out := flag.String("o", "plane_alloc_gen.go", "output file")
	flag.Parse()
	src, err := planegen.Source()
	if err != nil {
		log.Fatalf("gen_plane_alloc: %v", err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
