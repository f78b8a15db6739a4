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
	"sync/atomic"
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
	// MaxWaiting bounds the grading jobs waiting in the job engine
	// (GRADER_MAX_WAITING; 0: no bound): past it new samples are shed,
	// except degraded paths' up to DegradedMargin more.
	MaxWaiting int
	// Waiting counts the grading jobs waiting (jobs.Engine.CountWaiting),
	// read every waitingRefresh; required with MaxWaiting.
	Waiting func(ctx context.Context) (int64, error)
	// RetryBuffer bounds the grading jobs kept for another insert after
	// one failed (default 10,000); past it they are dropped and counted.
	RetryBuffer int
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
	backlog  *backlog
	waiting  func(ctx context.Context) (int64, error)
	retries  *retryBuffer
	dropped  map[string]*atomic.Int64
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
	if opts.RetryBuffer <= 0 {
		opts.RetryBuffer = 10_000
	}
	if opts.Waiting == nil {
		opts.MaxWaiting = 0
	}
	dropped := map[string]*atomic.Int64{}
	for _, r := range []string{DropBacklog, DropBacklogDegraded, DropQueueFull, DropRetryFull, DropShutdown} {
		dropped[r] = &atomic.Int64{}
	}
	return &Harness{store: opts.Store, jury: opts.Jury, sampler: opts.Sampler, rules: opts.Rules, alerting: opts.Alerting,
		pending: make(chan *gtmgate.FinishedCall, opts.QueueSize), backlog: &backlog{max: int64(opts.MaxWaiting)}, waiting: opts.Waiting,
		retries: &retryBuffer{max: opts.RetryBuffer}, dropped: dropped, metrics: newMetrics(opts.Registerer),
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
// queue, or sheds it (counted by reason) when the grading jobs waiting
// reached their bound or the hand-off is full. It never blocks.
func (h *Harness) Observe(c *gtmgate.FinishedCall) {
	if reason := h.backlog.admit(isDegraded(c.Sample)); reason != "" {
		h.drop(reason, 1)
		return
	}
	select {
	case h.pending <- c:
		h.metrics.sampled.Inc()
	default:
		h.backlog.release()
		h.drop(DropQueueFull, 1)
	}
}

// drop counts samples not graded.
func (h *Harness) drop(reason string, n int) {
	if n <= 0 {
		return
	}
	h.dropped[reason].Add(int64(n))
	h.metrics.dropped.WithLabelValues(reason).Add(float64(n))
}

// Backlog is what the grader status shows of the harness's load.
type Backlog struct {
	// MaxWaiting is GRADER_MAX_WAITING (0: no bound).
	MaxWaiting int64 `json:"max_waiting"`
	// Waiting is the grading jobs waiting, as last counted plus those
	// this process queued since.
	Waiting int64 `json:"waiting"`
	// RetryBuffered are jobs whose insert failed, waiting for another.
	RetryBuffered int `json:"retry_buffered"`
	// Dropped counts the samples not graded since start, by reason.
	Dropped map[string]int64 `json:"dropped"`
}

// Backlog reports the harness's load and what it shed.
func (h *Harness) Backlog() Backlog {
	b := Backlog{MaxWaiting: h.backlog.max, Waiting: h.backlog.waiting.Load() + h.backlog.added.Load(),
		RetryBuffered: h.retries.len(), Dropped: map[string]int64{}}
	for r, n := range h.dropped {
		b.Dropped[r] = n.Load()
	}
	return b
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
	if h.waiting != nil {
		go h.refreshWaiting(ctx)
	}
	var retry <-chan time.Time
	attempt := 0
	for {
		select {
		case <-ctx.Done():
			h.drain()
			return
		case c := <-h.pending:
			h.linger(ctx)
			if !h.insert(ctx, h.batch(c)) && retry == nil {
				attempt = 1
				retry = time.After(retryBackoff(attempt))
			}
		case <-retry:
			if h.retry(ctx) {
				attempt, retry = 0, nil
			} else {
				attempt++
				retry = time.After(retryBackoff(attempt))
			}
		}
	}
}

// waitingRefresh is how often the grading jobs waiting are counted.
const waitingRefresh = 5 * time.Second

func (h *Harness) refreshWaiting(ctx context.Context) {
	h.every(ctx, waitingRefresh, waitingRefresh, "counting grading jobs waiting; the bound uses the last count", func(ctx context.Context) error {
		n, err := h.waiting(ctx)
		if err == nil {
			h.backlog.refreshed(n)
		}
		return err
	})
}

// every runs f now and then every interval until ctx ends, each run
// bounded by timeout; a failure is logged with what and the last good
// state stays.
func (h *Harness) every(ctx context.Context, interval, timeout time.Duration, what string, f func(context.Context) error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, timeout)
		err := f(rctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			h.logger.Warn(what, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// insertLinger is how long a sample waits for others before its grading
// job is inserted: at a 10% sample rate and hundreds of calls a second,
// inserting each sample as it came cost a SQLite transaction per sample,
// several percent of the process's CPU. Samples waiting here are in memory
// like those in the queue: a kill -9 loses them (see the quality docs).
const insertLinger = 250 * time.Millisecond

// linger waits insertLinger for more samples, unless the queue already
// holds a full batch or ctx ends (the drain inserts what is left).
func (h *Harness) linger(ctx context.Context) {
	if len(h.pending) >= batchSize-1 {
		return
	}
	t := time.NewTimer(insertLinger)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
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

// priorityDegraded is the grading priority of degraded paths.
const priorityDegraded = jobs.PriorityFirst

// gradePriority orders the grading queue: degraded paths first (they
// decide whether an incident closes), then mutating categories and
// production tenants, then the rest.
func gradePriority(s gtmgate.Sample) int {
	switch {
	case isDegraded(s):
		return priorityDegraded
	case slices.Contains(s.Reasons, "mutating_category"), slices.Contains(s.Reasons, "production_tenant"):
		return jobs.PrioritySecond
	}
	return jobs.PriorityThird
}

// insertTimeout bounds one insert of grading jobs.
const insertTimeout = 10 * time.Second

// insert queues grading jobs once; when that fails (the store is out) they
// go to the retry buffer, and false is returned.
func (h *Harness) insert(ctx context.Context, params []river.InsertManyParams) bool {
	if err := h.insertOnce(ctx, params); err != nil {
		dropped := h.retries.add(params)
		h.drop(DropRetryFull, dropped)
		h.logger.Warn("grading jobs could not be queued; kept for a retry", "count", len(params), "dropped", dropped,
			"retry_buffered", h.retries.len(), "err", err)
		return false
	}
	return true
}

func (h *Harness) insertOnce(ctx context.Context, params []river.InsertManyParams) error {
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), insertTimeout)
	defer cancel()
	if err := h.jobs.InsertMany(ictx, params); err != nil {
		return err
	}
	h.metrics.queued.Add(float64(len(params)))
	return nil
}

// retry inserts the retry buffer's jobs, a batch at a time, and reports
// whether it is empty; a failed batch goes back.
func (h *Harness) retry(ctx context.Context) bool {
	for {
		params := h.retries.take(batchSize)
		if len(params) == 0 {
			return true
		}
		if err := h.insertOnce(ctx, params); err != nil {
			h.drop(DropRetryFull, h.retries.add(params))
			return false
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
				h.drop(DropShutdown, 1)
				continue
			}
			h.insert(ctx, h.batch(c))
		default:
			if ctx.Err() != nil || !h.retry(ctx) {
				h.drop(DropShutdown, h.retries.len())
			}
			return
		}
	}
}

// Wait returns once Run has returned.
func (h *Harness) Wait() { <-h.done }

// degradedRefresh is how often the set of degraded paths is read from the store.
const degradedRefresh = 30 * time.Second

func (h *Harness) refreshDegraded(ctx context.Context) {
	h.every(ctx, degradedRefresh, 10*time.Second, "reading degraded tool paths", func(ctx context.Context) error {
		states, err := h.store.ListPathStates(ctx, "", true)
		if err == nil {
			h.sampler.SetDegraded(states)
		}
		return err
	})
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
			Help: "Sampled calls not graded, by reason (backlog, backlog_degraded, queue_full, retry_buffer_full, shutdown)."}, []string{"reason"}),
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
