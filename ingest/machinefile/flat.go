package machinefile

import "github.com/presage-dvm/presage/sim/machine"

import (
	"fmt"
	"strconv"
	"strings"
)

// parseFlat reads the flat format of the 2000 design (seed 000 §2.4):
//
//	type = ethernet | transputer | network | myrinet (N);
//	start time = R;  send byte time = R;   (microseconds)
//	power = R;  topology = {n1, n2, ...} or {lo:hi, ...};  search = N;
//	scale = R;  weight = {...};  procpowers = {...};  mapping = {...};
//
// The machine is one cluster whose processors are the product of the
// topology, all of power "power", with the file's TStart and TByte and one
// channel (N for myrinet). scale, weight, procpowers and mapping are
// accepted and ignored with a warning: their meaning was never defined by a
// reachable implementation.
func parseFlat(s *scanner) (*machine.Machine, error) {
	root := &machine.Node{Name: "flat", Channels: 1, CommType: "network"}
	m := &machine.Machine{Name: root.Name, Root: root, Format: machine.FormatFlat}
	power := 1.0
	for {
		s.skipBlank()
		if s.eof() {
			break
		}
		key, at, err := flatKey(s)
		if err != nil {
			return nil, err
		}
		if err := flatValue(s, m, key, at, &power); err != nil {
			return nil, err
		}
		if err := s.end("the " + key + " value"); err != nil {
			return nil, err
		}
	}
	m.Warnings = s.warnings
	if m.Topology == nil {
		return nil, s.errAt(len(s.src.b), "a flat machine file needs \"topology = {n1, n2, ...};\" to give the number of processors")
	}
	procs := 1
	for _, n := range m.Topology {
		procs *= n // each factor <= maxProcs and the running product is checked below
		if procs > s.maxProcs {
			return nil, s.errAt(len(s.src.b), "topology has more than %d processors", s.maxProcs)
		}
	}
	root.Children = make([]*machine.Node, procs)
	for i := range root.Children {
		root.Children[i] = &machine.Node{Name: "proc", Power: power}
	}
	return m, nil
}

// flatKey reads the words before '=' and normalises the optional words of
// "start [time]" and "send [byte] [time]".
func flatKey(s *scanner) (string, int, error) {
	var words []string
	start := -1
	for {
		w, at := s.name()
		if w == "" {
			break
		}
		if start < 0 {
			start = at
		}
		words = append(words, w)
	}
	if start < 0 {
		start = s.i
	}
	key := strings.Join(words, " ")
	switch key {
	case "start", "start time":
		key = "start time"
	case "send", "send time", "send byte", "send byte time":
		key = "send byte time"
	case "type", "power", "scale", "topology", "weight", "procpowers", "mapping", "search":
	default:
		if key == "" {
			return "", start, s.errAt(start, "expected a key (type, start time, send byte time, power, topology, ...), found %s", s.found())
		}
		return "", start, s.errAt(start, "unknown key %q: expected type, start time, send byte time, power, topology, scale, weight, procpowers, mapping or search", key)
	}
	if err := s.expect('=', "'=' after "+key); err != nil {
		return "", start, err
	}
	return key, start, nil
}

func flatValue(s *scanner, m *machine.Machine, key string, at int, power *float64) error {
	root := m.Root
	switch key {
	case "type":
		w, wat := s.name()
		switch {
		case w == "ethernet" || w == "transputer" || w == "network":
			root.CommType, root.Channels = w, 1
		case w == "myrinet" || strings.HasPrefix(w, "myrinet("):
			// The flat format wrote myrinet(N); a blank before '(' is accepted too.
			n, err := flatChannels(s, w, wat)
			if err != nil {
				return err
			}
			root.CommType, root.Channels = "myrinet", n
		default:
			return s.errAt(wat, "expected ethernet, transputer, network or myrinet(N) after type =, found %s", quoteOr(w, s))
		}
	case "start time", "send byte time":
		v, vat, err := s.real(key + " in microseconds")
		if err != nil {
			return err
		}
		r := machine.TStartRange
		if key == "send byte time" {
			r = machine.TByteRange
		}
		if !r.Contains(v / 1e6) {
			return s.errAt(vat, "%s = %v: %s", key, v, r.Want(1e6, "microseconds"))
		}
		if key == "start time" {
			root.TStart = v / 1e6
		} else {
			root.TByte = v / 1e6
		}
	case "power":
		v, vat, err := s.real("the processor power")
		if err != nil {
			return err
		}
		if v == 0 {
			return s.errAt(vat, "processor power must not be 0")
		}
		if err := machine.PowerRange.Check(v); err != nil {
			return s.errAt(vat, "processor %v", err)
		}
		*power = v
	case "search":
		v, _, err := s.integer("the search mode")
		if err != nil {
			return err
		}
		m.Search = v
	case "scale":
		if _, _, err := s.real("the scale"); err != nil {
			return err
		}
		s.warnAt(at, "scale is ignored (the original never used it)")
	case "topology":
		t, err := topology(s)
		if err != nil {
			return err
		}
		m.Topology = t
	default: // weight, procpowers, mapping
		if err := skipBraces(s, key); err != nil {
			return err
		}
		s.warnAt(at, "%s is accepted and ignored (no implementation of the original uses it)", key)
	}
	return nil
}

