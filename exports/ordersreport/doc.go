// Package ordersreport writes the HTML report of an orders simulation
// (seed 004, stage 4): the run time with its work/span bounds, a per-node
// timeline (a Gantt chart in SVG: the stretches the orders ran coloured
// by procedure, the time a node held only suspended orders in grey) with
// the critical path highlighted, every node's load split into busy,
// transfer, waiting and idle time, the sums of the orders by procedure,
// the critical path step by step, and — when the simulation belongs to a
// sweep of cluster sizes — the speedup against the node count beside the
// range the work and span allow, with the smallest cluster that meets a
// deadline.
package ordersreport
