package stage

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// hostThreads is what a round's sysinfo.txt says of the host its runs ran
// on: its cores and the DVMH_NUM_THREADS the runs were given.
type hostThreads struct {
	cores   int // "nproc: N"; 0 when the file does not say
	threads int // DVMH_NUM_THREADS; 0 when unset
	// listed: the file lists the DVM run-time's settings in the
	// environment (devdvm's "... settings in the environment:"), so a
	// setting it does not list was unset.
	listed bool
}

// readHostThreads reads a round's sysinfo.txt; a folder without one says
// nothing (the zero value).
func readHostThreads(dir string) hostThreads {
	var h hostThreads
	b, err := os.ReadFile(filepath.Join(dir, "sysinfo.txt"))
	if err != nil {
		return h
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "nproc:"); ok {
			h.cores, _ = strconv.Atoi(strings.TrimSpace(v))
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "DVMH_NUM_THREADS="); ok {
			h.threads, _ = strconv.Atoi(strings.TrimSpace(v))
		}
		if strings.HasSuffix(line, "settings in the environment:") {
			h.listed = true
		}
	}
	return h
}

// regionThreads is how many threads the DVMH run-time gives a REGION's
// parallel loop in each of procs processes on one node of the host:
// DVMH_NUM_THREADS, else the cores the run-time binds the process to, its
// share of the node's.
func (h hostThreads) regionThreads(procs int) int {
	if h.threads > 0 {
		return h.threads
	}
	return max(1, h.cores/max(procs, 1))
}

// threadsNote says when the rounds' runs of several processes had fewer
// threads a process than their one-process trace: the DVMH run-time runs a
// REGION's parallel loop on every core its process is given, so on a host
// of several cores, without DVMH_NUM_THREADS, the traced run computes such
// a loop on all of them where each process of a run of several has its
// share. The trace's calls name no region and no thread, so the model
// charges each process its part of the traced time (docs/compare.md,
// "Where the time goes", item 6). Empty when every round's runs match, or
// no sysinfo.txt lists the run-time's settings.
func threadsNote(rounds []realityRound) string {
	var odd []string
	var traced, each, procs int
	for _, r := range rounds {
		h := readHostThreads(r.dir)
		if !h.listed {
			continue
		}
		mismatched := false
		for _, p := range r.processCounts() {
			if h.regionThreads(p) == h.regionThreads(1) {
				continue
			}
			mismatched = true
			if p > procs {
				traced, each, procs = h.regionThreads(1), h.regionThreads(p), p
			}
		}
		if mismatched {
			odd = append(odd, r.dir)
		}
	}
	if len(odd) == 0 {
		return ""
	}
	return fmt.Sprintf("threads: %d of %d folders (%s first) ran without DVMH_NUM_THREADS on a host of several cores: a REGION's parallel loops ran on %d threads in the one-process traced run and on %d in each process of the %d-process runs, which the trace does not show and the model does not price; run with DVMH_NUM_THREADS=1 (docs/compare.md, \"Where the time goes\", item 6)",
		len(odd), len(rounds), odd[0], traced, each, procs)
}

// processCounts are the process counts of the round's measured grids.
func (r realityRound) processCounts() []int {
	var counts []int
	for _, grids := range r.sts {
		for g := range grids {
			dims, err := result.ParseGrid(g)
			if err != nil {
				continue
			}
			counts = append(counts, result.Config{Grid: dims}.Procs())
		}
	}
	return counts
}
