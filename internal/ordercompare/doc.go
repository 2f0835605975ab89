// Package ordercompare owns the comparison of two orders runs order by
// order: a real run (a measured run stored from its measured-run file,
// orders/measured) and a simulation of the same program (sim/ordersim),
// or any two stored orders runs. Orders are matched by their place in the
// tree of orders — main with main, then the k-th child of matched parents
// with each other — since the numbers of a recorded trace and of a real
// run differ. Matched orders are put side by side (start, end, duration,
// running time, node or worker), procedures compared by their stored
// sums (orders, mean duration, running time), and the makespans; orders
// without a counterpart (a real run of another size, another program)
// are counted and named by the roots of their subtrees.
//
// It is a pure function of schema/stored values; exports/comparereport
// writes the result beside sim/compare's.
package ordercompare
