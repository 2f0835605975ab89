// Package ordersreport writes the HTML report of an orders simulation
// (seed 004, stage 4): the run time with its work/span bounds, a per-node
// timeline (a Gantt chart in SVG) with the critical path highlighted,
// every node's load split into busy, transfer, waiting and idle time, the
// critical path step by step, and — when the simulation belongs to a
// sweep of cluster sizes — the speedup against the node count beside the
// range the work and span allow, with the smallest cluster that meets a
// deadline.
package ordersreport
