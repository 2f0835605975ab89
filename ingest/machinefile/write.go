package machinefile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/presage-dvm/presage/sim/machine"
)

// Write writes m as a machine file in the cluster format (docs/model.md
// §1.3), preceded by comment lines: the one writer of the format Parse
// reads, which reads it back to a machine that predicts alike (the same
// tree, powers, start-up times, times per byte, measured message times,
// channels, search mode, run work and I/O copy time; a communication type other than ethernet and transputer is
// written as myrinet with the node's channels, the type's name having no
// effect on timing). Each distinct cluster is written once, under its
// node's name made an identifier (Name), numbered where two distinct
// clusters share a name; the root's definition comes first, then each
// cluster's sub-clusters depth first.
func Write(w io.Writer, m *machine.Machine, comments []string) error {
	if m.Root == nil {
		return fmt.Errorf("machine %s has no clusters to write", m.Name)
	}
	b := bufio.NewWriter(w)
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			fmt.Fprintf(b, "// %s\n", l)
		}
	}
	cw := &clusterWriter{b: b, names: map[string]string{}, of: map[*machine.Node]string{}, used: map[string]bool{}}
	root := cw.name(m.Root)
	fmt.Fprintf(b, "cluster = %s;\nsearch = %d;\n", root, m.Search)
	if m.RunWork > 0 {
		// The extended model's statement (machine.Machine.RunWork): the
		// original Predictor does not read it.
		fmt.Fprintf(b, "runwork = %s;\n", micro(m.RunWork))
	}
	if m.IOByte > 0 {
		// The extended model's statement (machine.Machine.IOByte), in ns
		// per byte.
		fmt.Fprintf(b, "iobyte = %s;\n", strconv.FormatFloat(m.IOByte*1e9, 'f', -1, 64))
	}
	if m.Contention > 0 {
		// The extended model's statement (machine.Machine.Contention), in
		// percent per busy neighbour.
		fmt.Fprintf(b, "contention = %s;\n", strconv.FormatFloat(m.Contention*100, 'f', -1, 64))
	}
	if m.Strided > 0 {
		// The extended model's statement (machine.Machine.Strided), in ns
		// per iteration.
		fmt.Fprintf(b, "strided = %s;\n", strconv.FormatFloat(m.Strided*1e9, 'f', -1, 64))
	}
	if m.FreshPage > 0 {
		// The extended model's statement (machine.Machine.FreshPage), in
		// µs per page.
		fmt.Fprintf(b, "freshpage = %s;\n", micro(m.FreshPage))
	}
	cw.define(m.Root)
	return b.Flush()
}

// clusterWriter writes each distinct cluster of a tree once.
type clusterWriter struct {
	b     *bufio.Writer
	names map[string]string        // a cluster's structure (key) -> its name in the file
	of    map[*machine.Node]string // a node's name, once known
	used  map[string]bool          // names given
}

// name is the file's name of n's cluster, given on first sight of its
// structure: its own values and its sub-clusters' names.
func (cw *clusterWriter) name(n *machine.Node) string {
	if name, ok := cw.of[n]; ok {
		return name
	}
	var children []string
	for _, c := range n.Children {
		children = append(children, cw.name(c))
	}
	kb, _ := json.Marshal(struct {
		Power, TStart, TByte float64
		Channels             int
		Comm                 string
		Messages             []machine.MessagePoint
		Children             []string
	}{n.Power, n.TStart, n.TByte, n.Channels, fileCommType(n), n.Messages, children})
	k := string(kb)
	name, ok := cw.names[k]
	if !ok {
		name = Name(n.Name)
		for i := 2; cw.used[name]; i++ {
			name = fmt.Sprintf("%s%d", Name(n.Name), i)
		}
		cw.names[k], cw.used[name] = name, true
	}
	cw.of[n] = name
	return name
}

// define writes n's definition and then its sub-clusters', each distinct
// cluster once.
func (cw *clusterWriter) define(n *machine.Node) {
	done := map[string]bool{}
	var walk func(n *machine.Node)
	walk = func(n *machine.Node) {
		name := cw.name(n)
		if done[name] {
			return
		}
		done[name] = true
		if n.IsLeaf() {
			fmt.Fprintf(cw.b, "\n%s = %s;\n", name, strconv.FormatFloat(n.Power, 'f', -1, 64))
			return
		}
		var items []string
		for i := 0; i < len(n.Children); {
			j := i + 1
			for j < len(n.Children) && cw.name(n.Children[j]) == cw.name(n.Children[i]) {
				j++
			}
			items = append(items, fmt.Sprintf("%d x %s", j-i, cw.name(n.Children[i])))
			i = j
		}
		fmt.Fprintf(cw.b, "\n%s = {%s};\n%s.CommType = %s;\n%s.TStart = %s;\n%s.TByte = %s;\n",
			name, strings.Join(items, ", "), name, fileCommType(n), name, micro(n.TStart), name, micro(n.TByte))
		if len(n.Messages) > 0 {
			// The extended model's statement (machine.Node.Messages).
			points := make([]string, len(n.Messages))
			for i, p := range n.Messages {
				points[i] = fmt.Sprintf("%d : %s", p.Bytes, micro(p.Seconds))
			}
			fmt.Fprintf(cw.b, "%s.messages = %s;\n", name, strings.Join(points, ", "))
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
}

// fileCommType is the file's communication type of cluster n: ethernet and
// transputer as named (one channel), any other as myrinet with n's
// channels.
func fileCommType(n *machine.Node) string {
	if (n.CommType == "ethernet" || n.CommType == "transputer") && n.Channels <= 1 {
		return n.CommType
	}
	return fmt.Sprintf("myrinet (%d)", max(n.Channels, 1))
}

// micro writes seconds as the file's microseconds, without an exponent,
// as machine files want them.
func micro(s float64) string { return strconv.FormatFloat(s*1e6, 'f', -1, 64) }

// Name makes s an identifier of a machine file: its letters, digits and
// underscores, in lower case as Parse reads names ("network" when none),
// not starting with a digit.
func Name(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		return "network"
	}
	if isDigit(name[0]) {
		return "m" + name
	}
	return name
}
