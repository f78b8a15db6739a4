package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

// Args is one webhook message to deliver. WebhookID is the message's
// identity: a retry resends the same id (receivers deduplicate on it), and
// inserting a message whose id is already queued or delivered does nothing.
type Args struct {
	WebhookID string          `json:"webhook_id" river:"unique"`
	Event     string          `json:"event"`
	TenantID  string          `json:"tenant_id,omitempty"`
	Body      json.RawMessage `json:"body"`
	// Endpoint names the tenant's endpoint the message goes to (an
	// approval route's webhook, "whk_…"), "" for the alert webhook. Only
	// its name travels in the job: its URL and secret are looked up when
	// the message is sent, so neither is stored in the job queue, and an
	// endpoint removed since stops its messages.
	Endpoint string `json:"endpoint,omitempty" river:"unique"`
}

// Kind implements river.JobArgs.
func (Args) Kind() string { return "webhook_delivery" }

// MaxAttempts is how many times a message is tried before it is discarded
// (River's backoff: attempt⁴ seconds plus jitter, about 8 hours in all).
const MaxAttempts = 13

// InsertOpts implements river.JobArgsWithInsertOpts.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: jobs.QueueWebhooks, MaxAttempts: MaxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Envelope is the body of every message: Standard Webhooks' recommended shape.
type Envelope struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// Recorder keeps delivery attempts.
type Recorder interface {
	AddDelivery(ctx context.Context, d *gtmgate.WebhookDelivery) error
}

// Endpoint is where one tenant endpoint's messages go and the secret
// that signs them.
type Endpoint struct {
	URL    string
	Secret []byte
}

// Endpoints finds a tenant's endpoints by name.
type Endpoints interface {
	// Endpoint returns gtmgate.ErrNotFound when the tenant has no endpoint
	// id (any more).
	Endpoint(ctx context.Context, tenantID, id string) (Endpoint, error)
}

// Options configures a Sender. Store is required, and URL and Secret (the
// alert webhook) or Endpoints.
type Options struct {
	// URL and Secret are the alert webhook's: messages without an
	// Endpoint go there.
	URL    string
	Secret []byte
	// Endpoints finds the endpoints messages with an Endpoint go to.
	Endpoints Endpoints
	Store     Recorder
	// Timeout bounds one delivery attempt (default 10s).
	Timeout time.Duration
	Client  *http.Client
	Logger  *slog.Logger
	Now     func() time.Time
}

// Sender is the River worker that delivers messages.
type Sender struct {
	river.WorkerDefaults[Args]
	opts Options
}

// NewSender returns the delivery worker.
func NewSender(opts Options) (*Sender, error) {
	if opts.URL != "" {
		if u, err := url.Parse(opts.URL); err != nil || u.Host == "" {
			return nil, fmt.Errorf("webhook: the alert webhook URL is not absolute")
		}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Client == nil {
		opts.Client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Sender{opts: opts}, nil
}

// Timeout implements river.Worker: an attempt never runs longer than the
// HTTP time-out plus recording it.
func (s *Sender) Timeout(*river.Job[Args]) time.Duration { return s.opts.Timeout + 10*time.Second }

// Work sends one attempt. A 2xx answer delivers the message; anything else
// is an error River retries with backoff. Every attempt is recorded.
func (s *Sender) Work(ctx context.Context, job *river.Job[Args]) error {
	a := job.Args
	to, err := s.receiver(ctx, a)
	if err != nil {
		return err
	}
	start := s.opts.Now()
	status, err := s.post(ctx, a, to, start)
	d := &gtmgate.WebhookDelivery{WebhookID: a.WebhookID, Event: a.Event, TenantID: a.TenantID, Attempt: job.Attempt, Time: start,
		Status: status, OK: err == nil, DurationMS: float64(s.opts.Now().Sub(start).Microseconds()) / 1000,
		Endpoint: a.Endpoint, Receiver: gtmgate.RedactURL(to.URL)}
	if err != nil {
		d.Error = err.Error()
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := s.opts.Store.AddDelivery(rctx, d); rerr != nil {
		s.opts.Logger.Warn("recording a webhook delivery attempt", "webhook_id", a.WebhookID, "err", rerr)
	}
	if err != nil {
		s.opts.Logger.Warn("webhook delivery failed; it will be retried", "webhook_id", a.WebhookID, "event", a.Event,
			"attempt", job.Attempt, "err", err)
		return err
	}
	return nil
}

// receiver is where a message goes: its endpoint, or the alert webhook.
// A message with nowhere to go is cancelled, not retried.
func (s *Sender) receiver(ctx context.Context, a Args) (Endpoint, error) {
	if a.Endpoint == "" {
		if s.opts.URL == "" {
			return Endpoint{}, river.JobCancel(fmt.Errorf("webhook %s: no alert webhook is configured", a.WebhookID))
		}
		return Endpoint{URL: s.opts.URL, Secret: s.opts.Secret}, nil
	}
	if s.opts.Endpoints == nil {
		return Endpoint{}, river.JobCancel(fmt.Errorf("webhook %s: endpoint %s: no endpoints are configured", a.WebhookID, a.Endpoint))
	}
	to, err := s.opts.Endpoints.Endpoint(ctx, a.TenantID, a.Endpoint)
	if err == nil && to.URL == "" {
		err = fmt.Errorf("no URL: %w", gtmgate.ErrNotFound)
	}
	if errors.Is(err, gtmgate.ErrNotFound) {
		return Endpoint{}, river.JobCancel(fmt.Errorf("webhook %s: tenant %s's endpoint %s is gone: %w", a.WebhookID, a.TenantID, a.Endpoint, err))
	} else if err != nil {
		return Endpoint{}, fmt.Errorf("webhook %s: endpoint %s: %w", a.WebhookID, a.Endpoint, err)
	}
	return to, nil
}

// post makes one attempt. Its errors name the receiver's host only: a URL
// may carry a token in its path or query.
func (s *Sender) post(ctx context.Context, a Args, to Endpoint, now time.Time) (int, error) {
	host := "?"
	if u, err := url.Parse(to.URL); err == nil {
		host = u.Host
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to.URL, bytes.NewReader(a.Body))
	if err != nil {
		return 0, fmt.Errorf("webhook to %s: build request", host)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gtmgate-webhooks")
	Headers(req.Header, to.Secret, a.WebhookID, now, a.Body)
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("webhook to %s: no answer within %s", host, s.opts.Timeout)
		}
		return 0, fmt.Errorf("webhook to %s: %w", host, unwrapURL(err))
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("webhook to %s: answered %d", host, resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// unwrapURL drops *url.Error's "Post <url>:" prefix, which would repeat the
// URL, and keeps only the cause.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
