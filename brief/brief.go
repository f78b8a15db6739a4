package brief

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/reauth"
)

// Options configures a Writer. Store is required.
type Options struct {
	Store gtmgate.Store
	// Recorder is flushed first, so calls still in the audit journal count.
	Recorder gtmgate.Recorder
	// Model and ModelName write the brief; nil or "" uses the template.
	Model     *modelgw.Client
	ModelName string
	// Location is the brief's time zone: a brief's date is its day there.
	Location *time.Location
	// Timeout bounds the model's writing (default 2m).
	Timeout time.Duration
	Now     func() time.Time
	Logger  *slog.Logger
	// APIVersions grades the configured provider API versions; the brief
	// names those within 90 days of their sunset or past it (nil: none).
	APIVersions func(now time.Time) []apiversion.Status
	// Reauth lists the accounts to connect again (package reauth); when set
	// it replaces the refresh records' needs_reauth list, adding the tokens
	// that cannot be refreshed and expire soon or have expired.
	Reauth func(ctx context.Context, tenantID string) ([]reauth.Account, error)
}

// Writer generates, stores and serves daily briefs.
type Writer struct{ opts Options }

// New returns a Writer.
func New(opts Options) *Writer {
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Writer{opts: opts}
}

// Window is the 24 hours a brief covers.
const Window = 24 * time.Hour

// Generate writes and stores the brief of the 24 hours before now.
func (w *Writer) Generate(ctx context.Context, trigger string) (*gtmgate.DailyBrief, error) {
	if w.opts.Recorder != nil {
		if err := w.opts.Recorder.Flush(ctx); err != nil {
			return nil, fmt.Errorf("brief: flush the audit journal: %w", err)
		}
	}
	to := w.opts.Now().UTC()
	from := to.Add(-Window)
	f, err := Gather(ctx, w.opts.Store, from, to)
	if err != nil {
		return nil, err
	}
	if w.opts.Reauth != nil {
		list, err := w.opts.Reauth(ctx, "")
		if err != nil {
			return nil, fmt.Errorf("brief: accounts to connect again: %w", err)
		}
		f.Reauth = ReauthAccounts(list)
	}
	if w.opts.APIVersions != nil {
		f.APIVersions = append(f.APIVersions, apiversion.NeedAttention(w.opts.APIVersions(to))...)
	}
	figures, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("brief: encode figures: %w", err)
	}
	b := &gtmgate.DailyBrief{Date: to.In(w.opts.Location).Format(time.DateOnly), GeneratedAt: to, From: from, To: to, Figures: figures,
		Trigger: trigger, WrittenBy: "template"}
	if w.opts.Model != nil && w.opts.ModelName != "" {
		md, err := w.write(ctx, figures)
		if err != nil {
			b.Note = "the model " + w.opts.ModelName + " could not write the brief, so the template did: " + err.Error()
			w.opts.Logger.Warn("daily brief: model failed; using the template", "model", w.opts.ModelName, "err", err)
		} else {
			b.Markdown, b.WrittenBy = md, w.opts.ModelName
		}
	}
	if b.Markdown == "" {
		b.Markdown = Render(f, w.opts.Location)
	}
	if err := w.opts.Store.PutDailyBrief(ctx, b); err != nil {
		return nil, err
	}
	return b, nil
}

// briefPrompt asks the model for the brief.
const briefPrompt = `You write the daily brief of a gtmgate installation for its operator: a gateway through which AI agents call go-to-market tools for several tenants.
Write markdown: a title, a three-sentence summary of what needs attention first, then short sections on calls and errors, incidents and quality, approvals waiting, feedback, accounts needing re-authorisation, provider API versions nearing or past their sunset (api_versions: say which setting to move), agent runs and tokens.
Use only the figures given; say plainly when a section has nothing. No preamble.`

