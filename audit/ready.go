package audit

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// DefaultMinFreeBytes is the free space the journal's file system must keep
// for the journal to take records.
const DefaultMinFreeBytes = 16 << 20

// spaceCheckEvery bounds how often the free space is measured.
const spaceCheckEvery = 250 * time.Millisecond

// readiness tracks whether a record can be made durable now: through the
// journal (its file system has headroom and its last append worked) or, when
// the journal cannot take it, through the store (its last write worked).
type readiness struct {
	mu          sync.Mutex
	checkedAt   time.Time
	spaceErr    error
	appendErr   error
	appendErrAt time.Time
	storeErr    error
	storeErrAt  time.Time
}

// storeFailFor is how long a failed store write makes the store count as
// failing; after it a record is tried again.
const storeFailFor = 2 * time.Second

// ErrNotDurable wraps the reason a call's record cannot be made durable.
var ErrNotDurable = errors.New("audit: records cannot be made durable")

// journalUsable reports whether the journal should take the next record.
func (w *Writer) journalUsable() error {
	r := &w.ready
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.Sub(r.checkedAt) >= spaceCheckEvery {
		r.checkedAt = now
		r.spaceErr = nil
		free, err := w.opts.FreeBytes(w.opts.JournalDir)
		switch {
		case err != nil:
			r.spaceErr = fmt.Errorf("measure free space of the audit journal's disk: %w", err)
		case free < w.opts.MinFreeBytes:
			r.spaceErr = fmt.Errorf("the audit journal's disk has %d MiB free, under the %d MiB kept in reserve",
				free>>20, w.opts.MinFreeBytes>>20)
		}
	}
	if r.spaceErr != nil {
		return r.spaceErr
	}
	// A failed append is retried after a second, in case the cause has passed.
	if r.appendErr != nil && now.Sub(r.appendErrAt) < time.Second {
		return r.appendErr
	}
	return nil
}

func (w *Writer) noteAppend(err error) {
	w.ready.mu.Lock()
	w.ready.appendErr, w.ready.appendErrAt = err, time.Now()
	w.ready.mu.Unlock()
}

// noteStore remembers the outcome of the latest store write.
func (w *Writer) noteStore(err error) {
	w.ready.mu.Lock()
	w.ready.storeErr, w.ready.storeErrAt = err, time.Now()
	w.ready.mu.Unlock()
}

// storeFailing returns the latest store write's error while it is recent.
func (w *Writer) storeFailing() error {
	w.ready.mu.Lock()
	defer w.ready.mu.Unlock()
	if w.ready.storeErr != nil && time.Since(w.ready.storeErrAt) < storeFailFor {
		return w.ready.storeErr
	}
	return nil
}

// Check reports whether a call recorded now could be made durable. Callers
// check before running a call that changes something, so that a call whose
// record would be lost is refused rather than run unrecorded. The error is a
// *gtmgate.Error with code UNAVAILABLE naming the cause.
func (w *Writer) Check() error {
	var journalErr error
	if w.opts.JournalDir != "" {
		if journalErr = w.journalUsable(); journalErr == nil {
			return nil
		}
	}
	if storeErr := w.storeFailing(); storeErr != nil {
		return notDurable(journalErr, storeErr)
	}
	return nil
}

// notDurable is the UNAVAILABLE error of a record neither the journal (when
// journalErr is set) nor the store could take.
func notDurable(journalErr, storeErr error) *gtmgate.Error {
	cause := "store: " + storeErr.Error()
	if journalErr != nil {
		cause = "journal: " + journalErr.Error() + "; " + cause
	}
	return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the call was not run: its audit record cannot be made durable",
		Hint: "the operator must free disk space or restore the store (" + cause + "); retry afterwards",
		Err:  fmt.Errorf("%w: %s", ErrNotDurable, cause)}
}

// Journaled reports whether records go to the local journal first, so that
// they stay durable while the store is unreachable.
func (w *Writer) Journaled() bool { return w.opts.JournalDir != "" }
