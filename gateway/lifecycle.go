package gateway

import "sync/atomic"

// Lifecycle is where the process is in its life: starting (listening, not
// yet serving calls), serving, or draining (shutting down). /health/ready
// answers 503 outside serving, /health/live only while draining.
type Lifecycle struct {
	state atomic.Int32
}

// Lifecycle states.
const (
	Starting int32 = iota
	Serving
	Draining
)

// Serve marks the process as serving calls.
func (l *Lifecycle) Serve() { l.state.CompareAndSwap(Starting, Serving) }

// Drain marks the process as shutting down; it never serves again.
func (l *Lifecycle) Drain() { l.state.Store(Draining) }

// State returns the current state; a nil Lifecycle is always Serving.
func (l *Lifecycle) State() int32 {
	if l == nil {
		return Serving
	}
	return l.state.Load()
}
