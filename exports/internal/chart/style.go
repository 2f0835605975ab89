package chart

import _ "embed"

// CSS is the stylesheet of the charts' text and size, which every page
// that shows a chart inlines (exports/internal/htmlstyle's Sheet does).
//
//go:embed chart.css
var CSS string
