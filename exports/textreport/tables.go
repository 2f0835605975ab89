package textreport

import (
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/sim/result"
)

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
