package textreport

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

const rule = "-------------------------------------------------------------------------\n"

// row is a general characteristic of the comparative and per-processor
// sections, in the analyzer's order.
type row struct {
	name string
	c    result.Char
}

var rows = []row{
	{"Lost time", result.LostTime},
	{"User insufficient par.", result.InsuffParallelismUsr},
	{"Sys.insufficient par.", result.InsuffParallelismSys},
	{"Idle time", result.Idle},
	{"Communication", result.Communication},
	{"Real synchronization", result.CommunicationSynch},
	{"Synchronization", result.Synchronization},
	{"Variation", result.TimeVariation},
	{"Overlap", result.Overlap},
	{"Load imbalance", result.LoadImbalance},
	{"Execution time", result.ExecutionTime},
	{"User CPU time", result.ProductiveCPUTime},
	{"Sys. CPU time", result.ProductiveSYSTime},
	{"I/O time", result.IOTime},
	{"Start operation", result.Starts},
	{"Threads user time", result.ThreadsUserTime},
	{"Threads system time", result.ThreadsSystemTime},
	{"Productive time GPU", result.GPUProductiveTime},
	{"Lost time GPU", result.GPULostTime},
	{"Processors", result.Processors},
}

// kind is a column of the collective-operation tables; a column is shown
// when the interval's general characteristic total is positive.
type kind struct {
	short, long string // table header, per-processor title
	col         int
	total       result.Char
}

var kinds = []kind{
	{"Communic", "Communication", result.OpComm, result.Communication},
	{"Real_sync", "Real synchronization", result.OpRealSynch, result.CommunicationSynch},
	{"Synchro", "Synchronization", result.OpSynch, result.Synchronization},
	{"Variation", "Variation", result.OpVary, result.TimeVariation},
	{"Overlap", "Overlap", result.OpOverlap, result.Overlap},
}

var opNames = [result.NumOpClasses]string{"I/O", "Reduction", "Shadow", "Remote access", "Redistribution"}

// text is the state of one text report.
type text struct {
	w      *bufio.Writer
	rep    *Input
	d      int          // value width, fixed at the first printed interval
	show   map[int]bool // 1-based processors of the per-processor tables; nil = all
	cpu    bool
	procs  bool
	matrix int // -1 none, 0 rows, 1 columns
}

func writeText(w io.Writer, rep *Input, opt Options) error {
	show, err := ParseProcs(opt.Procs, len(rep.Procs))
	if err != nil {
		return err
	}
	verb := opt.Verbosity
	if verb == "" {
		verb = "cpu,gpu"
	}
	if verb != "none" && verb != "cpu" && verb != "gpu" && verb != "cpu,gpu" && verb != "gpu,cpu" {
		return fmt.Errorf("verbosity %q: expected cpu, gpu, cpu,gpu or none", opt.Verbosity)
	}
	t := &text{w: bufio.NewWriter(w), rep: rep, show: show, cpu: strings.Contains(verb, "cpu")}
	t.procs = show == nil || len(show) > 0
	switch opt.Matrix {
	case "":
		t.matrix = -1
	case "i":
		t.matrix = 0
	case "j":
		t.matrix = 1
	default:
		return fmt.Errorf("matrix option %q: expected i or j", opt.Matrix)
	}
	t.header()
	for _, iv := range rep.Run.Intervals {
		if opt.LimitLevel && iv.Level > opt.MaxLevel {
			continue
		}
		if t.d == 0 {
			t.d = width(iv)
		}
		t.interval(iv)
	}
	t.trailer()
	return t.w.Flush()
}

// width is the value width D: that of the interval's largest
// per-operation total printed with %10.4f.
func width(iv *result.Interval) int {
	m := 0.0
	for c := result.OpIO; c < result.NumOpClasses; c++ {
		for _, k := range kinds {
			m = max(m, iv.Values[result.OpChar(c, k.col)])
		}
	}
	return len(fmt.Sprintf("%10.4f", m))
}

func (t *text) printf(format string, args ...any) { fmt.Fprintf(t.w, format, args...) }

func (t *text) header() {
	t.printf("Processor system=%s\n", t.rep.Grid)
	t.printf("Statistics has been accumulated on DVM-system version %s, platform %s\n", t.rep.Version, t.rep.Platform)
	t.printf("Analyzer is executing on Presage (PPPA re-implementation), platform %s/%s\n", runtime.GOOS, runtime.GOARCH)
	for _, w := range t.rep.Warnings {
		t.printf("!! %s\n", w)
	}
}

// typeName is the interval type as the report prints it.
func typeName(iv *result.Interval) string {
	if iv.Level == 0 {
		return ""
	}
	return strings.ToUpper(string(iv.Type))
}

