package webhook

import (
	"bytes"
	"context"
	"encoding/json"
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

// Options configures a Sender. URL and Secret are required.
type Options struct {
	URL    string
	Secret []byte
	Store  Recorder
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
	host string
}

// NewSender returns the delivery worker.
func NewSender(opts Options) (*Sender, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("webhook: URL %q is not absolute", opts.URL)
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
	return &Sender{opts: opts, host: u.Host}, nil
}

// Timeout implements river.Worker: an attempt never runs longer than the
// HTTP time-out plus recording it.
func (s *Sender) Timeout(*river.Job[Args]) time.Duration { return s.opts.Timeout + 10*time.Second }

// Work sends one attempt. A 2xx answer delivers the message; anything else
// is an error River retries with backoff. Every attempt is recorded.
func (s *Sender) Work(ctx context.Context, job *river.Job[Args]) error {
	a := job.Args
	start := s.opts.Now()
	status, err := s.post(ctx, a, start)
	d := &gtmgate.WebhookDelivery{WebhookID: a.WebhookID, Event: a.Event, TenantID: a.TenantID, Attempt: job.Attempt, Time: start,
		Status: status, OK: err == nil, DurationMS: float64(s.opts.Now().Sub(start).Microseconds()) / 1000}
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

// post makes one attempt. Its errors name the receiver's host only: a URL
// may carry a token in its path or query.
func (s *Sender) post(ctx context.Context, a Args, now time.Time) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.opts.URL, bytes.NewReader(a.Body))
	if err != nil {
		return 0, fmt.Errorf("webhook to %s: build request", s.host)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gtmgate-webhooks")
	Headers(req.Header, s.opts.Secret, a.WebhookID, now, a.Body)
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("webhook to %s: no answer within %s", s.host, s.opts.Timeout)
		}
		return 0, fmt.Errorf("webhook to %s: %w", s.host, unwrapURL(err))
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("webhook to %s: answered %d", s.host, resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// unwrapURL drops *url.Error's "Post <url>:" prefix, which would repeat the URL.
func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
