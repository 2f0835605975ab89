package chart

// Swatch is how a legend item shows what it names.
type Swatch int

// The swatches: a line (dashed when the item has a Dash, with the item's
// marker on it), a filled box, a faint box (a band), a box's outline,
// and a marker alone.
const (
	SwatchLine Swatch = iota
	SwatchBox
	SwatchBand
	SwatchOutline
	SwatchMark
)

// LegendItem is one entry of a legend: a swatch and a name.
type LegendItem struct {
	Name   string
	Color  string
	Swatch Swatch
	Dash   string // stroke-dasharray of a line swatch
	Marker Marker
}

// LegendGroup is a run of items, with a title ahead of them when Title
// is not empty.
type LegendGroup struct {
	Title string
	Items []LegendItem
}

// The legend's geometry: the height of a row, the width of a swatch with
// its gap to the text, the gap between items.
const (
	legendRow    = 19.0
	legendSwatch = 30.0
	legendGap    = 18.0
)

// placed is a legend item at its place, relative to the legend's origin.
type placed struct {
	LegendItem
	x, y float64
}

// layoutLegend places the groups' items left to right in rows of the
// given width, each group on a new row after its title, and returns the
// places of the titles and the items and the legend's height.
func layoutLegend(groups []LegendGroup, width float64) (titles, items []placed, height float64) {
	y := 0.0
	for _, g := range groups {
		if len(g.Items) == 0 {
			continue
		}
		x0 := 0.0
		if g.Title != "" {
			titles = append(titles, placed{LegendItem: LegendItem{Name: g.Title}, y: y})
			x0 = TextWidth(g.Title) + 10
		}
		x := x0
		for _, it := range g.Items {
			w := legendSwatch + TextWidth(it.Name)
			if x > x0 && x+w > width {
				x, y = x0, y+legendRow
			}
			items = append(items, placed{LegendItem: it, x: x, y: y})
			x += w + legendGap
		}
		y += legendRow
	}
	return titles, items, y
}

// legendHeight is the height of the groups' legend in the given width.
func legendHeight(groups []LegendGroup, width float64) float64 {
	_, _, h := layoutLegend(groups, width)
	return h
}

// legend draws the groups' legend with its origin at (x0, y0) in the
// given width.
func (w *Writer) legend(groups []LegendGroup, x0, y0, width float64) {
	titles, items, _ := layoutLegend(groups, width)
	if len(items) == 0 {
		return
	}
	w.Printf(`<g class="legend">`)
	for _, t := range titles {
		w.Printf(`<text class="label" x="%s" y="%s" dy="0.32em">%s</text>`, Px(x0+t.x), Px(y0+t.y+legendRow/2), Esc(t.Name))
	}
	for _, it := range items {
		x, y := x0+it.x, y0+it.y+legendRow/2
		name := Truncate(it.Name, int((width-it.x-legendSwatch)/CharWidth))
		w.Printf(`<g class="item">`)
		w.swatch(it.LegendItem, x, y)
		w.Printf(`<text x="%s" y="%s" dy="0.32em">%s</text></g>`, Px(x+legendSwatch), Px(y), Esc(name))
	}
	w.Printf(`</g>`)
}

// swatch draws an item's swatch, 22 pixels wide, centred on y.
func (w *Writer) swatch(it LegendItem, x, y float64) {
	switch it.Swatch {
	case SwatchBox, SwatchBand:
		opacity := ""
		if it.Swatch == SwatchBand {
			opacity = ` fill-opacity="0.3"`
		}
		w.Printf(`<rect x="%s" y="%s" width="22" height="10" fill="%s"%s/>`, Px(x), Px(y-5), it.Color, opacity)
	case SwatchOutline:
		w.Printf(`<rect x="%s" y="%s" width="21" height="9" fill="none" stroke="%s" stroke-width="2"/>`, Px(x+0.5), Px(y-4.5), it.Color)
	case SwatchMark:
		w.mark(max(it.Marker, Circle), x+11, y, it.Color, "", "")
	default:
		w.Printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"`, Px(x), Px(y), Px(x+22), Px(y), it.Color)
		if it.Dash != "" {
			w.Printf(` stroke-dasharray="%s"`, it.Dash)
		}
		w.Printf(`/>`)
		w.mark(it.Marker, x+11, y, it.Color, "", "")
	}
}
