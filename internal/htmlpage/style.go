// Package htmlpage holds what every HTML page of gobench-dyn shares, so
// that the run report, the history page and the abs page look alike
// without importing one another: the style sheet, the palette, and plots
// drawn with gonum/plot as inline SVG.
package htmlpage

import (
	_ "embed"
	"html/template"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

//go:embed style.css
var style string

// Style is the style sheet of every page, for its <style> element.
var Style = template.CSS(style)

// Percent formats a share with two decimals below 10% and one above, and
// SignedPercent a change with its sign: "+21.2%".
var (
	Percent       = render.Percent{Digits: 2, Steps: []render.Step{{From: 0.1, Digits: 1}}, NaN: "—"}.Format
	SignedPercent = render.Percent{Digits: 2, Steps: []render.Step{{From: 0.1, Digits: 1}}, NaN: "—", Sign: true}.Format
)
