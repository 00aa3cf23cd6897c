package graph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/emirpasic/gods/v2/maps/treemap"
)

// ReadFile reads a network from a graph file (see Parse).
func ReadFile(path string) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a network in the graph file format, naming file in its
// errors. One directive per line; '#' starts a comment; fields are
// separated by blanks:
//
//	router NAME...               declare routers (ids in order of declaration)
//	link A B [LATENCY]           a two-way link: a channel A->B and one B->A
//	channel A B [LATENCY]        a one-way channel A->B
//	terminal A [COUNT]           attach COUNT terminals (default 1) to router A
//
// LATENCY is in cycles (default 1). A router's ports are numbered in the
// order its terminals, links and channels appear (a link or channel takes
// one port at each end; a one-way channel and its return channel, if
// declared separately, take a port each). Terminals are numbered in order
// of appearance. Every error names file:line; a network that is not
// strongly connected is refused naming two routers without a path and the
// line each was declared on.
func Parse(r io.Reader, file string) (*Network, error) {
	type decl struct {
		id   int
		line int
	}
	names := treemap.New[string, decl]()
	var order []string
	type item struct {
		kind      string // "link", "channel", "terminal"
		a, b      int
		lat, line int
	}
	var items []item
	var errs []error
	bad := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
	}
	lookup := func(line int, name string) (int, bool) {
		d, ok := names.Get(name)
		if !ok {
			bad(line, "unknown router %q (declare it with: router %s)", name, name)
		}
		return d.id, ok
	}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "router":
			if len(f) < 2 {
				bad(line, "router needs at least one name")
			}
			for _, name := range f[1:] {
				if d, dup := names.Get(name); dup {
					bad(line, "router %q declared twice (first on line %d)", name, d.line)
					continue
				}
				names.Put(name, decl{id: len(order), line: line})
				order = append(order, name)
			}
		case "link", "channel":
			if len(f) < 3 || len(f) > 4 {
				bad(line, "want: %s A B [LATENCY]", f[0])
				continue
			}
			a, ok1 := lookup(line, f[1])
			b, ok2 := lookup(line, f[2])
			lat := 1
			if len(f) == 4 {
				v, err := strconv.Atoi(f[3])
				if err != nil || v < 1 || v > 1<<20 {
					bad(line, "latency %q: want an integer number of cycles >= 1", f[3])
					continue
				}
				lat = v
			}
			if ok1 && ok2 && a == b {
				bad(line, "%s from router %q to itself", f[0], f[1])
				continue
			}
			if ok1 && ok2 {
				items = append(items, item{kind: f[0], a: a, b: b, lat: lat, line: line})
			}
		case "terminal", "terminals":
			if len(f) < 2 || len(f) > 3 {
				bad(line, "want: terminal A [COUNT]")
				continue
			}
			a, ok := lookup(line, f[1])
			count := 1
			if len(f) == 3 {
				v, err := strconv.Atoi(f[2])
				if err != nil || v < 1 || v > MaxPorts {
					bad(line, "terminal count %q: want an integer in 1..%d", f[2], MaxPorts)
					continue
				}
				count = v
			}
			for range count {
				if ok {
					items = append(items, item{kind: "terminal", a: a, line: line})
				}
			}
		default:
			bad(line, "unknown directive %q (want router, link, channel or terminal)", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no routers declared", file)
	}
	if len(order) > MaxRouters {
		return nil, fmt.Errorf("%s: %d routers, at most %d", file, len(order), MaxRouters)
	}
	// ports in order of appearance
	used := make([]int, len(order))
	take := func(r, line int) int {
		p := used[r]
		used[r]++
		if p == MaxPorts {
			bad(line, "router %q has more than %d ports", order[r], MaxPorts)
		}
		return p
	}
	type placed struct {
		it   item
		p, q int
	}
	var ps []placed
	for _, it := range items {
		pl := placed{it: it, p: take(it.a, it.line)}
		if it.kind != "terminal" {
			pl.q = take(it.b, it.line)
		}
		ps = append(ps, pl)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	maxPorts := 1
	for _, u := range used {
		maxPorts = max(maxPorts, u)
	}
	b, err := newBuilder("graph", "graph "+file, len(order), maxPorts)
	if err != nil {
		return nil, err
	}
	for _, pl := range ps {
		switch pl.it.kind {
		case "terminal":
			b.terminal(pl.it.a, pl.p)
		case "link":
			b.link(pl.it.a, pl.p, pl.it.b, pl.q, pl.it.lat)
		default:
			b.channel(pl.it.a, pl.p, pl.it.b, pl.q, pl.it.lat)
		}
	}
	b.n.names = order
	n, err := b.finish()
	var de *DisconnectedError
	if errors.As(err, &de) {
		df, _ := names.Get(order[de.From])
		dt, _ := names.Get(order[de.To])
		return nil, fmt.Errorf("%s:%d: the network is not connected: no path from router %q to router %q (declared on line %d)",
			file, df.line, order[de.From], order[de.To], dt.line)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return n, nil
}
