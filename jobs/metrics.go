package jobs

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// waitHook observes, as each job starts, how long it waited: from when it
// was due (scheduled_at) to when a worker took it (attempted_at).
func waitHook(reg prometheus.Registerer) rivertype.Hook {
	wait := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "gtmgate_job_queue_wait_seconds",
		Help:    "How long a job waited from when it was due to when a worker took it, by queue and kind.",
		Buckets: []float64{0.05, 0.25, 1, 2, 5, 10, 15, 30, 60, 120, 300, 900, 3600}}, []string{"queue", "kind"})
	reg.MustRegister(wait)
	return river.HookWorkBeginFunc(func(_ context.Context, job *rivertype.JobRow) error {
		started := time.Now()
		if job.AttemptedAt != nil {
			started = *job.AttemptedAt
		}
		wait.WithLabelValues(job.Queue, job.Kind).Observe(max(0, started.Sub(job.ScheduledAt).Seconds()))
		return nil
	})
}
