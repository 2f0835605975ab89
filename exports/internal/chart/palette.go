package chart

// The Okabe–Ito colour-blind-safe colours, by name, for what has a fixed
// meaning (busy time, the critical path, before and after a fit). Its
// black is a dark grey beside the axes and its yellow, pale on white, is
// darkened.
const (
	Blue       = "#0072b2"
	Vermillion = "#d55e00"
	Green      = "#009e73"
	Purple     = "#cc79a7" // reddish purple
	Orange     = "#e69f00"
	SkyBlue    = "#56b4e9"
	Black      = "#3a3a3a"
	Yellow     = "#c9b800"
)

// Palette is the Okabe–Ito palette for series, ordered so that the first
// colours are the most distinct.
var Palette = [...]string{Blue, Vermillion, Green, Purple, Orange, SkyBlue, Black, Yellow}

// The neutral colours of the charts' furniture.
const (
	AxisInk   = "#5b6675" // axis lines and ticks (the pages' muted ink)
	GridLine  = "#e3e7ec"
	PlotFill  = "#fbfcfd" // the plot area's tint
	LaneFill  = "#eef1f5" // a Gantt row's lane
	Reference = "#8a94a3" // reference lines and bands in legends
	Idle      = "#d9dee5" // time spent doing nothing (the pages' rule colour)
)

// Style returns the colour and marker of series i: each of the first
// len(Palette) series has its own of both, so that none relies on colour.
func Style(i int) (color string, marker Marker) {
	return Palette[i%len(Palette)], Marker(1 + i%numMarkers)
}