func (t *text) interval(iv *result.Interval) {
	t.printf("%s", rule)
	src := ""
	if iv.File != "" {
		src = " SOURCE=" + iv.File
	}
	t.printf("INTERVAL ( NLINE=%d%s ) LEVEL=%d %s EXE_COUNT=%d", iv.Line, src, iv.Level, typeName(iv), iv.Count)
	if iv.Expr != nil {
		t.printf(" EXPR=%d", *iv.Expr)
	}
	t.printf("\n")
	t.main(iv)
	if t.cpu {
		t.comparative(iv)
		if t.procs {
			t.execution(iv)
		}
	}
	t.printf("\n")
}

// main prints the main characteristics and the operation table.
func (t *text) main(iv *result.Interval) {
	v := &iv.Values
	d := t.d
	t.printf("--- The main characteristics --- \n")
	t.printf("%-27s %*.4f \n", "Parallelization efficiency", d, v[result.Efficiency])
	t.printf("%-27s %*.4f \n", "Execution time", d, v[result.ExecutionTime])
	t.printf("%-27s %*d\n", "Processors", d, int64(v[result.Processors]))
	t.printf("%-27s %*d\n", "Threads amount", d, int64(v[result.ThreadsAmount]))
	t.printf("%-27s %*.4f\n", "Total time", d, v[result.TotalTime])
	if v[result.ProductiveTime] > 0 {
		t.printf("%-27s %*.4f ( CPU= %.4f Sys= %.4f I/O= %.4f )\n", "Productive time", d, v[result.ProductiveTime],
			v[result.ProductiveCPUTime], v[result.ProductiveSYSTime], v[result.IOTime])
	}
	if v[result.LostTime] > 0 {
		t.printf("%-27s %*.4f \n", "Lost  time", d, v[result.LostTime])
	}
	if v[result.InsuffParallelism] != 0 {
		t.printf("%-27s %*.4f ( User= %.4f Sys= %.4f )\n", "   Insufficient parallelism", d, v[result.InsuffParallelism],
			v[result.InsuffParallelismUsr], v[result.InsuffParallelismSys])
	}
	if v[result.Communication] != 0 {
		t.printf("%-27s %*.4f ( Real_sync= %.4f Starts= %.4f )\n", "   Communication", d, v[result.Communication],
			v[result.CommunicationSynch], v[result.Starts])
	}
	for _, x := range []struct {
		label    string
		c        result.Char
		positive bool
	}{
		{"   Idle time", result.Idle, false},
		{"Load imbalance", result.LoadImbalance, false},
		{"Synchronization", result.Synchronization, false},
		{"Time variation", result.TimeVariation, false},
		{"Overlap", result.Overlap, true},
		{"Threads user time", result.ThreadsUserTime, true},
		{"Threads system time", result.ThreadsSystemTime, true},
		{"Productive time GPU", result.GPUProductiveTime, true},
		{"Lost time GPU", result.GPULostTime, true},
	} {
		if val := v[x.c]; val > 0 || !x.positive && val != 0 {
			t.printf("%-27s %*.4f\n", x.label, d, val)
		}
	}
	t.opTable(iv)
	if t.matrix >= 0 {
		t.matrices(iv)
	}
}

// calls is the interval's total number of collective operations.
func calls(iv *result.Interval) float64 {
	n := 0.0
	for c := result.OpIO; c < result.NumOpClasses; c++ {
		n += iv.Values[result.OpChar(c, result.OpCount)]
	}
	return n
}

// presentKinds are the operation columns whose general total is positive.
func presentKinds(iv *result.Interval) []kind {
	var out []kind
	for _, k := range kinds {
		if iv.Values[k.total] > 0 {
			out = append(out, k)
		}
	}
	return out
}

func (t *text) opTable(iv *result.Interval) {
	total := calls(iv)
	if total <= 0 {
		return
	}
	w := max(5, len(fmt.Sprintf("%.0f", total)))
	ks := presentKinds(iv)
	t.printf("%16s%*s ", "", w, "Nop")
	for _, k := range ks {
		t.printf("%*s ", t.d, k.short)
	}
	t.printf("\n")
	for c := result.OpIO; c < result.NumOpClasses; c++ {
		n := iv.Values[result.OpChar(c, result.OpCount)]
		if n <= 0 {
			continue
		}
		t.printf("%-16s%*.0f ", opNames[c], w, n)
		for _, k := range ks {
			t.printf("%*.4f ", t.d, iv.Values[result.OpChar(c, k.col)])
		}
		t.printf("\n")
	}
}

func (t *text) trailer() {
	t.printf("%s", rule)
	t.printf("Name (number) and performance time of processors\n")
	procs := t.rep.Procs
	if len(procs) == 0 {
		return
	}
	lo, hi, sum := 0, 0, 0.0
	for i, p := range procs {
		t.printf("%s(%d) %f\n", p.Name, i+1, p.TestTime)
		if p.TestTime < procs[lo].TestTime {
			lo = i
		}
		if p.TestTime >= procs[hi].TestTime {
			hi = i
		}
		sum += p.TestTime
	}
	t.printf("min - %s(%d) %f; max - %s(%d) %f; mid - %f\n", procs[lo].Name, lo+1, procs[lo].TestTime,
		procs[hi].Name, hi+1, procs[hi].TestTime, sum/float64(len(procs)))
}
