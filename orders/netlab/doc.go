// Package netlab builds, for tests, a small network of Linux network
// namespaces shaped like a cluster of the orders runtime: a hub (the
// coordinator's computer) joined to each of its spokes (the workers'
// computers) by a link of a given delay and rate.
//
// A link is a veth pair shaped by tc netem where the kernel has netem.
// Where it has not (CI's kernel is built without sch_netem), a link is a
// pair of TUN devices whose packets the process that built the network
// carries from one end to the other, each after the link's delay and at
// its rate, as netem would: the kernels at both ends run real TCP over
// it. Building a network needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN).
package netlab
