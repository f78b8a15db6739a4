// Package favicon is gtmgate's icon, served at /favicon.ico by the gateway
// (and its console), the site and the docs host, so that a browser asking
// for it gets an icon, not a 404 in each listener's logs and metrics.
package favicon

import "net/http"

// Path is where every listener serves the icon; the console's and the
// content pages' layouts link it.
const Path = "/favicon.ico"

// SVG is the icon: a gate, two posts and two bars, white on the console's
// accent blue. Browsers take an SVG icon whatever the path's extension.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<rect width="32" height="32" rx="7" fill="#0b5cad"/>` +
	`<path d="M10 7v18M22 7v18M10 13h12M10 19h12" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`

// Handler serves SVG, cached for a day.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		if r.Method != http.MethodHead {
			w.Write([]byte(SVG))
		}
	})
}
