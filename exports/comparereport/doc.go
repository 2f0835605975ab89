// Package comparereport writes a comparison of a measured and a predicted
// run (sim/compare.Comparison) as text, JSON or a self-contained HTML page;
// for two orders runs, with their comparison order by order
// (internal/ordercompare.Comparison): per procedure, the orders whose
// durations differ most, and the orders without a counterpart.
package comparereport
