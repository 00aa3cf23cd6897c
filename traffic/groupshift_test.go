package traffic

import (
	"errors"
	"testing"
)

// groupedLine is a line of n nodes in blocks of b.
type groupedLine struct{ n, b int }

func (g groupedLine) Nodes() int            { return g.n }
func (g groupedLine) Distance(a, b int) int { return max(a-b, b-a) }
func (g groupedLine) Radix() int            { return g.n }
func (g groupedLine) Dims() int             { return 1 }
func (g groupedLine) GroupSize() int        { return g.b }

// TestGroupShift: every node sends to the node b places on, wrapping, and
// Probabilities agrees with Dest; spaces without groups are refused.
func TestGroupShift(t *testing.T) {
	p, err := NewPattern(PatternSpec{Name: GroupShift}, groupedLine{n: 12, b: 4})
	if err != nil {
		t.Fatal(err)
	}
	pr := make([]float64, 12)
	for src, want := range []int{4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3} {
		if d := p.Dest(src, nil); d != want {
			t.Errorf("Dest(%d) = %d, want %d", src, d, want)
		}
		p.Probabilities(src, pr)
		if pr[want] != 1 {
			t.Errorf("Probabilities(%d) = %v", src, pr)
		}
	}
	for _, sp := range []Space{groupedLine{n: 12, b: 12}, groupedLine{n: 12, b: 5}, line{n: 12}} {
		if _, err := NewPattern(PatternSpec{Name: GroupShift}, sp); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: error %v, want ErrInvalid", sp, err)
		}
	}
}

type line struct{ n int }

func (l line) Nodes() int            { return l.n }
func (l line) Distance(a, b int) int { return max(a-b, b-a) }
func (l line) Radix() int            { return l.n }
func (l line) Dims() int             { return 1 }
