// Package quality is gtmgate's quality harness: it samples finished tool
// calls into traces, grades each with a jury of three judges (models of
// three providers behind the model gateway, each answering through a
// verdict tool), combines their verdicts into a panel, and raises alerts and
// incidents. Grading is a River job: nothing on a call's path waits for it.
package quality

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

// Options configures a Harness. Store, Jury and Sampler are required.
type Options struct {
	Store   gtmgate.QualityStore
	Jury    *Jury
	Sampler *Sampler
	// Rules move tool path states (default: bad is quality ≤ 2, three in a
	// row open an incident, three good ones close it).
	Rules gtmgate.PathRules
	// Alerting enqueues webhook messages for alerts and incidents (an alert
	// webhook is configured).
	Alerting bool
	// QueueSize bounds the sampled calls waiting to become grading jobs
	// (default 1024); past it, samples are dropped and counted.
	QueueSize int
	// Registerer receives the harness's metrics (nil: not registered).
	Registerer prometheus.Registerer
	Logger     *slog.Logger
	Now        func() time.Time
}

// DefaultRules are the specification's: quality 2 or lower is bad, three
// consecutive bad verdicts open an incident; three good ones close it.
var DefaultRules = gtmgate.PathRules{BadQuality: 2, OpenAfter: 3, CloseAfter: 3}

// Harness samples, queues and grades.
type Harness struct {
	store    gtmgate.QualityStore
	jury     *Jury
	sampler  *Sampler
	rules    gtmgate.PathRules
	alerting bool
	jobs     Inserter
	pending  chan *gtmgate.FinishedCall
	metrics  *metrics
	logger   *slog.Logger
	now      func() time.Time
	done     chan struct{}
}

var _ gtmgate.CallObserver = (*Harness)(nil)

// New returns a harness; AddWorkers registers its job, Run feeds the queue.
func New(opts Options) *Harness {
	if opts.Rules == (gtmgate.PathRules{}) {
		opts.Rules = DefaultRules
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = 1024
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Harness{store: opts.Store, jury: opts.Jury, sampler: opts.Sampler, rules: opts.Rules, alerting: opts.Alerting,
		pending: make(chan *gtmgate.FinishedCall, opts.QueueSize), metrics: newMetrics(opts.Registerer),
		logger: opts.Logger.With("component", "quality"), now: opts.Now, done: make(chan struct{})}
}

// Attach gives the harness the job engine it queues into; call it before
// the engine starts and before Run.
func (h *Harness) Attach(jobs Inserter) { h.jobs = jobs }

// AddWorkers registers the grading worker.
func (h *Harness) AddWorkers(w *river.Workers) {
	river.AddWorker(w, &gradeWorker{h: h})
}

// Sample implements gtmgate.CallObserver.
func (h *Harness) Sample(tenantID string, production bool, tool string, a gtmgate.Action) (gtmgate.Sample, bool) {
	return h.sampler.Sample(tenantID, production, tool, a)
}

// Observe implements gtmgate.CallObserver: it hands a sampled call to the
// queue, or drops it (counted) when the queue is full. It never blocks.
func (h *Harness) Observe(c *gtmgate.FinishedCall) {
	select {
	case h.pending <- c:
		h.metrics.sampled.Inc()
	default:
		h.metrics.dropped.WithLabelValues("queue_full").Inc()
	}
}

// Rules returns the tool path rules.
func (h *Harness) Rules() gtmgate.PathRules { return h.rules }

// batchSize bounds the grading jobs inserted in one round trip.
const batchSize = 64

// Run turns queued calls into grading jobs until ctx ends, then inserts
// what is still queued (bounded by drainTimeout). It also keeps the
// sampler's set of degraded paths in step with the store, for paths other
// replicas graded.
func (h *Harness) Run(ctx context.Context) {
	defer close(h.done)
	go h.refreshDegraded(ctx)
	for {
		select {
		case <-ctx.Done():
			h.drain()
			return
		case c := <-h.pending:
			h.insert(ctx, h.batch(c))
		}
	}
}

// batch takes c and whatever else is queued, up to batchSize.
func (h *Harness) batch(c *gtmgate.FinishedCall) []river.InsertManyParams {
	params := []river.InsertManyParams{h.job(c)}
	for len(params) < batchSize {
		select {
		case c := <-h.pending:
			params = append(params, h.job(c))
		default:
			return params
		}
	}
	return params
}

func (h *Harness) job(c *gtmgate.FinishedCall) river.InsertManyParams {
	tr := NewTrace(c)
	return river.InsertManyParams{Args: GradeArgs{VerdictID: "vrd_" + tr.ID[len("trc_"):], Trace: *tr},
		InsertOpts: &river.InsertOpts{Priority: gradePriority(c.Sample)}}
}

// gradePriority orders the grading queue: degraded paths first (they
// decide whether an incident closes), then mutating categories and
// production tenants, then the rest.
func gradePriority(s gtmgate.Sample) int {
	switch {
	case slices.Contains(s.Reasons, "degraded_path"):
		return jobs.PriorityFirst
	case slices.Contains(s.Reasons, "mutating_category"), slices.Contains(s.Reasons, "production_tenant"):
		return jobs.PrioritySecond
	}
	return jobs.PriorityThird
}

// insertTimeout bounds one insert of grading jobs.
const insertTimeout = 10 * time.Second

func (h *Harness) insert(ctx context.Context, params []river.InsertManyParams) {
	for attempt := 1; ; attempt++ {
		ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), insertTimeout)
		err := h.jobs.InsertMany(ictx, params)
		cancel()
		if err == nil {
			h.metrics.queued.Add(float64(len(params)))
			return
		}
		if attempt == 3 || ctx.Err() != nil {
			h.metrics.dropped.WithLabelValues("insert_failed").Add(float64(len(params)))
			h.logger.Warn("grading jobs could not be queued; these samples are not graded", "count", len(params), "err", err)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(attempt) * time.Second):
		}
	}
}

