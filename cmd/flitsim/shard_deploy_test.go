package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDeploySlurmScript runs deploy/slurm/flitsim-array.sbatch as the
// shell would under Slurm (array task 1 of 0-2) with FLITSIM=echo, and runs
// the flitsim command line it produces: the flags it passes must be ones
// flitsim run takes, and the shard must come out as 1/3, or as 1/3 again
// when the task is resubmitted alone with FLITSIM_SHARDS.
func TestDeploySlurmScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "good", goodConfig)
	out := filepath.Join(dir, "out")
	for _, env := range [][]string{
		{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=0", "SLURM_CPUS_PER_TASK=2"},
		{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=1", "SLURM_ARRAY_TASK_MIN=1", "FLITSIM_SHARDS=3"},
	} {
		c := exec.Command(bash, "../../deploy/slurm/flitsim-array.sbatch", out, cfg)
		c.Env = append(os.Environ(), append(env, "FLITSIM=echo")...)
		var o bytes.Buffer
		c.Stdout, c.Stderr = &o, &o
		if err := c.Run(); err != nil {
			t.Fatalf("sbatch script: %v: %s", err, o.String())
		}
		args := strings.Fields(o.String())
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		code, stdout, stderr := runMain(t, args...)
		if code != 0 || !strings.Contains(stdout, "shard 1/3: ") {
			t.Errorf("flitsim %v (env %v): exit %d: %s%s", args, env, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "shard-1-of-3.json")); err != nil {
		t.Errorf("no shard file: %v", err)
	}
}

// TestDeployK8sManifest checks the Indexed Job manifest: Indexed completion
// mode, --shard-count equal to completions, and a flitsim command line that
// flitsim run accepts (it fails only on the config glob, which exists only
// in the pod: exit 3, not a usage error).
func TestDeployK8sManifest(t *testing.T) {
	b, err := os.ReadFile("../../deploy/k8s/flitsim-indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var job struct {
		Kind string
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int
			Parallelism    int
			Template       struct {
				Spec struct {
					Containers []struct {
						Command, Args []string
					}
				}
			}
		}
	}
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("no Job in the manifest: %v", err)
		}
		if doc["kind"] == "Job" {
			raw, _ := yaml.Marshal(doc)
			if err := yaml.Unmarshal(raw, &job); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if job.Spec.CompletionMode != "Indexed" || job.Spec.Completions < 1 || len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("job spec: %+v", job.Spec)
	}
	c := job.Spec.Template.Spec.Containers[0]
	line := strings.Join(c.Args, " ")
	args := strings.Fields(strings.TrimPrefix(line, "exec flitsim "))
	want := "--shard-count " + strconv.Itoa(job.Spec.Completions)
	if !strings.Contains(line, want) || !strings.Contains(line, "--shard auto") || !strings.Contains(line, "--resume") {
		t.Errorf("container command %q lacks %q, --shard auto or --resume", line, want)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	code, _, stderr := runMain(t, args...)
	if code != exitConfig || !strings.Contains(stderr, "/configs/*.yaml") {
		t.Errorf("flitsim %v: exit %d, want 3 (no /configs here): %s", args, code, stderr)
	}
}
