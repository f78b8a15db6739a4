package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// pingStore is a store whose Ping fails while down.
type pingStore struct {
	gtmgate.Store
	down bool
}

func (s pingStore) Ping(context.Context) error {
	if s.down {
		return errors.New("dial tcp db.internal.example:5432: connection refused")
	}
	return nil
}

type auditState struct {
	err       error
	journaled bool
}

func (a auditState) Check() error    { return a.err }
func (a auditState) Backlog() uint64 { return 3 }
func (a auditState) Journaled() bool { return a.journaled }

type cacheState int

func (c cacheState) Servable() int { return int(c) }

// TestHealthReadiness holds /health/ready, /health and /health/live to the
// matrix of what a replica can serve: a store outage keeps it ready
// (degraded) while the cache can answer and the audit journal is durable;
// it is not ready when it cannot serve, starting or draining. Answers name
// no host or path.
func TestHealthReadiness(t *testing.T) {
	t.Parallel()
	journal := auditState{journaled: true}
	for _, tc := range []struct {
		name      string
		storeDown bool
		audit     auditState
		cache     cacheState
		state     int32
		snapshot  string
		status    int
		body      string
		reason    string
		live      int
	}{
		{"store up", false, journal, 0, Serving, "", 200, "ok", "", 200},
		{"store up, snapshot degraded", false, journal, 0, Serving, "degraded", 200, "degraded", "hubspot calls fail", 200},
		{"store down, warm cache, journal", true, journal, 5, Serving, "", 200, "degraded", "serving calls from the cache and the audit journal", 200},
		{"store down, cold cache", true, journal, 0, Serving, "", 503, "unavailable", "cache holds no credential", 200},
		{"store down, no journal", true, auditState{}, 5, Serving, "", 503, "unavailable", "no audit journal", 200},
		{"audit not durable", false, auditState{journaled: true, err: errors.New("disk /var/lib/gtmgate full")}, 5, Serving, "", 503, "unavailable", "cannot be made durable", 200},
		{"store down, journal not durable", true, auditState{journaled: true, err: errors.New("disk full")}, 5, Serving, "", 503, "unavailable", "cannot be made durable", 200},
		{"starting", false, journal, 0, Starting, "", 503, "unavailable", "starting", 200},
		{"draining", false, journal, 0, Draining, "", 503, "unavailable", "draining", 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lc := &Lifecycle{}
			lc.state.Store(tc.state)
			opts := Options{Auth: &Authenticator{}, Store: pingStore{down: tc.storeDown}, StoreBackend: "postgres",
				Audit: tc.audit, Cache: tc.cache, Lifecycle: lc}
			if tc.snapshot != "" {
				opts.Snapshot = func(context.Context) (string, []string, time.Time) {
					return tc.snapshot, []string{"hubspot calls fail at 100%"}, time.Now()
				}
			}
			srv := New(opts)
			for _, path := range []string{"/health/ready", "/health"} {
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
				var h Health
				if err := json.Unmarshal(w.Body.Bytes(), &h); err != nil {
					t.Fatalf("%s: %v: %s", path, err, w.Body)
				}
				if w.Code != tc.status || h.Status != tc.body || h.Ready != (tc.status == 200) ||
					!slices.ContainsFunc(h.Reasons, func(r string) bool { return strings.Contains(r, tc.reason) }) && tc.reason != "" {
					t.Errorf("%s = %d %s, want %d %q with a reason containing %q", path, w.Code, w.Body, tc.status, tc.body, tc.reason)
				}
				if h.Store.Reachable == tc.storeDown || h.Cache == nil || h.Cache.Servable != int(tc.cache) || h.Audit == nil || h.Audit.Journaled != tc.audit.journaled {
					t.Errorf("%s parts = %+v %+v %+v", path, h.Store, h.Cache, h.Audit)
				}
				if b := w.Body.String(); strings.Contains(b, "db.internal") || strings.Contains(b, "/var/lib") {
					t.Errorf("%s shows a host or path: %s", path, b)
				}
				if w.Header().Get("Cache-Control") != "no-store" {
					t.Errorf("%s: Cache-Control %q", path, w.Header().Get("Cache-Control"))
				}
			}
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequest("GET", "/health/live", nil))
			var l Liveness
			json.Unmarshal(w.Body.Bytes(), &l)
			if w.Code != tc.live || (l.Status == "ok") != (tc.live == http.StatusOK) {
				t.Errorf("/health/live = %d %s, want %d", w.Code, w.Body, tc.live)
			}
		})
	}
}

// TestLifecycle: serving follows starting only; draining is for good.
func TestLifecycle(t *testing.T) {
	var l *Lifecycle
	if l.State() != Serving {
		t.Error("a nil Lifecycle is not serving")
	}
	l = &Lifecycle{}
	if l.State() != Starting {
		t.Error("a new Lifecycle is not starting")
	}
	l.Serve()
	l.Drain()
	l.Serve()
	if l.State() != Draining {
		t.Error("Serve after Drain left draining")
	}
}
