package validation

import (
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"strings"
)

// JUnit XML (the format CI systems read test results in: GitHub Actions
// reporters, GitLab's artifacts:reports:junit, Jenkins). One <testsuite>
// per experiment, one <testcase> per comparison (config × model curve),
// named by the model, class name the config:
//
//	not Comparison.Failed (pass, info, an expected no-data)
//	                      a passing test case; <system-out> gives the
//	                      verdict, its reason and the point table
//	Comparison.Failed     a <failure> whose message is the verdict's reason
//	                      (errors and tolerances) and whose text is the
//	                      point-by-point table
//	an experiment error   a test case "evaluation" with an <error>
//	a regression          a test case "baseline: MODEL" with a <failure>
//
// Times are 0: the file depends only on the report, so it is
// byte-identical for identical results.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// JUnit renders the report as JUnit XML.
func JUnit(r Report) []byte {
	doc := junitSuites{Name: "flitsim validate"}
	for _, cr := range r.Configs {
		s := junitSuite{Name: cr.Setup.Name, Time: "0"}
		for _, e := range cr.Errors {
			s.Cases = append(s.Cases, junitCase{Name: "evaluation", Classname: cr.Setup.Name, Time: "0",
				Error: &junitProblem{Message: firstLine(e), Type: "error", Text: e}})
			s.Errors++
		}
		for _, c := range cr.Comparisons {
			jc := junitCase{Name: strings.TrimPrefix(BaselineKey(c), cr.Setup.Name+"/"), Classname: cr.Setup.Name, Time: "0"}
			table := comparisonText(c)
			switch {
			case c.Failed(): // a judged failure, or a judged comparison without data not declared expected
				msg := c.Reason
				if msg == "" {
					msg = c.Verdict + verdictDetail(c)
				}
				jc.Failure = &junitProblem{Message: msg, Type: c.Verdict, Text: table}
				s.Failures++
			case c.Reason != "":
				jc.SystemOut = &junitText{"verdict " + c.Verdict + ": " + c.Reason + "\n" + table}
			default:
				jc.SystemOut = &junitText{"verdict " + c.Verdict + "\n" + table}
			}
			s.Cases = append(s.Cases, jc)
		}
		for _, reg := range r.Regressions {
			if !strings.HasPrefix(reg.Key, cr.Setup.Name+"/") {
				continue
			}
			s.Cases = append(s.Cases, junitCase{Name: "baseline: " + strings.TrimPrefix(reg.Key, cr.Setup.Name+"/"), Classname: cr.Setup.Name, Time: "0",
				Failure: &junitProblem{Message: reg.String(), Type: "regression", Text: reg.String()}})
			s.Failures++
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Suites = append(doc.Suites, s)
	}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("validation: JUnit: " + err.Error()) // plain strings and ints only
	}
	return append(append([]byte(xml.Header), b...), '\n')
}

// WriteJUnit writes the report as JUnit XML to path.
func WriteJUnit(path string, r Report) error {
	return os.WriteFile(path, JUnit(r), 0o644)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// verdictDetail summarises the errors against the tolerances.
func verdictDetail(c Comparison) string {
	if c.Eligible == 0 {
		return ": no point could be judged"
	}
	t := c.Tolerance
	return fmt.Sprintf(": %d points judged, mean error %s (beyond the CI %s, tolerance %s), max error %s (beyond the CI %s, tolerance %s)",
		c.Eligible, pct(c.MeanErr), pct(c.MeanExcess), pct(t.Mean), pct(c.MaxErr), pct(c.MaxExcess), pct(t.Max))
}

// comparisonText is the point-by-point table of a comparison.
func comparisonText(c Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s against simulated %s (%s)%s\n", c.Model, c.Sim, c.Bound, verdictDetail(c))
	fmt.Fprintf(&b, "%10s %12s %10s %12s %9s %9s  %s\n", "load", "sim", "±ci95", "model", "err", "excess", "judged")
	g := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "-"
		}
		return fmt.Sprintf("%.4g", v)
	}
	for _, p := range c.Points {
		why := "yes"
		if !p.Eligible {
			why = "no: " + p.Why
		}
		fmt.Fprintf(&b, "%10g %12s %10s %12s %9s %9s  %s\n", p.Rate, g(p.Sim), g(p.HalfWidth), g(p.Model), pct(p.Err), pct(p.Excess), why)
	}
	return b.String()
}
