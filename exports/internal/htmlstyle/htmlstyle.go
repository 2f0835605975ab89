// Package htmlstyle owns the look the HTML exports (the run report, the
// comparison, the sweep, orders, calibration and fit reports) share: a
// base stylesheet that each page inlines ahead of its own rules, with the
// charts' (exports/internal/chart), the CSS of the bars they draw, and the set-up
// of a page's template.
package htmlstyle

import (
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"sync"

	"github.com/presage-dvm/presage/exports/internal/chart"
)

//go:embed base.css
var base string

// Base is the shared stylesheet: the base rules, then the charts'.
var Base = template.CSS(base + chart.CSS)

// Sheet returns the stylesheet of a page: Base, then the page's own rules,
// which come later so that they win over Base where both apply.
func Sheet(own string) template.CSS { return Base + template.CSS(own) }

// Width formats a bar length, a percentage clamped to [0, 100], as a CSS
// width property.
func Width(pct float64) template.CSS {
	return template.CSS(fmt.Sprintf("width: %.1f%%", math.Min(math.Max(pct, 0), 100)))
}

// Page returns a page's template, named name, with the functions every
// page may call: css, the page's stylesheet (Sheet of own, its own
// rules), and pctcss (Width). The template is parsed at its first use,
// not when the program starts: every command links every report, and
// most write none. It panics on a template that does not parse, as
// template.Must does: the templates are the program's own, and each
// report's tests parse it.
func Page(name, text, own string) func() *template.Template {
	return sync.OnceValue(func() *template.Template {
		sheet := Sheet(own)
		return template.Must(template.New(name).Funcs(template.FuncMap{
			"css":    func() template.CSS { return sheet },
			"pctcss": Width,
		}).Parse(text))
	})
}
