package sweep

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ShardSet is a checked, complete set of shard files of one run: every
// shard 0..Count−1 present once, all written by the same command and
// version for the same jobs, each holding exactly the units [Plan] deals
// it, every unit finished.
type ShardSet[O any] struct {
	Kind, Version string
	Count         int
	Jobs          []Job
	// Files are the shard files by shard index.
	Files []string
	// Outcomes holds every unit's outcome by unit index ([Units] order:
	// jobs, then points, then replications).
	Outcomes []O
}

// ShardSetError lists everything wrong with a set of shard files, each
// problem naming the file(s) or the shard at fault.
type ShardSetError struct {
	Problems []string
}

// Error writes the problems one per line.
func (e *ShardSetError) Error() string {
	return fmt.Sprintf("%d problem(s) with the shard files; nothing was written:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// ShardFiles returns the shard files in dirs (each a directory, searched
// for [ShardGlob], or a shard file itself), sorted and without repeats of
// the same file. A dir that does not exist or holds no shard file is an
// error naming it.
func ShardFiles(dirs ...string) ([]string, error) {
	seen := map[string]bool{}
	var paths []string
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		found := []string{d}
		if st.IsDir() {
			found, _ = filepath.Glob(filepath.Join(d, ShardGlob)) // the pattern is valid
			if len(found) == 0 {
				return nil, fmt.Errorf("%s: no shard files (%s)", d, ShardGlob)
			}
		}
		for _, p := range found {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			if !seen[abs] {
				seen[abs] = true
				paths = append(paths, p)
			}
		}
	}
	slices.Sort(paths)
	return paths, nil
}

// ShardKind returns the kind ("run", "validate") of the first shard file
// in dirs, so a command can choose the outcome type to merge with
// [ReadShards]; a shard of another kind in the set is then reported there.
func ShardKind(dirs ...string) (string, error) {
	paths, err := ShardFiles(dirs...)
	if err != nil {
		return "", err
	}
	f, err := readShardFile[json.RawMessage](paths[0])
	if err != nil {
		return "", err
	}
	return f.Kind, nil
}

// ReadShards reads the shard files in dirs (see [ShardFiles]) and checks
// that they form one complete run of the given kind ("" accepts whichever
// kind the files agree on). The run the set belongs to is the header
// (kind, version, shard count, jobs) held by most files (ties: the one
// first in path order); every problem is collected into one
// *ShardSetError, naming files:
//
//   - a file that cannot be read, or is of another format;
//   - a file of another run: other kind, version, shard count, configs,
//     config hash, seed, rates, replications or costs;
//   - a shard index outside 0..n−1, or claimed by two files (duplicate);
//   - a shard of 0..n−1 with no file (missing);
//   - a shard whose units are not those the plan deals it, or with a
//     result that is not one of its units, or not finished (incomplete:
//     rerun it alone with --resume).
//
// On success the outcomes are returned by unit index; nothing is written.
func ReadShards[O any](kind string, dirs ...string) (*ShardSet[O], error) {
	paths, err := ShardFiles(dirs...)
	if err != nil {
		return nil, err
	}
	var problems []string
	type entry struct {
		path string
		f    *ShardFile[O]
	}
	var files []entry
	for _, p := range paths {
		f, err := readShardFile[O](p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		files = append(files, entry{p, f})
	}
	if len(files) == 0 {
		return nil, &ShardSetError{problems}
	}
	// The reference run: the header most files agree with.
	ref, refVotes := 0, 0
	for i := range files {
		votes := 0
		for j := range files {
			if sameRun(&files[j].f.ShardHeader, &files[i].f.ShardHeader) {
				votes++
			}
		}
		if votes > refVotes {
			ref, refVotes = i, votes
		}
	}
	rh := files[ref].f.ShardHeader
	if kind != "" && rh.Kind != kind {
		problems = append(problems, fmt.Sprintf("%s: written by flitsim %s, not %s", files[ref].path, rh.Kind, kind))
		return nil, &ShardSetError{problems}
	}
	all := Units(rh.Jobs)
	if err := checkJobs(rh.Jobs); err != nil || rh.Count < 1 {
		problems = append(problems, fmt.Sprintf("%s: invalid header (%d shards): %v", files[ref].path, rh.Count, err))
		return nil, &ShardSetError{problems}
	}
	plan := Plan(rh.Jobs, rh.Count)
	byShard := make([][]entry, rh.Count)
	for _, e := range files {
		h := &e.f.ShardHeader
		if !sameRun(h, &rh) {
			problems = append(problems, fmt.Sprintf("%s (shard %d/%d): from another run: %s (%s and %d other file(s) agree)",
				e.path, h.Shard, h.Count, headerDiff(h, &rh), files[ref].path, refVotes-1))
			continue
		}
		if h.Shard < 0 || h.Shard >= rh.Count {
			problems = append(problems, fmt.Sprintf("%s: shard index %d outside 0..%d", e.path, h.Shard, rh.Count-1))
			continue
		}
		byShard[h.Shard] = append(byShard[h.Shard], e)
	}
	set := &ShardSet[O]{Kind: rh.Kind, Version: rh.Version, Count: rh.Count, Jobs: rh.Jobs,
		Files: make([]string, rh.Count), Outcomes: make([]O, len(all))}
	for s, es := range byShard {
		sh := Shard{s, rh.Count}
		want := make([]int, len(plan[s]))
		for i, u := range plan[s] {
			want[i] = u.Index
		}
		slices.Sort(want)
		switch len(es) {
		case 0:
			problems = append(problems, fmt.Sprintf("shard %s is missing (no %s; it holds %d units): run it with --shard %s", sh, sh.FileName(), len(want), sh))
			continue
		case 1:
		default:
			var ps []string
			for _, e := range es {
				ps = append(ps, e.path)
			}
			problems = append(problems, fmt.Sprintf("shard %s is duplicated: %s", sh, strings.Join(ps, " and ")))
			continue
		}
		e := es[0]
		set.Files[s] = e.path
		if !slices.Equal(e.f.Units, want) {
			problems = append(problems, fmt.Sprintf("%s (shard %s): holds units other than the plan deals it", e.path, sh))
			continue
		}
		mine := map[int]bool{}
		for _, i := range want {
			mine[i] = true
		}
		bad := false
		for _, r := range e.f.Results {
			if !mine[r.Unit] || !resultMatches(r, all[r.Unit]) {
				problems = append(problems, fmt.Sprintf("%s (shard %s): result for unit %d is not one of its units", e.path, sh, r.Unit))
				bad = true
				break
			}
			delete(mine, r.Unit) // a second result for the unit is then "not one of its units"
			set.Outcomes[r.Unit] = r.Outcome
		}
		if !bad && len(mine) > 0 {
			problems = append(problems, fmt.Sprintf("%s (shard %s): incomplete, %d of %d units finished: rerun it alone with --shard %s --resume",
				e.path, sh, len(want)-len(mine), len(want), sh))
		}
	}
	if len(problems) > 0 {
		return nil, &ShardSetError{problems}
	}
	return set, nil
}

// sameRun reports whether two headers belong to the same run (their shard
// index and units aside).
func sameRun(a, b *ShardHeader) bool {
	x, y := *a, *b
	x.Shard, x.Units, y.Shard, y.Units = 0, nil, 0, nil
	return headerDiff(&x, &y) == ""
}

// MergeRows combines a complete shard set of flitsim run into its result
// rows, point by point with [Combine] over the replications in replication
// order, exactly as [Run] does: the rows, and so the files [WriteFiles]
// makes of them, are byte-identical to an unsharded run of the same jobs
// and version.
func MergeRows(set *ShardSet[Outcome]) []Row {
	var rows []Row
	i := 0
	for _, job := range set.Jobs {
		for p := range job.Rates {
			rows = append(rows, Combine(job, p, set.Outcomes[i:i+job.Replications], set.Version))
			i += job.Replications
		}
	}
	return rows
}
