package fit

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WritePar writes the machine of p on h as a machine file in the cluster
// format (docs/model.md §1.6; times in µs) with slots processors per node,
// preceded by comment lines. A machine file has no place for the
// oversubscription latency: it is in the comments, and a prediction on
// the file alone models processes that do not outnumber cores.
func WritePar(w io.Writer, name string, h Host, p Params, slots int, comments []string) error {
	b := bufio.NewWriter(w)
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			fmt.Fprintf(b, "// %s\n", l)
		}
	}
	comm := commType(h.Network)
	fmt.Fprintf(b, "// network: %s\ncluster = %s;\nsearch=0;\n", h.Network, name)
	if p.RunWork > 0 {
		// The extended model's statement (machine.Machine.RunWork): the
		// original Predictor does not read it.
		fmt.Fprintf(b, "runwork = %s;\n", plain(p.RunWork*1e6))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "%s = {%d x %sN};\n%s.CommType = %s;\n%s.TStart = %s;\n%s.TByte = %s;\n\n",
		name, h.Nodes, name, name, comm, name, plain(p.TStart[0]*1e6), name, plain(p.TByte[0]*1e6))
	fmt.Fprintf(b, "%sN = {%d x %sP};\n%sN.CommType = %s;\n%sN.TStart = %s;\n%sN.TByte = %s;\n\n",
		name, max(slots, 1), name, name, comm, name, plain(p.TStart[1]*1e6), name, plain(p.TByte[1]*1e6))
	fmt.Fprintf(b, "%sP = %s;\n", name, plain(p.Power))
	return b.Flush()
}

// plain writes v without an exponent, as machine files want it, to six
// significant digits.
func plain(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// commType is the machine file's communication type of a network: the
// file knows myrinet (N), ethernet and transputer, which do not change the
// timing; another network is written as one myrinet channel.
func commType(network string) string {
	switch network {
	case "ethernet", "transputer":
		return network
	}
	return "myrinet (1)"
}

// parToken makes a name usable as a machine file's identifier.
func parToken(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "network"
	}
	return b.String()
}

// ParName makes a machine name usable in a machine file.
func ParName(s string) string { return parToken(s) }
