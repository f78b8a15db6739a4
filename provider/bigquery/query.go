package bigquery

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Paging and waiting bounds of bigquery_query.
const (
	defaultPageRows = 100
	maxPageRows     = 1000
	waitMs          = 10000
	maxPolls        = 3
)

// QueryResult is one page of a query's rows.
type QueryResult struct {
	Columns []Column         `json:"columns"`
	Rows    []map[string]any `json:"rows"`
	// TotalRows is the number of rows the whole result has.
	TotalRows      int64  `json:"total_rows"`
	NextCursor     string `json:"next_cursor,omitempty"`
	BytesProcessed int64  `json:"bytes_processed"`
	CacheHit       bool   `json:"cache_hit"`
	// JobComplete is false when the query was still running; next_cursor then polls it.
	JobComplete bool `json:"job_complete"`
}

// Estimate is a dry run's answer.
type Estimate struct {
	StatementType  string  `json:"statement_type"`
	BytesProcessed int64   `json:"bytes_processed"`
	EstimatedCost  float64 `json:"estimated_cost"`
	Currency       string  `json:"currency"`
	PricePerTiB    float64 `json:"price_per_tib"`
	MaxBytesBilled int64   `json:"max_bytes_billed"`
	// WithinLimit says whether run would be allowed under max_bytes_billed.
	WithinLimit bool `json:"within_limit"`
}

type queryInput struct {
	Query          string         `json:"query"`
	Params         map[string]any `json:"params"`
	MaxBytesBilled int64          `json:"max_bytes_billed"`
	Location       string         `json:"location"`
	Limit          int            `json:"limit"`
	Cursor         string         `json:"cursor"`
}

func queryTool(c *upstream.Client, lim Limits) gtmgate.Tool {
	q := &querier{c: c, lim: lim}
	return gtmgate.Tool{
		Name: "bigquery_query", Domain: "data", Title: "BigQuery read-only query", Provider: Provider,
		Description: "Run a read-only GoogleSQL query (one SELECT or WITH on dataset.table), or estimate its cost with a dry run.",
		Actions: []gtmgate.Action{
			{Name: "run", Description: "Run the query and return a page of typed rows (next_cursor pages on).", Category: gtmgate.CategoryDataQuery},
			{Name: "estimate", Description: "Dry-run the query: bytes it would process and estimated cost.", Category: gtmgate.CategoryDataQuery, Required: []string{"query"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(100000)},
			"params": {Type: "object", AdditionalProperties: paramSchema(),
				Description: "Values of @name parameters."},
			"max_bytes_billed": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(lim.MaxBytesBilledCap))},
			"location":         {Type: "string", Pattern: `^[A-Za-z0-9-]{2,32}$`},
			"limit":            {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(maxPageRows))},
			"cursor":           {Type: "string", Description: "A run's next_cursor; query may then be omitted."},
		},
		Run: q.run,
	}
}

type querier struct {
	c   *upstream.Client
	lim Limits
}

func (q *querier) run(ctx context.Context, call *gtmgate.Call) (any, error) {
	project, err := needProject(call)
	if err != nil {
		return nil, err
	}
	var in queryInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	if in.MaxBytesBilled == 0 {
		in.MaxBytesBilled = q.lim.DefaultMaxBytesBilled
	}
	if in.Limit == 0 {
		in.Limit = defaultPageRows
	}
	if call.Action.Name == "run" && in.Cursor != "" {
		cur, err := decodeCursor(in.Cursor)
		if err != nil || cur.JobID == "" || cur.Project != project {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "cursor is not a next_cursor of a query in project %s", project)
		}
		return q.page(ctx, call, project, cur, in.Limit)
	}
	if in.Query == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "query is required for action %s (or pass a cursor to page on)", call.Action.Name)
	}
	if err := CheckReadOnly(in.Query); err != nil {
		return nil, err
	}
	params, err := queryParameters(in.Params)
	if err != nil {
		return nil, err
	}
	dry, err := q.dryRun(ctx, call, project, &in, params)
	if err != nil {
		return nil, err
	}
	est := q.estimate(dry, in.MaxBytesBilled)
	if call.Action.Name == "estimate" {
		return est, nil
	}
	if est.StatementType != "SELECT" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "refusing to run: BigQuery classifies the statement as %s, not SELECT", est.StatementType).
			WithHint("bigquery_query only runs SELECT statements")
	}
	if !est.WithinLimit {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "query would process %d bytes, above max_bytes_billed %d (estimated cost %.4f USD)",
			est.BytesProcessed, in.MaxBytesBilled, est.EstimatedCost).
			WithHint("select fewer columns, filter on partitions, or raise max_bytes_billed")
	}
	return q.query(ctx, call, project, &in, params)
}

