// Package jobstest pins where jobs go: each package that defines a job kind
// lists its kinds with the queue and priority they must land on, as River
// places them, so a job moved to another queue fails a test.
package jobstest

import (
	"cmp"
	"testing"

	"github.com/riverqueue/river"
)

// Pin is where one kind of job must land.
type Pin struct {
	Name string        // the case, for messages
	Args river.JobArgs // a job of the kind
	// Opts are the options its insert passes, if any (they override the
	// kind's own InsertOpts field by field, as River does).
	Opts     *river.InsertOpts
	Kind     string
	Queue    string
	Priority int
}

// Place returns the queue and priority River gives a job of args inserted
// with opts: the insert's options, then the kind's own, then River's
// defaults (queue "default", priority 1).
func Place(args river.JobArgs, opts *river.InsertOpts) (queue string, priority int) {
	var own river.InsertOpts
	if a, ok := args.(river.JobArgsWithInsertOpts); ok {
		own = a.InsertOpts()
	}
	if opts == nil {
		opts = &river.InsertOpts{}
	}
	return cmp.Or(opts.Queue, own.Queue, river.QueueDefault), cmp.Or(opts.Priority, own.Priority, 1)
}

// Check fails t for every pin whose job has another kind or lands
// elsewhere.
func Check(t testing.TB, pins []Pin) {
	t.Helper()
	for _, p := range pins {
		if k := p.Args.Kind(); k != p.Kind {
			t.Errorf("%s: kind %q, want %q", p.Name, k, p.Kind)
		}
		if q, pr := Place(p.Args, p.Opts); q != p.Queue || pr != p.Priority {
			t.Errorf("%s: its %s job lands on queue %q at priority %d, want queue %q at priority %d", p.Name, p.Kind, q, pr, p.Queue, p.Priority)
		}
	}
}
