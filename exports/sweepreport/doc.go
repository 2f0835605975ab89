// Package sweepreport owns the HTML report of a stored sweep: one
// self-contained HTML5 page (inline CSS and inline SVG, no script, no
// external resource) with the sweep's summary, line charts of execution
// time, efficiency and speedup against the number of processors (one line
// per series), a stacked chart of the lost-time breakdown per interval of
// one configuration, and tables of the best configurations.
//
// A series is a distinct (network, tstart, tbyte, power, machine)
// combination among the sweep's runs. When a series has several grids with
// the same number of processors (2x8 and 4x4), its line follows the
// fastest one and the others are drawn as hollow markers at the same
// abscissa, so every configuration stays visible. Speedup is relative to
// the time of the series' smallest processor count. Every number comes from
// the store; the charts are drawn by this package's own small SVG code.
package sweepreport
