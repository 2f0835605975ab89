// Package chart owns how the HTML exports draw charts: inline SVG with no
// script and no external resource. It holds the one vocabulary of every
// chart the reports show:
//
//   - scales and axes, linear and logarithmic, with nice ticks whose
//     labels never overlap (Scale, Axis);
//   - the palette: Okabe–Ito's colour-blind-safe colours, once, with a
//     marker shape per series so that none relies on colour (Palette,
//     Style);
//   - line charts: series with markers and tooltips, the band a series
//     spans, reference lines such as the ideal speedup (LineChart);
//   - row charts: horizontal bars, stacked or around a reference value,
//     and Gantt rows of spans over time (Rows);
//   - legends, margins and the SVG writing helpers (Writer), and the
//     stylesheet of the charts' text (CSS), which exports/internal/htmlstyle
//     puts on every page.
//
// A report keeps only what it shows: it turns its data into these
// values and calls SVG. Every chart is labelled for assistive technology
// (role img, a title and a description) and scales to its container.
package chart
