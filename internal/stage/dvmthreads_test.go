package stage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// devdvmSysinfo is sysinfo.txt as devdvm's run.sh writes it, cut to the
// lines the check reads, with the run-time's settings given.
func devdvmSysinfo(nproc string, settings ...string) string {
	s := "date: 2026-12-01 23:41:02 UTC\nnproc: " + nproc + "\nmodel name\t: AMD EPYC\n" +
		"DVMH_/I_MPI_PIN/UCX_/MPIR_CVAR_ settings in the environment:\n"
	if len(settings) == 0 {
		return s + "  none\n"
	}
	return s + strings.Join(settings, "\n") + "\n"
}

// threadsRound writes a round folder with that sysinfo.txt (none when
// empty) and a statistics file name for each grid.
func threadsRound(t *testing.T, sysinfo string, grids ...string) realityRound {
	t.Helper()
	dir := t.TempDir()
	if sysinfo != "" {
		if err := os.WriteFile(filepath.Join(dir, "sysinfo.txt"), []byte(sysinfo), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := realityRound{dir: dir, sts: map[string]map[string]string{"sor_e4_N1000_it20": {}}}
	for _, g := range grids {
		r.sts["sor_e4_N1000_it20"][g] = filepath.Join(dir, "sor_e4_N1000_it20."+g+".sts.gz+")
	}
	return r
}

func TestThreadsNote(t *testing.T) {
	unset := devdvmSysinfo("2")
	for _, tc := range []struct {
		name   string
		rounds func(t *testing.T) []realityRound
		want   string // a part of the note; empty: no note
	}{
		{"two cores, unset: the traced run had two threads, each of two processes one", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, unset, "1", "1x2", "2x1")}
		}, "1 of 1 folders"},
		{"the threads and processes named", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, unset, "1", "1x2")}
		}, "on 2 threads in the one-process traced run and on 1 in each process of the 2-process runs"},
		{"the largest run named", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, devdvmSysinfo("8"), "1", "1x2", "2x4")}
		}, "on 8 threads in the one-process traced run and on 1 in each process of the 8-process runs"},
		{"only the folders that differ counted", func(t *testing.T) []realityRound {
			return []realityRound{
				threadsRound(t, devdvmSysinfo("2", "DVMH_NUM_THREADS=1"), "1", "1x2"),
				threadsRound(t, unset, "1", "2x1"),
				threadsRound(t, unset, "1"),
			}
		}, "1 of 3 folders"},
		{"DVMH_NUM_THREADS=1: every process one thread", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, devdvmSysinfo("2", "DVMH_NUM_THREADS=1"), "1", "1x2", "2x1")}
		}, ""},
		{"one core: one thread everywhere", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, devdvmSysinfo("1"), "1", "1x2")}
		}, ""},
		{"one process only", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, unset, "1")}
		}, ""},
		{"a sysinfo.txt that lists no settings says nothing of them", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, "nproc: 2\n", "1", "1x2")}
		}, ""},
		{"no sysinfo.txt", func(t *testing.T) []realityRound {
			return []realityRound{threadsRound(t, "", "1", "1x2")}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := threadsNote(tc.rounds(t))
			if tc.want == "" {
				if got != "" {
					t.Fatalf("note %q, want none", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || !strings.Contains(got, "DVMH_NUM_THREADS=1") {
				t.Fatalf("note %q, want it to say %q and the remedy", got, tc.want)
			}
		})
	}
}

func TestReadHostThreads(t *testing.T) {
	for _, tc := range []struct {
		sysinfo string
		want    hostThreads
	}{
		{devdvmSysinfo("2"), hostThreads{cores: 2, listed: true}},
		{devdvmSysinfo("4", "DVMH_LOGLEVEL=5", "DVMH_NUM_THREADS=3"), hostThreads{cores: 4, threads: 3, listed: true}},
		{"nproc: 16\n", hostThreads{cores: 16}},
		{"uname: Linux\n", hostThreads{}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "sysinfo.txt"), []byte(tc.sysinfo), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readHostThreads(dir); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.sysinfo, got, tc.want)
		}
		if got := RealityCores(dir); got != tc.want.cores {
			t.Errorf("%q: RealityCores %d, want %d", tc.sysinfo, got, tc.want.cores)
		}
	}
}
