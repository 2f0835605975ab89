package main

import (
	"fmt"
	"os"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/sim/compare"
	"github.com/presage-dvm/presage/sim/fit"
)

// hostFlags describe the machine a measurement ran on, by flags or by a
// machine file whose root cluster's children are the nodes.
type hostFlags struct {
	HostFile     string `help:"Machine file (.par) of the host the measurement ran on: the root cluster's children are its nodes, their processors its cores." type:"existingfile" placeholder:"FILE.par"`
	Nodes        int    `help:"Nodes of the host the measurement ran on." default:"1"`
	CoresPerNode int    `help:"Cores per node of the host (0: not described)." placeholder:"N"`
	Network      string `help:"The host's interconnect, as a name (shared-memory, ethernet, ...)." default:"shared-memory"`
}

// host returns the described host, and whether there is one.
func (h hostFlags) host() (fit.Host, bool, error) {
	if h.HostFile != "" {
		// A FIFO would block the command until a writer came.
		if err := ingest.CheckRegular(h.HostFile); err != nil {
			return fit.Host{}, false, fmt.Errorf("--host-file: %w", err)
		}
		f, err := os.Open(h.HostFile)
		if err != nil {
			return fit.Host{}, false, err
		}
		defer f.Close()
		m, err := machinefile.Parse(f, h.HostFile)
		if err != nil {
			return fit.Host{}, false, err
		}
		c := m.Cluster()
		return fit.Host{Nodes: c.Nodes, CoresPerNode: c.CoresPerNode(), Network: m.Root.CommType}, true, nil
	}
	if h.CoresPerNode == 0 {
		return fit.Host{}, false, nil
	}
	host := fit.Host{Nodes: h.Nodes, CoresPerNode: h.CoresPerNode, Network: h.Network}
	return host, true, host.Check()
}

// hostFacts describe a host for a run of procs processes.
func hostFacts(h fit.Host, procs int) []compare.Fact {
	over := "no"
	if h.Oversubscribed(procs) {
		over = fmt.Sprintf("yes: %d processes on %d cores (%.3g per core)", procs, h.Cores(), h.ProcsPerCore(procs))
	}
	return []compare.Fact{
		{Label: "Nodes", Value: fmt.Sprint(h.Nodes)},
		{Label: "Cores per node", Value: fmt.Sprint(h.CoresPerNode)},
		{Label: "Network", Value: h.Network},
		{Label: "Oversubscribed", Value: over},
	}
}