func (w *Writer) write(ctx context.Context, figures []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	resp, err := w.opts.Model.Chat(ctx, &modelgw.ChatRequest{Model: w.opts.ModelName, Messages: []modelgw.Message{
		{Role: modelgw.RoleSystem, Content: briefPrompt},
		{Role: modelgw.RoleUser, Content: "Figures of the last 24 hours:\n```json\n" + string(figures) + "\n```"},
	}})
	if err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 || strings.TrimSpace(resp.Choices[0].Message.Content) == "" {
		return "", errors.New("the model answered with no text")
	}
	return resp.Choices[0].Message.Content, nil
}

// jobArgs is the scheduled brief, unique per time so a leader change
// cannot write one tick twice.
type jobArgs struct {
	Tick time.Time `json:"tick"`
}

func (jobArgs) Kind() string { return "daily_brief" }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (jobArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: jobs.QueueMaintenance, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled,
		rivertype.JobStateRetryable, rivertype.JobStateCompleted}}}
}

type worker struct {
	river.WorkerDefaults[jobArgs]
	w *Writer
}

func (wk *worker) Work(ctx context.Context, _ *river.Job[jobArgs]) error {
	_, err := wk.w.Generate(ctx, "schedule")
	return err
}

// AddWorkers registers the brief's worker.
func (w *Writer) AddWorkers(ws *river.Workers) { river.AddWorker(ws, &worker{w: w}) }

// Schedule is when the brief is written: River's PeriodicSchedule.
type Schedule interface{ Next(time.Time) time.Time }

// PeriodicJob returns the daily job on sched (the leader enqueues it).
func PeriodicJob(sched Schedule) *river.PeriodicJob {
	return river.NewPeriodicJob(sched, func() (river.JobArgs, *river.InsertOpts) {
		return jobArgs{Tick: time.Now().UTC().Truncate(time.Minute)}, nil
	}, nil)
}

// datePattern is ?date's form.
var datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Mount adds the brief's admin routes.
func (w *Writer) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/daily-brief", w.get)
	mux.HandleFunc("POST /admin/daily-brief/trigger", w.trigger)
}

// get serves the latest brief, or ?date's: markdown for Accept: text/markdown,
// else JSON with figures and markdown.
func (w *Writer) get(rw http.ResponseWriter, r *http.Request) {
	date := r.URL.Query().Get("date")
	if date != "" && !datePattern.MatchString(date) {
		jsonapi.WriteError(rw, r, gtmgate.Errorf(gtmgate.EValidation, "date %q is not YYYY-MM-DD", date))
		return
	}
	b, err := w.opts.Store.GetDailyBrief(r.Context(), date)
	if errors.Is(err, gtmgate.ErrNotFound) {
		msg := "no daily brief has been generated yet"
		if date != "" {
			msg = "no daily brief for " + date
		}
		err = gtmgate.Errorf(gtmgate.ENotFound, "%s", msg).WithHint("POST /admin/daily-brief/trigger generates one now")
	}
	if err != nil {
		jsonapi.WriteError(rw, r, err)
		return
	}
	if wantsMarkdown(r.Header.Get("Accept")) {
		rw.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		rw.Header().Set("Vary", "Accept")
		rw.WriteHeader(http.StatusOK)
		rw.Write([]byte(b.Markdown))
		return
	}
	rw.Header().Set("Vary", "Accept")
	jsonapi.Write(rw, http.StatusOK, b)
}

// wantsMarkdown reports whether an Accept header prefers markdown to JSON.
func wantsMarkdown(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "text/markdown", "text/plain":
			return true
		case "application/json":
			return false
		}
	}
	return false
}

func (w *Writer) trigger(rw http.ResponseWriter, r *http.Request) {
	b, err := w.Generate(r.Context(), "manual")
	if err != nil {
		jsonapi.WriteError(rw, r, err)
		return
	}
	jsonapi.Write(rw, http.StatusCreated, b)
}

// ReauthAccounts are the brief's lines for the accounts to connect again.
func ReauthAccounts(list []reauth.Account) []Account {
	out := make([]Account, 0, len(list))
	for _, a := range list {
		out = append(out, Account{TenantID: a.TenantID, Provider: a.Provider, AccountID: a.AccountID, Kind: a.Kind, Reason: a.Reason})
	}
	return out
}
