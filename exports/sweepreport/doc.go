// Package sweepreport owns the HTML report of a stored sweep: one
// self-contained HTML5 page (inline CSS and inline SVG, no script, no
// external resource) with the sweep's summary, line charts of execution
// time, efficiency and speedup against the number of processors (one line
// per series), a stacked chart of the lost-time breakdown per interval of
// one configuration, and tables of the best configurations.
//
// The charts stay readable at any sweep size (docs/sweep-report.md): the
// lines of a chart are the values of one varied parameter (at most
// maxSeries, each with its own colour-blind-safe colour and marker), the
// combinations of the other varied parameters are facets (at most
// maxFacets charts per quantity) and what does not fit is pooled. At each
// processor count a line follows the fastest configuration and a band
// spans all of them (every grid, every pooled value); lines and bands are
// reduced to one point per pixel column, so a page's size depends on the
// charts' width, not on the number of configurations. Speedup is relative
// to the fastest configuration at a series' smallest processor count.
// Every number comes from the store; the charts are drawn by
// exports/internal/chart, whose scales, palette and markers every report shares.
package sweepreport
