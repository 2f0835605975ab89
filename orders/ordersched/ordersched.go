// Package ordersched names the rules that place orders on workers or
// nodes, the one list the runtime (package orders, run mode's
// -orders.scheduler) and the simulator (sim/ordersim) both follow, so
// that a prediction can be checked against a real run of the same rule.
// docs/orders-sim.md, "Schedulers", gives the rules in full.
package ordersched

import (
	"fmt"
	"strings"
)

// Name names a placement rule.
type Name string

// The rules. In each, an order suspended waiting for a result frees its
// core and resumes, ahead of any new order, on the one it started on
// (with migration: on any free one when its own is busy).
const (
	// FIFO keeps one queue of new orders; a free core takes its head,
	// the lowest-numbered free node without suspended orders first.
	FIFO Name = "fifo"
	// LeastLoaded places an order when it is made on the node with the
	// fewest unfinished orders (lowest number among equals), in that
	// node's queue.
	LeastLoaded Name = "least-loaded"
	// WorkStealing pushes a new order on its parent's node; a node runs
	// its newest order first and, when it has none, steals the oldest of
	// a victim drawn at random among the nodes with orders.
	WorkStealing Name = "work-stealing"
	// Locality places an order on its parent's node, which holds its
	// arguments, unless that node has more than a slack of unfinished
	// orders above the least loaded; then it places it as LeastLoaded.
	Locality Name = "locality"
)

// All lists every rule, for flags, help and sweeps.
var All = []Name{FIFO, LeastLoaded, WorkStealing, Locality}

// Default is the rule of both engines when none is chosen.
const Default = FIFO

// Parse returns the rule called s ("" is Default), or an error listing the
// rules.
func Parse(s string) (Name, error) {
	if s == "" {
		return Default, nil
	}
	for _, n := range All {
		if string(n) == s {
			return n, nil
		}
	}
	return "", fmt.Errorf("unknown scheduler %q (expected one of %s)", s, List())
}

// List is the rules' names separated by commas, for messages and help.
func List() string {
	names := make([]string, len(All))
	for i, n := range All {
		names[i] = string(n)
	}
	return strings.Join(names, ", ")
}

// Rand is the seeded generator WorkStealing draws its victims from, in
// both engines (splitmix64).
type Rand uint64

// NewRand returns the generator of seed.
func NewRand(seed uint64) Rand { return Rand(seed ^ 0x9e3779b97f4a7c15) }

// Intn returns a number in [0, n), n > 0.
func (r *Rand) Intn(n int) int {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}
