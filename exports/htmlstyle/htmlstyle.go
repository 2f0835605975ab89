// Package htmlstyle owns the look the HTML exports (the run report, the
// comparison, the sweep report) share: a base stylesheet that each page
// inlines ahead of its own rules, and the CSS of the bars they draw.
package htmlstyle

import (
	_ "embed"
	"fmt"
	"html/template"
	"math"
)

//go:embed base.css
var base string

// Base is the shared stylesheet.
var Base = template.CSS(base)

// Sheet returns the stylesheet of a page: Base, then the page's own rules,
// which come later so that they win over Base where both apply.
func Sheet(own string) template.CSS { return Base + template.CSS(own) }

// Width formats a bar length, a percentage clamped to [0, 100], as a CSS
// width property.
func Width(pct float64) template.CSS {
	return template.CSS(fmt.Sprintf("width: %.1f%%", math.Min(math.Max(pct, 0), 100)))
}
