package googleapi

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"sync"
)

// Guard is the front door of a Google sandbox: it counts requests, serves
// injected faults, and requires "Authorization: Bearer <Token>", answering
// 401 UNAUTHENTICATED with Google's body otherwise. The zero value is not
// usable; set Token.
type Guard struct {
	// Token is the one access token the sandbox accepts.
	Token string
	Faults
}

// Faults counts the requests that reach a Google sandbox and serves the
// faults tests inject, before anything else the sandbox checks.
type Faults struct {
	mu       sync.Mutex
	faults   []Fault
	requests int
}

// FailNext makes the next n requests fail with status (before the bearer
// check), each with Google's error body for that status. Tests use it to
// drive retries: FailNext(500, 1) fails one attempt.
func (f *Faults) FailNext(status, n int) { f.FailNextWith(Fault{Status: status}, n) }

// FailNextWith makes the next n requests fail with fault, such as one of
// Google's usage-limit errors (FaultUserRateLimit…).
func (f *Faults) FailNextWith(fault Fault, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.faults = append(f.faults, fault)
	}
}

// Requests returns how many requests reached the sandbox, faults included.
func (f *Faults) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// Wrap returns next behind the guard.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f, ok := g.Take(); ok {
			WriteFault(w, f)
			return
		}
		auth := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		switch {
		case auth == "":
			WriteAuthError(w, MsgMissingAuth)
		case !ok || subtle.ConstantTimeCompare([]byte(token), []byte(g.Token)) != 1:
			WriteAuthError(w, MsgUnauthenticated)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// WriteAuthError writes the 401 Google returns for a missing or refused token.
func WriteAuthError(w http.ResponseWriter, message string) {
	body := NewError(http.StatusUnauthorized, message)
	body.Error.Errors = []ErrorItem{{Message: "Invalid Credentials", Domain: "global", Reason: "authError",
		Location: "Authorization", LocationType: "header"}}
	w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
	WriteJSON(w, http.StatusUnauthorized, body)
}

// Take counts a request and returns the fault injected for it, if any.
func (f *Faults) Take() (Fault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if len(f.faults) == 0 {
		return Fault{}, false
	}
	next := f.faults[0]
	f.faults = f.faults[1:]
	return next, true
}

func faultMessage(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return MsgRateLimited
	case status == http.StatusServiceUnavailable:
		return MsgUnavailable
	case status >= 500:
		return MsgBackend
	case status == http.StatusUnauthorized:
		return MsgUnauthenticated
	default:
		return http.StatusText(status)
	}
}
