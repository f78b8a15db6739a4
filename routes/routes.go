// Package routes records the patterns registered on a mux, so that a
// surface can list its routes (for its OpenAPI description and the test that
// holds the description to the routes) without a second, hand-kept list.
package routes

import (
	"net/http"
	"slices"

	"github.com/gtmgate/gtmgate"
)

// Recorder registers routes on a mux and remembers their patterns.
type Recorder struct {
	mux      gtmgate.Router
	patterns []string
}

// NewRecorder returns a Recorder registering on mux.
func NewRecorder(mux gtmgate.Router) *Recorder { return &Recorder{mux: mux} }

// Handle registers h for pattern.
func (r *Recorder) Handle(pattern string, h http.Handler) {
	r.patterns = append(r.patterns, pattern)
	r.mux.Handle(pattern, h)
}

// HandleFunc registers f for pattern.
func (r *Recorder) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	r.patterns = append(r.patterns, pattern)
	r.mux.HandleFunc(pattern, f)
}

// Patterns returns the recorded patterns in registration order.
func (r *Recorder) Patterns() []string { return slices.Clone(r.patterns) }
