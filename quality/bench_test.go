package quality_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/modelsandbox"
	"github.com/gtmgate/gtmgate/quality"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// BenchmarkGradingThroughput grades b.N traces end to end (job insert,
// three judges over HTTP, panel, verdict and path state in SQLite) against
// the sandbox model gateway, which answers at once; traces/s is reported.
func BenchmarkGradingThroughput(b *testing.B) {
	path := filepath.Join(b.TempDir(), "gtmgate.db")
	st, err := sqlite.Open(context.Background(), path, &sqlstore.Options{Sealer: storetest.NewSealer(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	gw := httptest.NewServer(modelsandbox.Handler())
	defer gw.Close()
	client, _ := modelgw.New(gw.URL+"/v1", "", nil)
	jury := quality.NewJury(client, []quality.Judge{{Name: gtmgate.JudgeAlpha, Model: modelsandbox.JudgeAlpha},
		{Name: gtmgate.JudgeBeta, Model: modelsandbox.JudgeBeta}, {Name: gtmgate.JudgeGamma, Model: modelsandbox.JudgeGamma}}, 0)
	h := quality.New(quality.Options{Store: st, Jury: jury, Sampler: quality.NewSampler(1, quality.DefaultFactors), QueueSize: 1 << 16})
	workers := river.NewWorkers()
	h.AddWorkers(workers)
	e, err := jobs.Open(context.Background(), jobs.Options{SQLitePath: path, Workers: workers, Queues: map[string]int{jobs.QueueGrading: 8}, PollInterval: 50 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	h.Attach(e)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	if err := e.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer e.Close(context.Background())
	action := gtmgate.Action{Name: "list", Category: gtmgate.CategoryCRMRead}
	start := time.Now()
	for i := range b.N {
		h.Observe(&gtmgate.FinishedCall{Time: time.Now(), TenantID: "acme", Tool: "crm_pipelines", Action: action,
			Input: map[string]any{"rationale": "bench", "i": float64(i)}, Result: map[string]any{"ok": true}, RequestID: "r"})
	}
	for {
		vs, err := st.ListVerdicts(ctx, gtmgate.VerdictFilter{Limit: 5000})
		if err != nil {
			b.Fatal(err)
		}
		if len(vs) >= min(b.N, 5000) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "traces/s")
}
