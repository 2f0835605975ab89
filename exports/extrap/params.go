package extrap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/schema/stored"
)

// An Extra-P experiment models a metric as a function of numeric
// parameters, and lines with equal parameters are repetitions of one
// measurement. So each file must hold runs that differ only in its
// parameters, and the parameters must be exactly those that vary:
//
//   - what is not a number (kind, machine, network, simulator options,
//     trace, grid rank, which machine-file values are overridden) is fixed
//     within a file: one file per combination of them;
//   - the numeric candidates are procs, grid_d2..grid_d4 (grid_d1 is
//     procs divided by the others, so never needed), tstart and tbyte in
//     microseconds (Extra-P drops logarithmic terms for values below 1),
//     and power; a candidate is a parameter when it varies within the
//     file and is not equal to an earlier parameter on every run (a 1-D
//     grid's only dimension is procs).

// fixedAttr is one non-numeric attribute that separates files.
type fixedAttr struct {
	name  string
	value func(r *stored.RunRow) string
}

var fixedAttrs = []fixedAttr{
	{"kind", func(r *stored.RunRow) string { return r.Kind }},
	{"machine", func(r *stored.RunRow) string { return nullString(r.Machine, "none") }},
	{"network", func(r *stored.RunRow) string { return nullString(r.Network, "default") }},
	{"options", func(r *stored.RunRow) string { return orNone(r.Options) }},
	{"trace", func(r *stored.RunRow) string { return nullInt(r.TraceID) }},
	{"rank", func(r *stored.RunRow) string { return strconv.FormatInt(r.GridRank, 10) }},
	{"overrides", overrides},
}

// overrides names the machine-file values a run overrides: a run without
// an override has no number to give for it, so it cannot share a file
// with runs that have one.
func overrides(r *stored.RunRow) string {
	var set []string
	for _, o := range []struct {
		name string
		ok   bool
	}{{"tstart", r.TStartUS.Valid}, {"tbyte", r.TByteUS.Valid}, {"power", r.Power.Valid}} {
		if o.ok {
			set = append(set, o.name)
		}
	}
	if len(set) == 0 {
		return "none"
	}
	return strings.Join(set, "+")
}

// numParam is one numeric candidate parameter.
type numParam struct {
	name  string
	value func(r *stored.RunRow) (float64, bool)
}

var numParams = []numParam{
	{"procs", func(r *stored.RunRow) (float64, bool) { return float64(r.Procs), true }},
	{"grid_d2", dim(func(r *stored.RunRow) stored.Null[int64] { return r.GridD2 })},
	{"grid_d3", dim(func(r *stored.RunRow) stored.Null[int64] { return r.GridD3 })},
	{"grid_d4", dim(func(r *stored.RunRow) stored.Null[int64] { return r.GridD4 })},
	{"tstart", func(r *stored.RunRow) (float64, bool) { return r.TStartUS.V, r.TStartUS.Valid }},
	{"tbyte", func(r *stored.RunRow) (float64, bool) { return r.TByteUS.V, r.TByteUS.Valid }},
	{"power", func(r *stored.RunRow) (float64, bool) { return r.Power.V, r.Power.Valid }},
}

func dim(f func(*stored.RunRow) stored.Null[int64]) func(*stored.RunRow) (float64, bool) {
	return func(r *stored.RunRow) (float64, bool) { d := f(r); return float64(d.V), d.Valid }
}

// group is the runs of one output file.
type group struct {
	fixed  []string // value of each fixedAttrs entry
	suffix string   // the file name's part after the program: the fixed attributes that vary
	runs   []*stored.RunRow
}

// groupRuns splits the runs of one program of a sweep into files.
func groupRuns(runs []*stored.RunRow) []*group {
	varies := make([]bool, len(fixedAttrs))
	for i, a := range fixedAttrs {
		for _, r := range runs[1:] {
			if a.value(r) != a.value(runs[0]) {
				varies[i] = true
				break
			}
		}
	}
	byKey := map[string]*group{}
	var out []*group
	for _, r := range runs {
		var fixed, name []string
		for i, a := range fixedAttrs {
			fixed = append(fixed, a.value(r))
			if varies[i] {
				name = append(name, a.name+"="+a.value(r))
			}
		}
		key := strings.Join(fixed, "\x00")
		g := byKey[key]
		if g == nil {
			g = &group{fixed: fixed, suffix: strings.Join(name, ".")}
			byKey[key] = g
			out = append(out, g)
		}
		g.runs = append(g.runs, r)
	}
	slices.SortFunc(out, func(a, b *group) int { return strings.Compare(a.suffix, b.suffix) })
	return out
}

// params returns the names of the group's parameters: the candidates that
// vary and do not repeat an earlier parameter.
func (g *group) params() []numParam {
	var kept []numParam
	for _, c := range numParams {
		if !g.varies(c) || slices.ContainsFunc(kept, func(k numParam) bool { return g.same(k, c) }) {
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 { // one configuration: Extra-P still needs a parameter
		kept = numParams[:1]
	}
	return kept
}

func (g *group) varies(p numParam) bool {
	v0, _ := p.value(g.runs[0])
	for _, r := range g.runs[1:] {
		if v, _ := p.value(r); v != v0 {
			return true
		}
	}
	return false
}

func (g *group) same(a, b numParam) bool {
	for _, r := range g.runs {
		va, _ := a.value(r)
		vb, _ := b.value(r)
		if va != vb {
			return false
		}
	}
	return true
}

// encodeParams returns each run's "params" object, pre-encoded, and checks
// that runs with equal parameters have the same configuration, so that
// Extra-P's repetitions are true repetitions.
func (g *group) encodeParams(ps []numParam) (map[int64]string, error) {
	out := make(map[int64]string, len(g.runs))
	seen := map[string]*stored.RunRow{}
	for _, r := range g.runs {
		var b strings.Builder
		for i, p := range ps {
			v, _ := p.value(r)
			if i == 0 {
				b.WriteString("{")
			} else {
				b.WriteString(",")
			}
			b.WriteString(`"` + p.name + `":` + strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteString("}")
		enc := b.String()
		if o, dup := seen[enc]; dup && configOf(o) != configOf(r) {
			return nil, fmt.Errorf("runs %d (%s) and %d (%s) would be repetitions of one point %s",
				o.ID, configOf(o), r.ID, configOf(r), enc)
		}
		seen[enc] = r
		out[r.ID] = enc
	}
	return out, nil
}

// configOf is everything that defines a run's configuration.
func configOf(r *stored.RunRow) string {
	return fmt.Sprintf("%s %s grid %s network %s tstart %s tbyte %s power %s options %s trace %s",
		r.Kind, nullString(r.Machine, "-"), r.Grid, nullString(r.Network, "-"),
		nullFloat(r.TStartUS), nullFloat(r.TByteUS), nullFloat(r.Power), orNone(r.Options), nullInt(r.TraceID))
}

func nullString(v stored.Null[string], none string) string {
	if !v.Valid {
		return none
	}
	return v.V
}

func nullInt(v stored.Null[int64]) string {
	if !v.Valid {
		return "none"
	}
	return strconv.FormatInt(v.V, 10)
}

func nullFloat(v stored.Null[float64]) string {
	if !v.Valid {
		return "-"
	}
	return strconv.FormatFloat(v.V, 'g', -1, 64)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
