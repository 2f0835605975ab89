// Package htmlreport owns the HTML report of a stored run: one
// self-contained HTML5 file (inline CSS, no script) with the content of the
// original DVM Predictor's report (docs/model.md §8.1) — one section per interval
// in pre-order with its characteristics, the per-operation-class table, the
// nested intervals and the original's UP/PREV/NEXT/HOME links — preceded by
// a run summary and a collapsible interval tree.
package htmlreport
