package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/approvalnotice"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/modelsandbox"
	"github.com/gtmgate/gtmgate/quality"
	"github.com/gtmgate/gtmgate/webhook"
)

// startModelSandbox serves the demo's model gateway and points
// MODEL_GATEWAY_URL and unset judge models at it, under --demo when no
// model gateway is configured.
func (a *App) startModelSandbox() error {
	if !a.cfg.Demo || a.cfg.ModelGatewayURL != "" {
		return nil
	}
	base, err := a.serveSandbox("model gateway", modelsandbox.Handler())
	if err != nil {
		return err
	}
	a.cfg.ModelGatewayURL = base + "/v1"
	if a.cfg.AgentModel == "" {
		a.cfg.AgentModel = modelsandbox.ChatModel
	}
	if a.cfg.JudgeAlphaModel == "" && a.cfg.JudgeBetaModel == "" && a.cfg.JudgeGammaModel == "" {
		a.cfg.JudgeAlphaModel, a.cfg.JudgeBetaModel, a.cfg.JudgeGammaModel = modelsandbox.JudgeAlpha, modelsandbox.JudgeBeta, modelsandbox.JudgeGamma
	}
	a.logger.Info("sandbox model gateway (fixed-rule answers, no real model)", "url", a.cfg.ModelGatewayURL)
	return nil
}