func quoteOr(w string, s *scanner) string {
	if w != "" {
		return fmt.Sprintf("%q", w)
	}
	return s.found()
}

// topology reads "{ n1, n2, ... }" where each size is N or lo:hi
// (size hi-lo+1).
func topology(s *scanner) ([]int, error) {
	if err := s.expect('{', "'{' after topology ="); err != nil {
		return nil, err
	}
	var dims []int
	for {
		n, nat, err := s.integer("a topology size")
		if err != nil {
			return nil, err
		}
		s.skipBlank()
		if s.peek() == ':' {
			s.i++
			hi, _, err := s.integer("the upper bound of a topology range")
			if err != nil {
				return nil, err
			}
			if hi < n {
				return nil, s.errAt(nat, "topology range %d:%d is empty", n, hi)
			}
			n = hi - n + 1
		}
		if n < 1 {
			return nil, s.errAt(nat, "topology size must be at least 1")
		}
		if n > s.maxProcs {
			return nil, s.errAt(nat, "topology size %d is more than %d processors", n, s.maxProcs)
		}
		dims = append(dims, n)
		s.skipBlank()
		if s.peek() == ',' {
			s.i++
			continue
		}
		if err := s.expect('}', "',' or '}' in topology"); err != nil {
			return nil, err
		}
		return dims, nil
	}
}

// skipBraces consumes a balanced "{ ... }" value without interpreting it.
func skipBraces(s *scanner, key string) error {
	open := s.i
	if err := s.expect('{', "'{' after "+key+" ="); err != nil {
		return err
	}
	depth := 1
	for depth > 0 {
		if s.eof() {
			return s.errAt(open, "unclosed '{' in the %s value", key)
		}
		switch s.peek() {
		case '{':
			depth++
		case '}':
			depth--
		case ';':
			return s.errAt(s.i, "expected '}' closing the %s value, found ';'", key)
		}
		s.i++
	}
	return nil
}

// flatChannels reads the N of "myrinet(N)", "myrinet (N)" or "myrinet(N )";
// w is the word read so far (names end at blanks, not at parentheses).
func flatChannels(s *scanner, w string, wat int) (int, error) {
	rest := strings.TrimPrefix(w, "myrinet")
	var n int
	if rest == "" {
		if err := s.expect('(', "'(' after myrinet"); err != nil {
			return 0, err
		}
		v, _, err := s.integer("the number of channels")
		if err != nil {
			return 0, err
		}
		if err := s.expect(')', "')' after the number of channels"); err != nil {
			return 0, err
		}
		n = v
	} else {
		digits := strings.TrimSuffix(rest[1:], ")")
		v, err := strconv.Atoi(digits)
		if err != nil || digits == "" || digits[0] < '0' || digits[0] > '9' || v > 1<<30 {
			return 0, s.errAt(wat, "expected myrinet(N) with N the number of channels, found %q", w)
		}
		if !strings.HasSuffix(rest, ")") {
			if err := s.expect(')', "')' after the number of channels"); err != nil {
				return 0, err
			}
		}
		n = v
	}
	if n < 1 {
		return 0, s.errAt(wat, "myrinet needs at least 1 channel")
	}
	return n, nil
}
