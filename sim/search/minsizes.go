package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/trace"
)

// MaxRank is the largest processor grid rank.
const MaxRank = 4

// Sizer computes the minimum grid sizes of a trace call by call, as it is
// streamed (the tests check it against MinSizes on a whole trace).
type Sizer struct {
	file      string
	ms        [MaxRank]int
	templates map[string][]int // AMViewRef -> sizes
}

// NewSizer returns a Sizer naming file in its errors.
func NewSizer(file string) *Sizer {
	return &Sizer{file: file, templates: map[string][]int{}}
}

// Sizes returns MinSizesOfAM of the calls added so far.
func (s *Sizer) Sizes() [MaxRank]int { return s.ms }

// Add takes the next call of the trace into account.
func (s *Sizer) Add(c *trace.Call) error {
	switch c.Func {
	case "crtamv_":
		ref, ok := c.Out.Get("AMViewRef")
		if !ok {
			return nil // a failed call: the simulator reports it
		}
		sizes, err := ints(s.file, c, c.In.Array("SizeArray"), "SizeArray")
		if err != nil {
			return err
		}
		if r, ok := c.In.Get("Rank"); ok {
			if n, err := strconv.Atoi(r); err == nil && n >= 0 && n < len(sizes) {
				sizes = sizes[:n]
			}
		}
		s.templates[handle(ref)] = sizes
	case "distr_":
		ref, _ := c.In.Get("AMViewRef")
		sizes, ok := s.templates[handle(ref)]
		if !ok {
			return fmt.Errorf("%s:%d: distr_ of template AMViewRef=%s, which no crtamv_ created", s.file, c.TraceLine, ref)
		}
		axes, err := ints(s.file, c, c.In.Array("AxisArray"), "AxisArray")
		if err != nil {
			return err
		}
		if pc, ok := c.In.Get("ParamCount"); ok {
			if n, err := strconv.Atoi(pc); err == nil && n >= 0 && n < len(axes) {
				axes = axes[:n]
			}
		}
		for i, a := range axes {
			if i >= MaxRank || a <= 0 || a > len(sizes) {
				continue // replicated, or an axis the simulator rejects
			}
			s.ms[i] = max(s.ms[i], sizes[a-1])
		}
	}
	return nil
}

// Rank is 1 + the largest dimension with a non-zero size, 0 when the trace
// distributes nothing (the original then crashes; we do not search).
func Rank(ms [MaxRank]int) int {
	for i := MaxRank - 1; i >= 0; i-- {
		if ms[i] != 0 {
			return i + 1
		}
	}
	return 0
}

func ints(file string, c *trace.Call, vs []string, name string) ([]int, error) {
	out := make([]int, len(vs))
	for i, v := range vs {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %s[%d]=%q: expected an integer", file, c.TraceLine, c.Func, name, i, v)
		}
		out[i] = n
	}
	return out, nil
}

// handle normalises a hexadecimal handle's text.
func handle(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.TrimLeft(strings.TrimPrefix(s, "0x"), "0")
}
