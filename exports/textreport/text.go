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
	rep    *Report
	d      int          // value width, fixed at the first printed interval
	show   map[int]bool // 1-based processors of the per-processor tables; nil = all
	cpu    bool
	procs  bool
	matrix int // -1 none, 0 rows, 1 columns
}

func writeText(w io.Writer, rep *Report, opt Options) error {
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
		if opt.MaxLevel >= 0 && iv.Level > opt.MaxLevel {
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

// groupNames are the operation groups as the -m tables print them.
var groupNames = [groups]string{
	"UserGrp", "MsgPasGrp", "StartRedGrp", "WaitRedGrp", "RedGrp", "StartShdGrp", "WaitShdGrp", "ShdGrp",
	"DistrGrp", "ReDistrGrp", "MapPLGrp", "DoPLGrp", "ProgBlockGrp", "IOGrp", "RemAccessGrp", "UserDebGrp",
	"StatistGrp", "DvmhCpyHtoDTime", "DvmhCpyHtoDBytes", "DvmhCpyDtoHTime", "DvmhCpyDtoHBytes",
	"DvmhCpyDtoDTime", "DvmhCpyDtoDBytes", "DvmhCyclePortionTime", "DvmhArrayTransformTime",
	"DvmhArrayTransformBytes", "DvmhArrayReductionTime", "SystemGrp",
}

// matrices prints every processor's time matrix summed by rows or columns.
func (t *text) matrices(iv *result.Interval) {
	for _, p := range iv.Procs {
		var m [groups][3]float64
		if s := t.rep.Sums[[2]int{iv.ID, p.Proc}]; s != nil {
			m = s[t.matrix]
		}
		t.printf(" Nproc= %-16dCALL COUNT PRODUCT TIME  LOST TIME\n", p.Proc+1)
		var total [3]float64
		for g, name := range groupNames {
			// The DVMH group names are printed unpadded, as the original does.
			if !strings.HasPrefix(name, "Dvmh") {
				name = fmt.Sprintf("%-23s", name)
			}
			t.printf("%s %*.4f %*.4f %*.4f \n", name, t.d, m[g][0], t.d, m[g][1], t.d, m[g][2])
			for k := range total {
				total[k] += m[g][k]
			}
		}
		t.printf("%-23s %*.4f %*.4f %*.4f \n", "      Total:", t.d, total[0], t.d, total[1], t.d, total[2])
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

// stat is a comparative characteristic as the analyzer computes it: the
// first strictly smallest value, the last largest (from 0), the mean.
type stat struct {
	min, max, mean   float64
	minProc, maxProc int // 1-based
	sum              float64
}

func compare(iv *result.Interval, c result.Char) stat {
	var s stat
	for i, p := range iv.Procs {
		v := p.Values[c]
		s.sum += v
		if i == 0 || v < s.min {
			s.min, s.minProc = v, p.Proc+1
		}
		if v >= s.max {
			s.max, s.maxProc = v, p.Proc+1
		}
	}
	if len(iv.Procs) > 0 {
		s.mean = s.sum / float64(len(iv.Procs))
	}
	return s
}

func (t *text) comparative(iv *result.Interval) {
	d := t.d
	t.printf("--- The comparative characteristics --- \n")
	t.printf("%24s%*s N proc%*s N proc%*s\n", "", d, "Tmin", d, "Tmax", d, "Tmid")
	for _, r := range rows {
		s := compare(iv, r.c)
		if s.sum <= 0 {
			continue
		}
		if r.c == result.Processors {
			t.printf("%-24s%*.0f %5d %*.0f %5d %*.0f \n", r.name, d, s.min, s.minProc, d, s.max, s.maxProc, d, s.mean)
			continue
		}
		t.printf("%-24s%*.4f %5d %*.4f %5d %*.4f \n", r.name, d, s.min, s.minProc, d, s.max, s.maxProc, d, s.mean)
	}
	if calls(iv) <= 0 {
		return
	}
	ks := presentKinds(iv)
	t.printf("%15s", "")
	for _, k := range ks {
		t.printf("%*s  ", d+5, k.short)
	}
	t.printf("\n")
	for c := result.OpIO; c < result.NumOpClasses; c++ {
		if iv.Values[result.OpChar(c, result.OpCount)] <= 0 {
			continue
		}
		st := make([]stat, len(ks))
		nonzero := false
		for i, k := range ks {
			st[i] = compare(iv, result.OpChar(c, k.col))
			nonzero = nonzero || st[i].sum != 0
		}
		if !nonzero {
			continue // an operation whose shown columns are all zero
		}
		t.printf("%-16sTmin", opNames[c])
		for _, s := range st {
			t.printf("%*.4f %5d ", d, s.min, s.minProc)
		}
		t.printf("\n%-16sTmax", opNames[c])
		for _, s := range st {
			t.printf("%*.4f %5d ", d, s.max, s.maxProc)
		}
		t.printf("\n%-16sTmid", opNames[c])
		for _, s := range st {
			t.printf("%*.4f       ", d, s.mean)
		}
		t.printf("\n")
	}
}

// shown are the interval's processors the per-processor tables show.
func (t *text) shown(iv *result.Interval) []result.ProcValues {
	var out []result.ProcValues
	for _, p := range iv.Procs {
		if t.show == nil || t.show[p.Proc+1] {
			out = append(out, p)
		}
	}
	return out
}

func (t *text) execution(iv *result.Interval) {
	d := t.d
	ps := t.shown(iv)
	t.printf("--- The execution characteristics --- \n")
	t.printf("%23s", "")
	for _, p := range ps {
		t.printf("%*d ", d, p.Proc+1)
	}
	t.printf("\n")
	for _, r := range rows {
		if compare(iv, r.c).sum == 0 {
			continue
		}
		t.printf("%-23s", r.name)
		for _, p := range ps {
			if r.c == result.Processors {
				t.printf("%*.0f ", d, p.Values[r.c])
			} else {
				t.printf("%*.4f ", d, p.Values[r.c])
			}
		}
		t.printf("\n")
	}
	if calls(iv) > 0 {
		for _, k := range presentKinds(iv) {
			t.printf("%11s%-23s\n", "", k.long)
			for c := result.OpIO; c < result.NumOpClasses; c++ {
				if compare(iv, result.OpChar(c, k.col)).sum == 0 {
					continue
				}
				t.printf("%-23s", opNames[c])
				for _, p := range ps {
					t.printf("%*.4f ", d, p.Values[result.OpChar(c, k.col)])
				}
				t.printf("\n")
			}
		}
	}
	t.printf("\n")
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
