package console

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// bar is one bar of a chart; Part is a highlighted share of it: the
// errors among its calls.
type bar struct {
	Label       string
	Value, Part float64
}

// Chart geometry, in percent of the drawing's width and height: the SVG
// has no viewBox, so it fills its box without stretching its text, which
// keeps its font size at any width.
const (
	chartTop    = 5.0  // the highest bar's top
	chartBottom = 83.0 // the axis
	chartLabelY = 96.0 // the x labels' baseline
)

// barChart draws bars as an inline SVG that fills its container. Every bar
// carries its figure as a title (a tooltip on hover over its whole slot,
// so an empty day has one too) and, focusable with the keyboard, as its
// accessible name. No script or style attribute: the page's CSP forbids
// both.
func barChart(title string, bars []bar, unit string) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p class="empty">No data in this range.</p>`)
	}
	max := 0.0
	for _, b := range bars {
		max = math.Max(max, b.Value)
	}
	if max == 0 {
		max = 1
	}
	slot := 100 / float64(len(bars))
	bw := slot * 0.7
	height := func(v float64) float64 { return (chartBottom - chartTop) * v / max }
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="chart" role="group" aria-label="%s">`, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<title>%s</title>`, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<line class="axis" x1="0" y1="%.0f%%" x2="100%%" y2="%.0f%%"/>`, chartBottom, chartBottom)
	labelEvery := int(math.Ceil(float64(len(bars)) / 10))
	for i, b := range bars {
		x := float64(i)*slot + (slot-bw)/2
		value := b.Label + ": " + quantity(b.Value, unit)
		if b.Part > 0 {
			value += ", " + figure(b.Part) + " of them " + plural(b.Part, "an error", "errors")
		}
		fmt.Fprintf(&sb, `<g tabindex="0" role="img" aria-label="%[1]s"><title>%[1]s</title>`, template.HTMLEscapeString(value))
		fmt.Fprintf(&sb, `<rect class="hit" x="%.2f%%" y="%.0f%%" width="%.2f%%" height="%.0f%%"/>`, float64(i)*slot, chartTop, slot, chartBottom-chartTop)
		bh := height(b.Value)
		fmt.Fprintf(&sb, `<rect class="bar" x="%.2f%%" y="%.2f%%" width="%.2f%%" height="%.2f%%"/>`, x, chartBottom-bh, bw, bh)
		if b.Part > 0 {
			ph := height(b.Part)
			fmt.Fprintf(&sb, `<rect class="bar-part" x="%.2f%%" y="%.2f%%" width="%.2f%%" height="%.2f%%"/>`, x, chartBottom-ph, bw, ph)
		}
		sb.WriteString(`</g>`)
		if i%labelEvery == 0 {
			// The first label starts at its bar rather than centring on it,
			// which would cut it at the chart's left edge.
			anchor, lx := "middle", x+bw/2
			if i == 0 {
				anchor, lx = "start", x
			}
			fmt.Fprintf(&sb, `<text class="label" x="%.2f%%" y="%.0f%%" text-anchor="%s">%s</text>`, lx, chartLabelY, anchor, template.HTMLEscapeString(b.Label))
		}
	}
	fmt.Fprintf(&sb, `<text class="label" x="2" y="%.0f%%" dominant-baseline="hanging">%s</text>`, chartTop, template.HTMLEscapeString(quantity(max, unit)))
	sb.WriteString(`</svg>`)
	return template.HTML(sb.String())
}

// singular is the unit a chart says of a figure of exactly one.
var singular = map[string]string{" calls": " call"}

// quantity is a figure with its unit: "1 call", "3 calls", "40 ms".
func quantity(v float64, unit string) string {
	if one, ok := singular[unit]; ok && v == 1 {
		unit = one
	}
	return figure(v) + unit
}

func plural(v float64, one, many string) string {
	if v == 1 {
		return one
	}
	return many
}

func figure(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
