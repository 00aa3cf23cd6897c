package sweep

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Shard names one part of a sweep split over Count independent processes
// (a Slurm array task, a Kubernetes Indexed Job pod): Index in [0, Count).
type Shard struct {
	Index, Count int
}

// String writes the shard as "i/n", the form --shard reads.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// FileName is the name of the shard's result file in the output directory.
func (s Shard) FileName() string { return fmt.Sprintf("shard-%d-of-%d.json", s.Index, s.Count) }

// ShardGlob matches every shard file name (see [Shard.FileName]).
const ShardGlob = "shard-*-of-*.json"

// Environment variables read by [ParseShard] for "auto".
const (
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"    // this task's array index
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT" // number of tasks in the array
	EnvSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"   // lowest index of the array
	EnvSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"  // index step of the array
	EnvK8sIndex       = "JOB_COMPLETION_INDEX"   // Kubernetes Indexed Job pod index
)

// ParseShard reads a --shard value. "i/n" is shard i of n, numbered from 0
// like Slurm's --array=0-(n-1) and Kubernetes completion indexes. "auto"
// takes them from the environment (getenv, normally os.Getenv):
//
//   - Slurm job array: index = (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP,
//     count = SLURM_ARRAY_TASK_COUNT (min 0 and step 1 when unset), so
//     --array=1-8 and --array=0-14:2 both give indexes 0..n−1. With count
//     > 0 (--shard-count) the task id itself is the index and count the
//     number of shards, so that one task of an --array=0-(n−1) sweep can be
//     submitted again alone (sbatch --array=i) and still be shard i/n;
//   - Kubernetes Indexed Job: index = JOB_COMPLETION_INDEX, and the count,
//     which a pod cannot see, must be given (count, from --shard-count: the
//     Job's completions).
//
// count > 0 is the --shard-count flag; with "i/n" it must equal n. Errors
// name the value and variable at fault.
func ParseShard(spec string, count int, getenv func(string) string) (Shard, error) {
	if count < 0 {
		return Shard{}, fmt.Errorf("--shard-count %d, want >= 1", count)
	}
	if spec != "auto" {
		i, n, ok := strings.Cut(spec, "/")
		if !ok {
			return Shard{}, fmt.Errorf("--shard %q: want i/n (0 <= i < n) or auto", spec)
		}
		idx, err1 := strconv.Atoi(i)
		cnt, err2 := strconv.Atoi(n)
		if err1 != nil || err2 != nil {
			return Shard{}, fmt.Errorf("--shard %q: want i/n with integers i and n", spec)
		}
		if count > 0 && count != cnt {
			return Shard{}, fmt.Errorf("--shard %s disagrees with --shard-count %d", spec, count)
		}
		return checkShard(Shard{idx, cnt}, "--shard "+spec)
	}
	env := func(name string, def int) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return def, false, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, true, fmt.Errorf("--shard auto: %s=%q is not an integer", name, v)
		}
		return n, true, nil
	}
	id, inSlurm, err := env(EnvSlurmTaskID, 0)
	if err != nil {
		return Shard{}, err
	}
	if inSlurm && count > 0 {
		return checkShard(Shard{id, count}, fmt.Sprintf("--shard auto --shard-count %d (%s=%d)", count, EnvSlurmTaskID, id))
	}
	if inSlurm {
		cnt, set, err := env(EnvSlurmTaskCount, 0)
		if err != nil {
			return Shard{}, err
		}
		if !set {
			return Shard{}, fmt.Errorf("--shard auto: %s is set but %s is not (give --shard-count)", EnvSlurmTaskID, EnvSlurmTaskCount)
		}
		lo, _, err := env(EnvSlurmTaskMin, 0)
		if err != nil {
			return Shard{}, err
		}
		step, _, err := env(EnvSlurmTaskStep, 1)
		if err != nil {
			return Shard{}, err
		}
		if step < 1 || id < lo || (id-lo)%step != 0 {
			return Shard{}, fmt.Errorf("--shard auto: %s=%d is not on the array %s=%d, %s=%d", EnvSlurmTaskID, id, EnvSlurmTaskMin, lo, EnvSlurmTaskStep, step)
		}
		return checkShard(Shard{(id - lo) / step, cnt}, fmt.Sprintf("--shard auto (Slurm task %d of %d)", id, cnt))
	}
	idx, inK8s, err := env(EnvK8sIndex, 0)
	if err != nil {
		return Shard{}, err
	}
	if inK8s {
		if count == 0 {
			return Shard{}, fmt.Errorf("--shard auto: %s=%d needs --shard-count (the Job's completions)", EnvK8sIndex, idx)
		}
		return checkShard(Shard{idx, count}, fmt.Sprintf("--shard auto (%s=%d)", EnvK8sIndex, idx))
	}
	return Shard{}, fmt.Errorf("--shard auto: neither %s (Slurm job array) nor %s (Kubernetes Indexed Job) is set", EnvSlurmTaskID, EnvK8sIndex)
}

