package textreport

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

// The JSON form (docs/model.md §10.9) is written by hand: the analyzer's JSON
// library orders keys alphabetically and prints doubles in its own way
// (shortest digits, fixed notation for decimal exponents -4..15, ".0" on
// integral values), which encoding/json does not.

// object builds one JSON object with keys in the order given, which the
// callers keep alphabetical.
type object struct {
	b     strings.Builder
	first bool
}

func newObject() *object {
	o := &object{first: true}
	o.b.WriteByte('{')
	return o
}

func (o *object) key(k string) {
	if !o.first {
		o.b.WriteByte(',')
	}
	o.first = false
	o.b.WriteString(strconv.Quote(k))
	o.b.WriteByte(':')
}

func (o *object) num(k string, v float64) *object { o.key(k); o.b.WriteString(jsonFloat(v)); return o }
func (o *object) int(k string, v int64) *object {
	o.key(k)
	o.b.WriteString(strconv.FormatInt(v, 10))
	return o
}
func (o *object) str(k, v string) *object { o.key(k); o.b.WriteString(strconv.Quote(v)); return o }
func (o *object) raw(k, v string) *object { o.key(k); o.b.WriteString(v); return o }
func (o *object) String() string          { return o.b.String() + "}" }

// array joins already encoded values.
func array(items []string) string { return "[" + strings.Join(items, ",") + "]" }

// jsonFloat formats a double as the analyzer's JSON library does.
func jsonFloat(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "null"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	e := shortest(v) // d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1 // position of the decimal point after the first n digits
	switch {
	case k <= n && n <= 15:
		return sign + digits + strings.Repeat("0", n-k) + ".0"
	case 0 < n && n <= 15:
		return sign + digits[:n] + "." + digits[n:]
	case -4 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	es := "+"
	if x < 0 {
		es, x = "-", -x
	}
	xs := strconv.Itoa(x)
	if len(xs) < 2 {
		xs = "0" + xs
	}
	return sign + m + "e" + es + xs
}

// shortest is the shortest representation of v that reads back as v.
// Where two candidates of that length are equally near (the exact value
// has one more digit, a 5), Go picks the even one and the analyzer's
// library the upper one; this follows the analyzer.
func shortest(v float64) string {
	e := strconv.FormatFloat(v, 'e', -1, 64)
	mant, _, _ := strings.Cut(e, "e")
	n := len(strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1))
	m, x, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', 40, 64), "e")
	digits := strings.Replace(m, ".", "", 1)
	if digits[n] != '5' || strings.Trim(digits[n+1:], "0") != "" {
		return e
	}
	upper := roundUp(digits[:n])
	if upper == "" {
		return e
	}
	up := upper[:1] + "e" + x
	if n > 1 {
		up = upper[:1] + "." + upper[1:] + "e" + x
	}
	if r, err := strconv.ParseFloat(up, 64); err != nil || r != math.Abs(v) {
		return e
	}
	if v < 0 {
		return "-" + up
	}
	return up
}

// roundUp adds one to the last decimal digit of d; "" on a carry out.
func roundUp(d string) string {
	b := []byte(d)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return ""
}

func writeJSON(w io.Writer, rep *Input) error {
	bw := bufio.NewWriter(w)
	var procs []string
	for _, p := range rep.Procs {
		procs = append(procs, newObject().str("node_name", p.Name).num("test_time", p.TestTime).String())
	}
	var ivs []string
	for _, iv := range rep.Run.Intervals {
		ivs = append(ivs, jsonInterval(rep, iv))
	}
	top := newObject().raw("inter", array(ivs)).raw("iscomp", "false").int("nproc", int64(len(rep.Procs))).
		str("p_heading", rep.Grid).raw("proc", array(procs))
	bw.WriteString(top.String())
	bw.WriteString("\n")
	return bw.Flush()
}