// dryRun asks BigQuery to plan the query without running it (jobs.insert
// with dryRun: only a Job reports the statement type).
func (q *querier) dryRun(ctx context.Context, call *gtmgate.Call, project string, in *queryInput, params []queryParameter) (*job, error) {
	var body dryRunJob
	body.Configuration.DryRun = true
	body.Configuration.Query.Query = in.Query
	body.Configuration.Query.MaximumBytesBilled = strconv.FormatInt(in.MaxBytesBilled, 10)
	if len(params) > 0 {
		body.Configuration.Query.ParameterMode = "NAMED"
		body.Configuration.Query.QueryParameters = params
	}
	if in.Location != "" {
		// jobs.insert takes the location only in jobReference (the Job has no
		// other location field and the method no location parameter), and a
		// jobReference must carry a jobId: BigQuery refuses an empty one.
		body.JobReference = &jobReference{ProjectID: project, JobID: newJobID("gtmgate_dryrun"), Location: in.Location}
	}
	var out job
	err := q.c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: projectPath(q.c.APIVersion(), project, "jobs"), JSON: body, Token: call.Token}, &out)
	if err != nil {
		return nil, fmt.Errorf("bigquery: dry run: %w", err)
	}
	return &out, nil
}

func (q *querier) estimate(j *job, maxBytes int64) *Estimate {
	bytes := parseInt64(j.Statistics.Query.TotalBytesProcessed)
	if bytes == 0 {
		bytes = parseInt64(j.Statistics.TotalBytesProcessed)
	}
	cost := float64(bytes) / float64(int64(1)<<40) * q.lim.PricePerTiB
	return &Estimate{StatementType: j.Statistics.Query.StatementType, BytesProcessed: bytes,
		EstimatedCost: math.Round(cost*1e6) / 1e6, Currency: "USD", PricePerTiB: q.lim.PricePerTiB,
		MaxBytesBilled: maxBytes, WithinLimit: bytes <= maxBytes}
}

// query runs the statement with jobs.query and waits briefly for it.
func (q *querier) query(ctx context.Context, call *gtmgate.Call, project string, in *queryInput, params []queryParameter) (*QueryResult, error) {
	body := queryRequest{Query: in.Query, MaxResults: in.Limit, TimeoutMs: waitMs, Location: in.Location,
		MaximumBytesBilled: strconv.FormatInt(in.MaxBytesBilled, 10)}
	if len(params) > 0 {
		body.ParameterMode, body.QueryParameters = "NAMED", params
	}
	var resp queryResponse
	err := q.c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: projectPath(q.c.APIVersion(), project, "queries"), JSON: body, Token: call.Token}, &resp)
	if err != nil {
		return nil, fmt.Errorf("bigquery: query: %w", err)
	}
	cur := pageCursor{JobID: resp.JobReference.JobID, Location: resp.JobReference.Location, Project: project}
	for i := 0; !resp.JobComplete && i < maxPolls; i++ {
		if resp, err = q.results(ctx, call, project, cur, in.Limit); err != nil {
			return nil, err
		}
	}
	return result(&resp, cur), nil
}

// page fetches a further page (or polls an unfinished job) with jobs.getQueryResults.
func (q *querier) page(ctx context.Context, call *gtmgate.Call, project string, cur pageCursor, limit int) (*QueryResult, error) {
	resp, err := q.results(ctx, call, project, cur, limit)
	if err != nil {
		return nil, err
	}
	return result(&resp, cur), nil
}

func (q *querier) results(ctx context.Context, call *gtmgate.Call, project string, cur pageCursor, limit int) (queryResponse, error) {
	v := url.Values{"maxResults": {strconv.Itoa(limit)}, "timeoutMs": {strconv.Itoa(waitMs)}}
	if cur.PageToken != "" {
		v.Set("pageToken", cur.PageToken)
	}
	if cur.Location != "" {
		v.Set("location", cur.Location)
	}
	var resp queryResponse
	err := q.c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: projectPath(q.c.APIVersion(), project, "queries", cur.JobID), Query: v, Token: call.Token}, &resp)
	if err != nil {
		return resp, fmt.Errorf("bigquery: get query results: %w", err)
	}
	return resp, nil
}

// result shapes a response page; the cursor continues from its page token,
// or re-polls the job when it has not finished.
func result(resp *queryResponse, cur pageCursor) *QueryResult {
	out := &QueryResult{Rows: typedRows(resp.Schema, resp.Rows), TotalRows: parseInt64(resp.TotalRows),
		BytesProcessed: parseInt64(resp.TotalBytesProcessed), CacheHit: resp.CacheHit, JobComplete: resp.JobComplete}
	if resp.Schema != nil {
		out.Columns = columns(resp.Schema.Fields)
	}
	if !resp.JobComplete || resp.PageToken != "" {
		cur.PageToken = resp.PageToken
		out.NextCursor = cur.encode()
	}
	return out
}

// paramSchema is one query parameter's value: a scalar or a list of scalars.
func paramSchema() *jsonschema.Schema {
	scalars := func() []*jsonschema.Schema {
		return []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}}
	}
	return &jsonschema.Schema{AnyOf: append(scalars(), &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{AnyOf: scalars()}})}
}
