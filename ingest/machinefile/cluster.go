package machinefile

import "github.com/presage-dvm/presage/sim/machine"

import (
	"fmt"
	"strconv"
	"strings"
)

// def is one definition statement of a cluster file, with the attributes
// later statements gave it.
type def struct {
	name     string
	at       int // buffer index of the definition, for messages
	leaf     bool
	power    float64
	items    []item
	tstart   float64                // seconds
	tbyte    float64                // seconds
	messages []machine.MessagePoint // NAME.messages, the extended model's
	channels int
	commType string
	ref      string // X of "NAME.commtype = X.commtype"
	refAt    int
}

// item is one "[n x] sub" of a composite definition.
type item struct {
	count int
	name  string
	at    int
}

// clusterFile is what the statements of a cluster file say, before the tree
// is built.
type clusterFile struct {
	defs       []*def
	first      map[string]*def // lookup takes the first definition of a name
	leaves     map[*def]int    // leaf counts of the definitions below the root
	root       string
	rootAt     int
	search     int
	runWork    float64 // seconds
	ioByte     float64 // seconds per byte
	contention float64 // a fraction per busy neighbour
	strided    float64 // seconds per iteration
	freshPage  float64 // seconds per page
	hasRoot    bool
}

func parseCluster(s *scanner) (*machine.Machine, error) {
	f := &clusterFile{first: map[string]*def{}, leaves: map[*def]int{}}
	for {
		s.skipBlank()
		if s.eof() {
			break
		}
		if err := f.statement(s); err != nil {
			return nil, err
		}
	}
	if !f.hasRoot {
		return nil, s.errAt(0, "no \"cluster = NAME;\" statement naming the cluster to model")
	}
	root, err := f.build(s)
	if err != nil {
		return nil, err
	}
	return &machine.Machine{Name: f.root, Root: root, Search: f.search, RunWork: f.runWork, IOByte: f.ioByte, Contention: f.contention, Strided: f.strided, FreshPage: f.freshPage, Format: machine.FormatCluster, Warnings: s.warnings}, nil
}

// statement parses one statement up to and including its ';'.
func (f *clusterFile) statement(s *scanner) error {
	word, at := s.name()
	switch {
	case word == "":
		return s.errAt(at, "expected a statement (cluster = NAME; search = N; runwork = R; iobyte = T; contention = C; strided = S; freshpage = F; NAME = ...; NAME.ATTR = ...), found %s", s.found())
	case word == "cluster":
		if err := s.expect('=', "'=' after cluster"); err != nil {
			return err
		}
		name, nat, err := s.clusterName("the name of the cluster to model")
		if err != nil {
			return err
		}
		f.root, f.rootAt, f.hasRoot = name, nat, true
		return s.end("the cluster name")
	case word == "search":
		if err := s.expect('=', "'=' after search"); err != nil {
			return err
		}
		v, _, err := s.integer("the search mode")
		if err != nil {
			return err
		}
		f.search = v
		return s.end("the search mode")
	case word == "runwork":
		return extendedStatement(s, word, "microseconds", 1e6, machine.RunWorkRange, &f.runWork)
	case word == "iobyte":
		return extendedStatement(s, word, "nanoseconds per byte", 1e9, machine.IOByteRange, &f.ioByte)
	case word == "contention":
		return extendedStatement(s, word, "percent per busy neighbour", 100, machine.ContentionRange, &f.contention)
	case word == "strided":
		return extendedStatement(s, word, "nanoseconds per iteration", 1e9, machine.StridedRange, &f.strided)
	case word == "freshpage":
		return extendedStatement(s, word, "microseconds per page", 1e6, machine.FreshPageRange, &f.freshPage)
	case isDigit(word[0]):
		return s.errAt(at, "expected a cluster name, found %q (names must not start with a digit)", word)
	}
	s.skipBlank()
	if s.peek() == '.' {
		s.i++
		return f.attribute(s, word, at)
	}
	if err := s.expect('=', fmt.Sprintf("'=' or '.' after %q", word)); err != nil {
		return err
	}
	s.skipBlank()
	switch c := s.peek(); {
	case c == '{':
		s.i++
		return f.composite(s, word, at)
	case isDigit(c):
		power, pat, err := s.real("processor power")
		if err != nil {
			return err
		}
		if power == 0 {
			// Every traced time is divided by the power.
			return s.errAt(pat, "processor power must not be 0")
		}
		if err := machine.PowerRange.Check(power); err != nil {
			return s.errAt(pat, "processor %v", err)
		}
		d := &def{name: word, at: at, leaf: true, power: power, channels: 1}
		f.add(d)
		return s.end("the processor power")
	default:
		return s.errAt(s.i, "expected '{' (a composite cluster) or a number (a processor's power) after %q =, found %s", word, s.found())
	}
}