func jsonInterval(rep *Input, iv *result.Interval) string {
	v := &iv.Values
	expr := int64(2000000000)
	if iv.Expr != nil {
		expr = *iv.Expr
	}
	id := newObject().int("expr", expr).num("nenter", float64(iv.Count)).int("nlev", int64(iv.Level)).
		int("nline", int64(iv.Line)).int("nline_end", rep.LineEnd[iv.ID]).str("pname", iv.File).
		int("t", int64(rep.TypeCode[iv.ID]))
	times := newObject().num("comm", v[result.Communication]).num("comm_start", v[result.Starts]).
		num("efficiency", v[result.Efficiency]).num("exec_time", v[result.ExecutionTime]).
		num("gpu_time_lost", v[result.GPULostTime]).num("gpu_time_prod", v[result.GPUProductiveTime]).
		num("idle", v[result.Idle]).num("insuf", v[result.InsuffParallelism]).
		num("insuf_sys", v[result.InsuffParallelismSys]).num("insuf_user", v[result.InsuffParallelismUsr]).
		num("load_imb", v[result.LoadImbalance]).num("lost_time", v[result.LostTime]).
		int("nproc", int64(v[result.Processors])).num("overlap", v[result.Overlap]).
		num("prod_cpu", v[result.ProductiveCPUTime]).num("prod_io", v[result.IOTime]).
		num("prod_sys", v[result.ProductiveSYSTime]).num("real_comm", v[result.CommunicationSynch]).
		num("synch", v[result.Synchronization]).num("sys_time", v[result.TotalTime]).
		num("thr_sys_time", v[result.ThreadsSystemTime]).num("thr_user_time", v[result.ThreadsUserTime]).
		int("threadsOfAllProcs", int64(v[result.ThreadsAmount])).num("time_var", v[result.TimeVariation])
	var ops []string
	// The analyzer's JSON leaves out redistribution.
	for c := result.OpIO; c < result.OpRedistribution; c++ {
		col := func(k int) float64 { return v[result.OpChar(c, k)] }
		ops = append(ops, newObject().num("comm", col(result.OpComm)).int("ncall", int64(col(result.OpCount))).
			num("overlap", col(result.OpOverlap)).num("real_comm", col(result.OpRealSynch)).
			num("synch", col(result.OpSynch)).num("time_var", col(result.OpVary)).String())
	}
	var pts []string
	for _, p := range iv.Procs {
		x := p.Values
		threads := int64(0)
		if x[result.ThreadsUserTime] > 0 || x[result.ThreadsSystemTime] > 0 {
			threads = int64(x[result.ThreadsAmount])
		}
		// As the analyzer does, "overlap" carries the start time; its
		// sys_time is uninitialised there and the total time here.
		pts = append(pts, newObject().num("comm", x[result.Communication]).num("exec_time", x[result.ExecutionTime]).
			num("gpu_time_lost", x[result.GPULostTime]).num("gpu_time_prod", x[result.GPUProductiveTime]).
			raw("gpu_times", "null").num("idle", x[result.Idle]).
			num("insuf_sys", x[result.InsuffParallelismSys]).num("insuf_user", x[result.InsuffParallelismUsr]).
			num("load_imb", x[result.LoadImbalance]).num("lost_time", x[result.LostTime]).
			int("num_gpu", 0).int("num_threads", threads).num("overlap", x[result.Starts]).
			num("prod_cpu", x[result.ProductiveCPUTime]).num("prod_io", x[result.IOTime]).
			num("prod_sys", x[result.ProductiveSYSTime]).num("real_comm", x[result.CommunicationSynch]).
			num("synch", x[result.Synchronization]).num("sys_time", v[result.TotalTime]).
			raw("th_times", "null").num("thr_sys_time", x[result.ThreadsSystemTime]).
			num("thr_user_time", x[result.ThreadsUserTime]).num("time_var", x[result.TimeVariation]).String())
	}
	return newObject().raw("col_op", array(ops)).raw("id", id.String()).raw("proc_times", array(pts)).
		raw("times", times.String()).String()
}
