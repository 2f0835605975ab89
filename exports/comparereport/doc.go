// Package comparereport writes a comparison of a measured and a predicted
// run (sim/compare.Comparison) as text, JSON or a self-contained HTML page.
package comparereport