// extendedStatement parses "KEY = V;" after its keyword, one of the
// extended model's statements the original's files do not have:
// "runwork" (machine.Machine.RunWork, given in microseconds), "iobyte"
// (machine.Machine.IOByte, given in nanoseconds per byte), "contention"
// (machine.Machine.Contention, given in percent per busy neighbour),
// "strided" (machine.Machine.Strided, given in nanoseconds per
// iteration) and "freshpage" (machine.Machine.FreshPage, given in
// microseconds per page). V is in the file's unit, per of them to the second; r
// bounds the value in seconds.
func extendedStatement(s *scanner, key, unit string, per float64, r machine.Range, dst *float64) error {
	if err := s.expect('=', "'=' after "+key); err != nil {
		return err
	}
	v, vat, err := s.real("the " + r.Name + " in " + unit)
	if err != nil {
		return err
	}
	if err := r.Check(v / per); err != nil {
		return s.errAt(vat, "%s = %v: %s", key, v, r.Want(per, unit))
	}
	*dst = v / per
	return s.end("the " + r.Name)
}

func (f *clusterFile) add(d *def) {
	f.defs = append(f.defs, d)
	if _, ok := f.first[d.name]; !ok {
		f.first[d.name] = d
	}
}

// composite parses "{ [n x] sub, ... } ;" after the '{'.
func (f *clusterFile) composite(s *scanner, name string, at int) error {
	d := &def{name: name, at: at, power: 1, channels: 1}
	for {
		s.skipBlank()
		it := item{count: 1}
		if isDigit(s.peek()) {
			n, _, err := s.integer("a count")
			if err != nil {
				return err
			}
			if err := s.expect('x', fmt.Sprintf("'x' after the count %d (as in {%d x NAME})", n, n)); err != nil {
				return err
			}
			it.count = n
		}
		sub, sat, err := s.clusterName("a sub-cluster name")
		if err != nil {
			return err
		}
		it.name, it.at = sub, sat
		d.items = append(d.items, it)
		s.skipBlank()
		if s.peek() == ',' {
			s.i++
			continue
		}
		if err := s.expect('}', "',' or '}' after a sub-cluster"); err != nil {
			return err
		}
		break
	}
	if prev, ok := f.first[name]; ok {
		// The original keeps the first definition's sub-clusters.
		p := s.pos(prev.at)
		s.warnAt(at, "cluster %q is already defined at line %d: this definition is ignored", name, p.line)
	} else {
		f.add(d)
	}
	return s.end("'}'")
}

// attribute parses "tstart = R;", "tbyte = R;" or "commtype = ...;" after
// "NAME.".
func (f *clusterFile) attribute(s *scanner, name string, at int) error {
	attr, aat := s.name()
	d := f.first[name]
	if d == nil && (attr == "tstart" || attr == "tbyte" || attr == "commtype" || attr == "messages") {
		s.warnAt(at, "%s.%s: cluster %q is not defined before this line; the statement is ignored (as in the original)", name, attr, name)
	}
	switch attr {
	case "tstart", "tbyte":
		if err := s.expect('=', "'=' after "+attr); err != nil {
			return err
		}
		v, vat, err := s.real(attr + " in microseconds")
		if err != nil {
			return err
		}
		if err := rangeOf(attr).Check(v / 1e6); err != nil {
			return s.errAt(vat, "%s.%s = %v: %s", name, attr, v, rangeOf(attr).Want(1e6, "microseconds"))
		}
		// 0 means "not given" in the original: it cannot reset a value.
		if d != nil && v != 0 {
			if attr == "tstart" {
				d.tstart = v / 1e6
			} else {
				d.tbyte = v / 1e6
			}
		}
		return s.end("the " + attr + " value")
	case "commtype":
		if err := s.expect('=', "'=' after commtype"); err != nil {
			return err
		}
		if err := commType(s, d); err != nil {
			return err
		}
		return s.end("the communication type")
	case "messages":
		if err := s.expect('=', "'=' after messages"); err != nil {
			return err
		}
		points, err := messagePoints(s, name)
		if err != nil {
			return err
		}
		if d != nil {
			d.messages = points
		}
		return s.end("the message times")
	default:
		return s.errAt(aat, "unknown attribute %q of %q: expected tstart, tbyte, commtype or messages", attr, name)
	}
}

