package ordersched

// InlineBytes is the largest encoded value (an order's arguments, or its
// result) that travels with the coordinator's own messages in a run in
// worker processes, rather than straight from the node that holds it to
// the node that uses it: one message more through another node costs
// about as much as 8 KB crossing twice on this project's machines (a
// round trip of about 0.3 ms, 30–60 MB/s), and the coordinator keeps such
// values, so that a lost node does not lose them. The runtime (package
// orders) and the simulator (sim/ordersim, through a hub) both follow it.
const InlineBytes = 8 << 10
