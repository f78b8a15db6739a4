package jobs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

type echoArgs struct {
	Text string `json:"text"`
}

func (echoArgs) Kind() string { return "test_echo" }

type echoWorker struct {
	river.WorkerDefaults[echoArgs]
	done chan string
}

func (w *echoWorker) Work(ctx context.Context, j *river.Job[echoArgs]) error {
	w.done <- j.Args.Text
	return nil
}

// backends opens an engine on each database the store supports.
func backends(t *testing.T) map[string]func(t *testing.T, w *river.Workers) *jobs.Engine {
	return map[string]func(t *testing.T, w *river.Workers) *jobs.Engine{
		"sqlite": func(t *testing.T, w *river.Workers) *jobs.Engine {
			path := filepath.Join(t.TempDir(), "gtmgate.db")
			s, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			e, err := jobs.Open(t.Context(), jobs.Options{SQLitePath: path, Workers: w, PollInterval: 20 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		"postgres": func(t *testing.T, w *river.Workers) *jobs.Engine {
			url := pgtest.URL(t)
			schema := pgtest.FreshSchema(t, url)
			s, err := postgres.Open(t.Context(), url, &sqlstore.Options{Sealer: storetest.NewSealer(t), Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			e, err := jobs.Open(t.Context(), jobs.Options{DatabaseURL: url, Schema: schema, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
	}
}

func TestEngineWorksListsRetriesAndCancels(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			workers := river.NewWorkers()
			w := &echoWorker{done: make(chan string, 4)}
			river.AddWorker(workers, w)
			e := open(t, workers)
			ctx := t.Context()
			if err := e.Start(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				e.Close(cctx)
			})
			if _, err := e.Insert(ctx, echoArgs{Text: "hello"}, nil); err != nil {
				t.Fatal(err)
			}
			if got := <-w.done; got != "hello" {
				t.Fatalf("worked %q", got)
			}
			// A job scheduled for later can be listed, cancelled and retried.
			res, err := e.Insert(ctx, echoArgs{Text: "later"}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			e.Mount(mux)
			list := call(t, mux, "GET", "/admin/jobs?state=scheduled&kind=test_echo", http.StatusOK)
			if !strings.Contains(list, `"later"`) || strings.Contains(list, `"hello"`) {
				t.Fatalf("list of scheduled jobs: %s", list)
			}
			id := jsonID(res.Job.ID)
			if got := call(t, mux, "POST", "/admin/jobs/"+id+"/cancel", http.StatusOK); !strings.Contains(got, `"state":"cancelled"`) {
				t.Fatalf("cancel: %s", got)
			}
			call(t, mux, "POST", "/admin/jobs/"+id+"/retry", http.StatusOK)
			if got := <-w.done; got != "later" {
				t.Fatalf("retried job worked %q", got)
			}
			call(t, mux, "GET", "/admin/jobs?state=bogus", http.StatusBadRequest)
			call(t, mux, "GET", "/admin/jobs/999999", http.StatusNotFound)
		})
	}
}

func jsonID(id int64) string { b, _ := json.Marshal(id); return string(b) }

func call(t *testing.T, h http.Handler, method, path string, want int) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	if rec.Code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, rec.Code, want, rec.Body)
	}
	return rec.Body.String()
}

// TestQueueStats: jobs nobody works (a stuck queue) show as available, with
// the wait of the oldest; scheduled ones apart.
func TestQueueStats(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			workers := river.NewWorkers()
			river.AddWorker(workers, &echoWorker{done: make(chan string, 4)})
			e := open(t, workers) // not started: nothing is worked
			t.Cleanup(func() { e.Close(context.Background()) })
			ctx := t.Context()
			for _, text := range []string{"a", "b"} {
				if _, err := e.Insert(ctx, echoArgs{Text: text}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.Insert(ctx, echoArgs{Text: "later"}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			stats, err := e.QueueStats(ctx, time.Now().Add(10*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if len(stats) != 1 || stats[0].Kind != "test_echo" || stats[0].Available != 2 || stats[0].Scheduled != 1 ||
				stats[0].OldestAvailableSeconds < 590 {
				t.Errorf("stats = %+v", stats)
			}
		})
	}
}