// messagePoints parses the value of NAME.messages, the extended model's
// measured message times (machine.Node.Messages): "BYTES : MICROSECONDS"
// pairs separated by commas, at least two, in increasing sizes, each time
// within the range of a start-up time.
func messagePoints(s *scanner, name string) ([]machine.MessagePoint, error) {
	var points []machine.MessagePoint
	for {
		bytes, bat, err := s.integer("a message size in bytes")
		if err != nil {
			return nil, err
		}
		if n := len(points); n > 0 && int64(bytes) <= points[n-1].Bytes {
			return nil, s.errAt(bat, "%s.messages: size %d after %d: expected sizes in increasing order", name, bytes, points[n-1].Bytes)
		}
		if err := s.expect(':', fmt.Sprintf("':' after the size %d (as in %d : 2.5, a message of %d bytes taking 2.5 microseconds)", bytes, bytes, bytes)); err != nil {
			return nil, err
		}
		us, tat, err := s.real("the time of a message of " + strconv.Itoa(bytes) + " bytes in microseconds")
		if err != nil {
			return nil, err
		}
		if err := machine.TStartRange.Check(us / 1e6); err != nil {
			return nil, s.errAt(tat, "%s.messages: %d : %v: %s", name, bytes, us, machine.TStartRange.Want(1e6, "microseconds"))
		}
		points = append(points, machine.MessagePoint{Bytes: int64(bytes), Seconds: us / 1e6})
		s.skipBlank()
		if s.peek() != ',' {
			break
		}
		s.i++
	}
	if len(points) < 2 {
		return nil, s.errAt(s.i, "%s.messages: 1 message time: expected at least 2 (SIZE : MICROSECONDS, SIZE : MICROSECONDS ...), for the pieces between them", name)
	}
	return points, nil
}

// rangeOf is the physical range of the message attribute attr (tstart or
// tbyte), in seconds.
func rangeOf(attr string) machine.Range {
	if attr == "tstart" {
		return machine.TStartRange
	}
	return machine.TByteRange
}

// commType parses the value of NAME.commtype into d (nil: parse only).
func commType(s *scanner, d *def) error {
	if d == nil {
		d = &def{}
	}
	word, at := s.name()
	switch {
	case word == "":
		return s.errAt(at, "expected a communication type (myrinet (N), ethernet, transputer or NAME.commtype), found %s", s.found())
	case word == "myrinet":
		if err := s.expect('(', "'(' after myrinet (as in myrinet (2))"); err != nil {
			return err
		}
		n, nat, err := s.integer("the number of channels")
		if err != nil {
			return err
		}
		if n < 1 {
			return s.errAt(nat, "myrinet needs at least 1 channel")
		}
		if err := s.expect(')', "')' after the number of channels"); err != nil {
			return err
		}
		d.commType, d.channels, d.ref = word, n, ""
		return nil
	case word == "ethernet" || word == "transputer":
		d.commType, d.channels, d.ref = word, 1, ""
		return nil
	}
	s.skipBlank()
	if s.peek() == '.' {
		s.i++
		if attr, aat := s.name(); attr != "commtype" {
			return s.errAt(aat, "expected \"commtype\" after \"%s.\", found %s", word, s.found())
		}
		d.ref, d.refAt = word, at
		return nil
	}
	if strings.HasPrefix(word, "myrinet(") {
		s.warnAt(at, "%q is read as an unknown communication type with 1 channel, as the original does; write \"myrinet (N)\" with a space for N channels", word)
	} else {
		s.warnAt(at, "unknown communication type %q: 1 channel", word)
	}
	d.channels, d.ref = 1, ""
	return nil
}