// startAlertReceiver serves, under --demo with no ALERT_WEBHOOK_URL, a
// receiver that verifies each message's signature and logs it, so the
// demo shows alerts end to end: at /alerts the alert webhook's, at
// /approvals those of the demo tenant's approval route (a.demoRoute),
// each signed with its own secret.
func (a *App) startAlertReceiver() error {
	if !a.cfg.Demo || a.cfg.AlertWebhookURL != "" {
		return nil
	}
	secret := a.derivedKey("gtmgate demo alert webhook")
	a.cfg.AlertWebhookSecret = "whsec_" + base64.StdEncoding.EncodeToString(secret)
	routeSecret := a.derivedKey("gtmgate demo approval route webhook")
	logger := a.logger.With("component", "sandbox-alert-receiver")
	base, err := a.serveSandbox("alert receiver", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, what := secret, "alert"
		if r.URL.Path == demoRoutePath {
			key, what = routeSecret, "approval notice (the demo tenant's route)"
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err == nil {
			err = webhook.Verify(key, r.Header, body, time.Now(), 5*time.Minute)
		}
		if err != nil {
			logger.Warn("sandbox alert receiver refused a message", "path", r.URL.Path, "err", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		logger.Info("sandbox alert receiver: signed "+what+" received", "webhook_id", r.Header.Get("webhook-id"), "body", string(body))
		w.WriteHeader(http.StatusNoContent)
	}))
	if err != nil {
		return err
	}
	a.cfg.AlertWebhookURL = base + "/alerts"
	a.demoRoute = gtmgate.ApprovalWebhook{ID: demoRouteWebhook, URL: base + demoRoutePath, Format: gtmgate.WebhookStandard,
		Secret: "whsec_" + base64.StdEncoding.EncodeToString(routeSecret)}
	return nil
}

// serveSandbox serves h on a loopback port, stopped with the sandboxes.
func (a *App) serveSandbox(name string, h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("sandbox %s: %w", name, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	a.sandboxes = append(a.sandboxes, srv)
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), nil
}

// buildQuality builds the quality harness when judges and a model gateway
// are configured, and records why not otherwise.
func (a *App) buildQuality() error {
	c := a.cfg
	a.grading = quality.Status{SampleRate: c.GraderSampleRate, Factors: quality.DefaultFactors, RubricVersion: quality.RubricVersion,
		Rules: quality.DefaultRules}
	switch {
	case c.ModelGatewayURL == "":
		a.grading.Reason = "no model gateway: set MODEL_GATEWAY_URL (or run with --demo)"
	case c.JudgeAlphaModel == "" || c.JudgeBetaModel == "" || c.JudgeGammaModel == "":
		a.grading.Reason = "set JUDGE_ALPHA_MODEL, JUDGE_BETA_MODEL and JUDGE_GAMMA_MODEL"
	case c.GraderSampleRate == 0:
		a.grading.Reason = "GRADER_SAMPLE_RATE is 0"
	}
	if a.grading.Reason != "" {
		return nil
	}
	client, err := modelgw.New(c.ModelGatewayURL, c.ModelGatewayAPIKey, nil)
	if err != nil {
		return fmt.Errorf("MODEL_GATEWAY_URL: %w", err)
	}
	judges := []quality.Judge{{Name: gtmgate.JudgeAlpha, Model: c.JudgeAlphaModel}, {Name: gtmgate.JudgeBeta, Model: c.JudgeBetaModel},
		{Name: gtmgate.JudgeGamma, Model: c.JudgeGammaModel}}
	a.grading.Enabled = true
	a.grading.Judges = map[string]string{}
	for _, j := range judges {
		a.grading.Judges[j.Name] = j.Model
	}
	if c.AlertWebhookURL != "" {
		if u, err := url.Parse(c.AlertWebhookURL); err == nil {
			a.grading.AlertWebhook = u.Host
		}
	}
	a.harness = quality.New(quality.Options{Store: a.store, Jury: quality.NewJury(client, judges, c.JudgeTimeout),
		Sampler: quality.NewSampler(c.GraderSampleRate, quality.DefaultFactors), Alerting: c.AlertWebhookURL != "",
		MaxWaiting: int(c.GraderMaxWaiting), Waiting: a.gradingWaiting, Registerer: a.metrics.Registry, Logger: a.logger})
	return nil
}

// gradingWaiting counts the grading jobs waiting, for the harness's bound.
func (a *App) gradingWaiting(ctx context.Context) (int64, error) {
	if a.jobs == nil {
		return 0, nil
	}
	return a.jobs.CountWaiting(ctx, jobs.QueueGrading)
}

// openJobs opens the job engine with every worker this process runs.
func (a *App) openJobs(ctx context.Context) error {
	workers := river.NewWorkers()
	river.AddWorker(workers, &approvalSweeper{a: a})
	river.AddWorker(workers, &healthWorker{a: a})
	river.AddWorker(workers, newRetentionWorker(a))
	river.AddWorker(workers, &mcpRefreshWorker{a: a})
	if a.harness != nil {
		a.harness.AddWorkers(workers)
	}
	// Messages go to the alert webhook, when there is one, and to the
	// webhooks of tenants' approval routes, looked up as each is sent.
	senderOpts := webhook.Options{Endpoints: approvalnotice.Endpoints{Store: a.store}, Store: a.store, Logger: a.logger}
	if a.cfg.AlertWebhookURL != "" {
		secret, err := webhook.ParseSecret(a.cfg.AlertWebhookSecret)
		if err != nil {
			return fmt.Errorf("ALERT_WEBHOOK_SECRET: %w", err)
		}
		senderOpts.URL, senderOpts.Secret = a.cfg.AlertWebhookURL, secret
	}
	sender, err := webhook.NewSender(senderOpts)
	if err != nil {
		return fmt.Errorf("ALERT_WEBHOOK_URL: %w", err)
	}
	river.AddWorker(workers, sender)
	river.AddWorker(workers, approvalnotice.New(approvalnotice.Options{Store: a.store, Queue: jobQueue{a}, GatewayURL: a.cfg.GatewayURL,
		AlertWebhook: a.cfg.AlertWebhookURL != ""}))
	periodic, err := a.agentJobs(workers)
	if err != nil {
		return err
	}
	opts := jobs.Options{Workers: workers, Queues: a.jobQueues(), RescueAfter: a.cfg.JobRescueAfter, Logger: a.logger, ClientID: a.heartbeat.Self.ID,
		Registerer:       a.metrics.Registry,
		FinishedJobsKept: a.cfg.Retention.Jobs,
		Periodic: append(periodic, healthJob(), retentionJob(), mcpRefreshJob(), river.NewPeriodicJob(river.PeriodicInterval(approvalSweepEvery),
			func() (river.JobArgs, *river.InsertOpts) { return approvalSweepArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true}))}
	if a.cfg.DatabaseURL != "" {
		opts.DatabaseURL = a.cfg.DatabaseURL
	} else {
		opts.SQLitePath = filepath.Join(a.cfg.DataDir, "gtmgate.db")
	}
	e, err := jobs.Open(ctx, opts)
	if err != nil {
		return err
	}
	a.jobs = e
	a.agents.Attach(e)
	if a.harness != nil {
		a.harness.Attach(e)
	}
	return nil
}

// jobQueues is the workers of each job queue (0: the queue's default). The
// legacy queue, holding jobs an older version queued, gets GTMGATE_JOB_WORKERS
// when it is set.
func (a *App) jobQueues() map[string]int {
	c := a.cfg
	return map[string]int{jobs.QueueGrading: int(c.JobWorkersGrading), jobs.QueueAgents: int(c.JobWorkersAgents),
		jobs.QueueSchedules: int(c.JobWorkersSchedules), jobs.QueueWebhooks: int(c.JobWorkersWebhooks),
		jobs.QueueMaintenance: int(c.JobWorkersMaintenance), jobs.QueueLegacy: int(c.JobWorkers)}
}

// gradingHealth is /health's view of the harness.
func (a *App) gradingHealth() *gateway.GradingHealth {
	return &gateway.GradingHealth{Enabled: a.grading.Enabled, SampleRate: a.grading.SampleRate, Reason: a.grading.Reason}
}

// approvalSweepArgs is the periodic job that resolves approved gates whose
// executing process stopped (toolrun.ResolveStuckApprovals). As a River
// periodic job it runs on the elected leader only: once across replicas.
type approvalSweepArgs struct{}

func (approvalSweepArgs) Kind() string { return "approval_sweep" }

// InsertOpts implements river.JobArgsWithInsertOpts: one sweep at a time.
func (approvalSweepArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, approvalSweepEvery)
}

