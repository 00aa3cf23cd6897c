package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/analytic/errata"
)

// cmdErrata prints the errata register's numbers: for each entry (all, or
// the ids given) the value flitsim computes by default and the value of the
// printed form or other reading, at the points docs/errata.md quotes.
func cmdErrata(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("errata", "[E1 ... E18] [flags]", stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return withCode(exitUsage, err)
	}
	var list []errata.Entry
	for _, id := range fs.Args() {
		e, ok := errata.Find(id)
		if !ok {
			return withCode(exitUsage, fmt.Errorf("errata: unknown id %q (E1 to E18, docs/errata.md)", id))
		}
		list = append(list, e)
	}
	if len(list) == 0 {
		list = errata.Entries()
	}
	for i, e := range list {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := printErratum(stdout, e); err != nil {
			return withCode(exitRuntime, err)
		}
	}
	return nil
}

// printErratum prints one entry: its title line, how the variant is
// obtained, and one row per quantity.
func printErratum(w io.Writer, e errata.Entry) error {
	rows, err := e.Rows()
	if err != nil {
		return fmt.Errorf("%s: %w", e.ID, err)
	}
	fmt.Fprintf(w, "%s  %s: %s  (%s)\n", e.ID, e.Paper, e.Title, e.Anchor())
	fmt.Fprintf(w, "variant: %s\n", e.Variant)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  quantity\tdefault\tvariant")
	for _, r := range rows {
		v := "-"
		if !math.IsNaN(r.Variant) {
			v = fmt.Sprintf("%.10g", r.Variant)
		}
		fmt.Fprintf(tw, "  %s\t%.10g\t%s\n", r.Quantity, r.Default, v)
	}
	return tw.Flush()
}
