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

// barChart draws bars as an inline SVG that scales to its container. Every
// bar carries its figure as a title (a tooltip on hover over its whole
// slot, so an empty day has one too) and, focusable with the keyboard, as
// its accessible name. No script or style attribute: the page's CSP
// forbids both.
func barChart(title string, bars []bar, unit string) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p class="empty">No data in this range.</p>`)
	}
	const w, h, top, bottom = 600.0, 180.0, 10.0, 30.0
	max := 0.0
	for _, b := range bars {
		max = math.Max(max, b.Value)
	}
	if max == 0 {
		max = 1
	}
	slot := w / float64(len(bars))
	bw := math.Max(1, slot*0.7)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="group" aria-label="%s" preserveAspectRatio="none">`, w, h, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<title>%s</title>`, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<line class="axis" x1="0" y1="%.0f" x2="%.0f" y2="%.0f"/>`, h-bottom, w, h-bottom)
	labelEvery := int(math.Ceil(float64(len(bars)) / 10))
	for i, b := range bars {
		x := float64(i)*slot + (slot-bw)/2
		bh := (h - top - bottom) * b.Value / max
		value := b.Label + ": " + figure(b.Value) + unit
		if b.Part > 0 {
			value += ", " + figure(b.Part) + " of them errors"
		}
		fmt.Fprintf(&sb, `<g tabindex="0" role="img" aria-label="%[1]s"><title>%[1]s</title>`, template.HTMLEscapeString(value))
		fmt.Fprintf(&sb, `<rect class="hit" x="%.1f" y="%.0f" width="%.1f" height="%.0f"/>`, float64(i)*slot, top, slot, h-bottom-top)
		fmt.Fprintf(&sb, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x, h-bottom-bh, bw, bh)
		if b.Part > 0 {
			ph := (h - top - bottom) * b.Part / max
			fmt.Fprintf(&sb, `<rect class="bar-part" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x, h-bottom-ph, bw, ph)
		}
		sb.WriteString(`</g>`)
		if i%labelEvery == 0 {
			// The first label starts at its bar rather than centring on it,
			// which would cut it at the chart's left edge.
			anchor, lx := "middle", x+bw/2
			if i == 0 {
				anchor, lx = "start", x
			}
			fmt.Fprintf(&sb, `<text class="label" x="%.1f" y="%.0f" text-anchor="%s">%s</text>`, lx, h-bottom+16, anchor, template.HTMLEscapeString(b.Label))
		}
	}
	fmt.Fprintf(&sb, `<text class="label" x="2" y="%.0f">%s%s</text>`, top+2, figure(max), template.HTMLEscapeString(unit))
	sb.WriteString(`</svg>`)
	return template.HTML(sb.String())
}

func figure(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