// approvalSweepEvery is how often gates left executing, and gates past
// their deadline, are looked for.
const approvalSweepEvery = time.Minute

// expireBatch is how many gates one statement expires.
const expireBatch = 500

type approvalSweeper struct {
	river.WorkerDefaults[approvalSweepArgs]
	a *App
}

func (w *approvalSweeper) Work(ctx context.Context, _ *river.Job[approvalSweepArgs]) error {
	n, err := w.a.runner.ResolveStuckApprovals(ctx, w.a.store)
	if err != nil {
		return fmt.Errorf("resolving approvals left executing: %w", err)
	}
	if n > 0 {
		w.a.logger.Info("approvals left executing resolved", "count", n)
	}
	// Pending gates past their deadline are stored as expired, in batches,
	// each announced by a notice queued first.
	if err := w.a.noticeExpiring(ctx); err != nil {
		return err
	}
	for {
		n, err := w.a.store.ExpireApprovals(ctx, time.Now(), expireBatch)
		if err != nil {
			return fmt.Errorf("expiring approvals: %w", err)
		}
		if n > 0 {
			w.a.logger.Info("approvals expired", "count", n)
		}
		if n < expireBatch {
			return nil
		}
	}
}

// queueApprovalNotice queues the durable notice of a gate's event
// (approvalnotice), which becomes signed messages to the webhooks of the
// tenant's approval route, or the alert webhook, once the gate is in that
// state.
func (a *App) queueApprovalNotice(ctx context.Context, event, approvalID string) error {
	if a.jobs == nil {
		return nil
	}
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, err := a.jobs.Insert(ictx, approvalnotice.Args{ApprovalID: approvalID, Event: event}, nil)
	return err
}

// noticeExpiring queues the expiry notice of every pending gate past its
// deadline, before the sweep stores them expired.
func (a *App) noticeExpiring(ctx context.Context) error {
	pending, err := a.store.ListApprovals(ctx, gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending, Limit: 1000})
	if err != nil {
		return fmt.Errorf("listing gates to expire: %w", err)
	}
	now := time.Now()
	for _, g := range pending {
		if g.ExpiresAt.After(now) {
			continue
		}
		if err := a.queueApprovalNotice(ctx, gtmgate.EventApprovalExpired, g.ID); err != nil {
			return fmt.Errorf("queueing the expiry notice of %s: %w", g.ID, err)
		}
	}
	return nil
}

// jobQueue inserts into the job engine, opened after the workers are made.
type jobQueue struct{ a *App }

func (q jobQueue) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return q.a.jobs.Insert(ctx, args, opts)
}