// build expands the tree below the root cluster: every sub-cluster instance
// is a separate node; a name not defined is refused (count).
func (f *clusterFile) build(s *scanner) (*machine.Node, error) {
	rd := f.first[f.root]
	if rd == nil {
		return nil, s.errAt(f.rootAt, "cluster %q is not defined", f.root)
	}
	n, err := f.count(s, rd)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, s.errAt(f.rootAt, "cluster %q has no processors", f.root)
	}
	return f.expand(s, f.root)
}

// count returns the number of leaves below d, refusing cycles and trees
// larger than the limit before anything is allocated.
func (f *clusterFile) count(s *scanner, d *def) (int, error) {
	if d.leaf {
		return 1, nil
	}
	memo := f.leaves
	if n, ok := memo[d]; ok {
		if n < 0 {
			return 0, s.errAt(d.at, "cluster %q contains itself", d.name)
		}
		return n, nil
	}
	memo[d] = -1
	total := 0
	for _, it := range d.items {
		sub := f.first[it.name]
		if sub == nil {
			// The original makes it a processor of undefined power: a
			// misspelt name would silently add processors of power 1.
			return 0, s.errAt(it.at, "sub-cluster %q of cluster %q is not defined: expected a definition (%s = POWER; for a processor, %s = {...}; for a cluster)", it.name, d.name, it.name, it.name)
		}
		n, err := f.count(s, sub)
		if err != nil {
			return 0, err
		}
		if it.count != 0 && n > s.maxProcs/it.count {
			return 0, s.errAt(it.at, "cluster %q has more than %d processors", d.name, s.maxProcs)
		}
		total += it.count * n
		if total > s.maxProcs {
			return 0, s.errAt(it.at, "cluster %q has more than %d processors", d.name, s.maxProcs)
		}
	}
	memo[d] = total
	return total, nil
}

func (f *clusterFile) expand(s *scanner, name string) (*machine.Node, error) {
	d := f.first[name]
	if d == nil {
		return &machine.Node{Name: name, Power: 1}, nil
	}
	if d.leaf {
		return &machine.Node{Name: name, Power: d.power}, nil
	}
	n := &machine.Node{Name: name, TStart: d.tstart, TByte: d.tbyte, Channels: d.channels, CommType: d.commType, Messages: d.messages}
	width := 0
	for _, it := range d.items {
		if !f.empty(it.name) {
			width += it.count // bounded: each such copy holds a processor
		}
	}
	n.Children = make([]*machine.Node, 0, width)
	if d.ref != "" {
		x := f.first[d.ref]
		if x == nil {
			return nil, s.errAt(d.refAt, "cluster %q is not defined (in %s.commtype = %s.commtype)", d.ref, name, d.ref)
		}
		if x.ref != "" {
			return nil, s.errAt(d.refAt, "%s.commtype refers to %s.commtype, which is itself a reference (the original aborts with \"Error 1\")", name, d.ref)
		}
		n.TStart, n.TByte, n.Channels, n.CommType, n.Messages = x.tstart, x.tbyte, x.channels, x.commType, x.messages
	}
	for _, it := range d.items {
		if f.empty(it.name) {
			continue // "0 x p" somewhere below: no processors, no node
		}
		sub := f.first[it.name]
		if sub == nil || sub.leaf {
			// Processors in one allocation: machines have up to a million.
			leaf, _ := f.expand(s, it.name)
			block := make([]machine.Node, it.count)
			for k := range block {
				block[k] = *leaf
				n.Children = append(n.Children, &block[k])
			}
			continue
		}
		for k := 0; k < it.count; k++ {
			c, err := f.expand(s, it.name)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
		}
	}
	return n, nil
}

// empty reports whether the cluster called name has no processors (a count
// of 0 somewhere below it).
func (f *clusterFile) empty(name string) bool {
	sub := f.first[name]
	return sub != nil && !sub.leaf && f.leaves[sub] == 0
}