func checkShard(s Shard, what string) (Shard, error) {
	if s.Count < 1 {
		return Shard{}, fmt.Errorf("%s: shard count %d, want >= 1", what, s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return Shard{}, fmt.Errorf("%s: index %d outside 0..%d (shards are numbered from 0)", what, s.Index, s.Count-1)
	}
	return s, nil
}

// UnitCost returns the estimated cost of one run at point p of job j:
// j.Cost[p], or 1 when j.Cost is nil.
func (j *Job) UnitCost(p int) float64 {
	if j.Cost == nil {
		return 1
	}
	return j.Cost[p]
}

// Plan deals the units of jobs to n shards by longest processing time
// first (LPT): units sorted by decreasing [Job.UnitCost] (ties: lower unit
// index first) are given one by one to the shard with the least total cost
// so far (ties: lower shard index). Graham (1969, "Bounds on multiprocessing
// timing anomalies", Theorem 2) bounds the most loaded shard:
//
//	C_max(LPT) ≤ (4/3 − 1/(3n)) · C_max(optimal)
//
// so shards take similar time as far as the cost estimate is right. The
// plan depends only on the jobs (their rates, replications and costs) and
// n; shard i's units are plan[i], in the order dealt (most costly first),
// which is also the order a shard runs them. Replications of one point may
// land in different shards. Panics if n < 1.
func Plan(jobs []Job, n int) [][]Unit {
	if n < 1 {
		panic("sweep: Plan with fewer than 1 shard")
	}
	us := Units(jobs)
	cost := func(u Unit) float64 { return jobs[u.Job].UnitCost(u.Point) }
	slices.SortStableFunc(us, func(a, b Unit) int { return cmp.Compare(cost(b), cost(a)) })
	plan := make([][]Unit, n)
	load := make([]float64, n)
	for _, u := range us {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		plan[best] = append(plan[best], u)
		load[best] += cost(u)
	}
	return plan
}

// PlanCost returns the estimated total cost of each shard of plan.
func PlanCost(jobs []Job, plan [][]Unit) []float64 {
	c := make([]float64, len(plan))
	for s, us := range plan {
		for _, u := range us {
			c[s] += jobs[u.Job].UnitCost(u.Point)
		}
	}
	return c
}

// checkJobs refuses jobs that have no units or a Cost of the wrong length.
func checkJobs(jobs []Job) error {
	for i, j := range jobs {
		if j.Replications < 1 || len(j.Rates) == 0 {
			return fmt.Errorf("sweep: job %d (%s) has %d rates and %d replications", i, j.Name, len(j.Rates), j.Replications)
		}
		if j.Cost != nil && len(j.Cost) != len(j.Rates) {
			return fmt.Errorf("sweep: job %d (%s) has %d costs for %d rates", i, j.Name, len(j.Cost), len(j.Rates))
		}
		for p, c := range j.Cost {
			if !(c > 0) || c > 1e300 {
				return fmt.Errorf("sweep: job %d (%s) point %d has cost %g, want a positive finite number", i, j.Name, p, c)
			}
		}
	}
	return nil
}