// drainTimeout bounds queuing the samples still waiting at shutdown.
const drainTimeout = 5 * time.Second

func (h *Harness) drain() {
	ctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	for {
		select {
		case c := <-h.pending:
			if ctx.Err() != nil {
				h.metrics.dropped.WithLabelValues("shutdown").Inc()
				continue
			}
			h.insert(ctx, h.batch(c))
		default:
			return
		}
	}
}

// Wait returns once Run has returned.
func (h *Harness) Wait() { <-h.done }

// degradedRefresh is how often the set of degraded paths is read from the store.
const degradedRefresh = 30 * time.Second

func (h *Harness) refreshDegraded(ctx context.Context) {
	t := time.NewTicker(degradedRefresh)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		states, err := h.store.ListPathStates(rctx, "", true)
		cancel()
		if err == nil {
			h.sampler.SetDegraded(states)
		} else if ctx.Err() == nil {
			h.logger.Warn("reading degraded tool paths", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Regrade queues a trace for grading again under a new verdict id.
func (h *Harness) Regrade(ctx context.Context, tr *gtmgate.Trace) (string, error) {
	id := gtmgate.NewID("vrd_")
	t := *tr
	t.KnownGood = nil
	if err := h.jobs.InsertMany(ctx, []river.InsertManyParams{{Args: GradeArgs{VerdictID: id, Trace: t},
		InsertOpts: &river.InsertOpts{Priority: jobs.PrioritySecond}}}); err != nil {
		return "", err
	}
	return id, nil
}

type metrics struct {
	sampled       prometheus.Counter
	queued        prometheus.Counter
	dropped       *prometheus.CounterVec
	verdicts      *prometheus.CounterVec
	judgeFailures *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		sampled: prometheus.NewCounter(prometheus.CounterOpts{Name: "gtmgate_grader_sampled_total",
			Help: "Finished tool calls sampled for grading."}),
		queued: prometheus.NewCounter(prometheus.CounterOpts{Name: "gtmgate_grader_queued_total",
			Help: "Grading jobs inserted."}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gtmgate_grader_dropped_total",
			Help: "Sampled calls not graded, by reason (queue_full, insert_failed, shutdown)."}, []string{"reason"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gtmgate_grader_verdicts_total",
			Help: "Verdicts recorded, by panel quality (or failed)."}, []string{"quality"}),
		judgeFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gtmgate_grader_judge_failures_total",
			Help: "Judges that gave no valid verdict on a trace, by judge."}, []string{"judge"}),
	}
	if reg != nil {
		reg.MustRegister(m.sampled, m.queued, m.dropped, m.verdicts, m.judgeFailures)
	}
	return m
}
