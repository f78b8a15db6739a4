package toolrun

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/gtmgate/gtmgate"
)

// unreplayable codes are refusals before the call ran, not failures of the
// call: replaying one about who called as the operator would bypass the
// check that refused it, and input that did not validate fails the same way
// again. The caller fixes and resends such a call.
var unreplayable = map[string]bool{
	gtmgate.EUnauthorized: true, gtmgate.EForbidden: true, gtmgate.ETenantNotFound: true,
	gtmgate.EValidation: true,
}

// ReplayResult is the outcome of a replay, linked to its ledger entry.
type ReplayResult struct {
	EntryID   string   `json:"entry_id"`
	RequestID string   `json:"request_id"`
	OK        bool     `json:"ok"`
	Outcome   *Outcome `json:"outcome,omitempty"`
	Error     error    `json:"-"`
}

// Replay re-runs a failed call from the error ledger through the same path
// and links the outcome to the entry. A mutation that was already replayed
// successfully is refused (CONFLICT) unless force is set.
func (r *Runner) Replay(ctx context.Context, entryID string, force bool, by, requestID string) (*ReplayResult, error) {
	unlock := r.replays.lock(entryID)
	defer unlock()
	e, err := r.opts.Store.GetLedgerEntry(ctx, entryID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no error ledger entry %q", entryID)
	} else if err != nil {
		return nil, err
	}
	if e.Kind != gtmgate.LedgerFailure || e.Tool == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "ledger entry %s is %s %s, not a failed tool call", e.ID, article(string(e.Kind)), e.Kind)
	}
	if unreplayable[e.ErrorCode] {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "ledger entry %s was refused with %s before it ran; it cannot be replayed", e.ID, e.ErrorCode).
			WithHint("the caller fixes the call and sends it again")
	}
	if e.Mutating && !force {
		for _, rp := range e.Replays {
			if rp.OK {
				return nil, gtmgate.Errorf(gtmgate.EConflict, "ledger entry %s is a mutation already replayed successfully (request %s)", e.ID, rp.RequestID).
					WithHint(`send {"force": true} to run it again`)
			}
		}
	}
	out, callErr := r.Call(ctx, &Request{
		Principal: &gtmgate.Principal{TenantID: e.TenantID, KeyID: "replay:" + by, Kind: "replay"},
		TenantID:  e.TenantID, Tool: e.Tool, Input: e.Input, Source: e.Source, RequestID: requestID, replay: true,
	})
	rp := gtmgate.LedgerReplay{Time: r.opts.Now(), RequestID: requestID, OK: callErr == nil, ErrorCode: gtmgate.ErrorCode(callErr), Forced: force}
	if err := r.opts.Store.AddLedgerReplay(ctx, e.ID, rp); err != nil {
		if errors.Is(err, gtmgate.ErrConflict) {
			return nil, gtmgate.Errorf(gtmgate.EConflict, "ledger entry %s was replayed concurrently", e.ID)
		}
		return nil, err
	}
	return &ReplayResult{EntryID: e.ID, RequestID: requestID, OK: callErr == nil, Outcome: out, Error: callErr}, nil
}

// keyedMutex serialises work per key within this process.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	sync.Mutex
	refs int
}

func (k *keyedMutex) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyLock{}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}

// article is "an" before a vowel sound's letter, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
