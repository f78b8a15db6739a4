package bigquery

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// sbJob is a finished sandbox query job whose rows can be paged.
type sbJob struct {
	id     string
	fields []fieldSchema
	rows   []row
	bytes  int64
}

// dryRunStats answers a dry run: statement type, bytes and result schema.
func (s *Sandbox) dryRunStats(project, sql string, params []queryParameter) (string, int64, []fieldSchema, error) {
	st := statementType(sql)
	s.mu.Lock()
	if s.forceStatementType != "" {
		st = s.forceStatementType
	}
	s.mu.Unlock()
	if st == "" {
		return "", 0, nil, invalidQuery("Syntax error: Expected a statement but got %q at [1:1]", clip(sql))
	}
	if st != "SELECT" {
		return st, 0, nil, nil
	}
	p, ok, err := s.plan(project, sql, params)
	if err != nil {
		return "", 0, nil, err
	}
	if ok {
		fields, _ := p.execute()
		return st, p.table.bytes(p.cols), fields, nil
	}
	var total int64
	seen := map[*sbTable]bool{}
	for _, m := range tableMention.FindAllStringSubmatch(sql, -1) {
		if t, err := s.lookupTable(project, m[1]+"."+m[2]); err == nil && !seen[t] {
			seen[t] = true
			total += t.bytes(nil)
		}
	}
	return st, total, nil, nil
}

func clip(s string) string {
	if len(s) > 30 {
		return s[:30]
	}
	return s
}

// insertJob serves jobs.insert for dry runs.
func (s *Sandbox) insertJob(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.project(w, r); !ok {
		return
	}
	var body dryRunJob
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Configuration.Query.Query == "" {
		googleError(w, http.StatusBadRequest, "invalid", "Invalid JSON payload or missing configuration.query.query.")
		return
	}
	if !body.Configuration.DryRun {
		googleError(w, http.StatusBadRequest, "invalid", "The sandbox accepts jobs.insert for dry runs only; run queries with jobs.query.")
		return
	}
	ref := map[string]any{"projectId": r.PathValue("project"), "location": "US"}
	if jr := body.JobReference; jr != nil {
		// A jobReference needs its jobId, whatever else it carries.
		if !validJobID(jr.JobID) {
			googleError(w, http.StatusBadRequest, "invalid", fmt.Sprintf("Invalid job ID %q. Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.", jr.JobID))
			return
		}
		ref["jobId"] = jr.JobID
		if jr.Location != "" {
			ref["location"] = jr.Location
		}
	}
	q := body.Configuration.Query
	st, bytes, fields, err := s.dryRunStats(r.PathValue("project"), q.Query, q.QueryParameters)
	if err != nil {
		sqlFailure(w, err)
		return
	}
	stats := map[string]any{"statementType": st, "totalBytesProcessed": i64(bytes), "totalBytesBilled": "0", "cacheHit": false}
	if fields != nil {
		stats["schema"] = map[string]any{"fields": fields}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"kind": "bigquery#job", "configuration": body.Configuration,
		"jobReference": ref,
		"statistics":   map[string]any{"creationTime": "1762905600000", "totalBytesProcessed": i64(bytes), "query": stats},
		"status":       map[string]any{"state": "DONE"},
	})
}

// query serves jobs.query.
func (s *Sandbox) query(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.project(w, r); !ok {
		return
	}
	project := r.PathValue("project")
	var req queryRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Query == "" {
		googleError(w, http.StatusBadRequest, "invalid", "Invalid JSON payload or missing query.")
		return
	}
	st, bytes, fields, err := s.dryRunStats(project, req.Query, req.QueryParameters)
	if err != nil {
		sqlFailure(w, err)
		return
	}
	if req.DryRun {
		writeJSON(w, http.StatusOK, map[string]any{"kind": "bigquery#queryResponse", "schema": map[string]any{"fields": fields},
			"jobReference": map[string]any{"projectId": project, "location": "US"}, "totalBytesProcessed": i64(bytes), "jobComplete": true, "cacheHit": false})
		return
	}
	if st != "SELECT" {
		googleError(w, http.StatusBadRequest, "invalidQuery", "The sandbox does not execute "+st+" statements.")
		return
	}
	if limit, err := strconv.ParseInt(req.MaximumBytesBilled, 10, 64); err == nil && limit > 0 && bytes > limit {
		googleError(w, http.StatusBadRequest, "bytesBilledLimitExceeded",
			fmt.Sprintf("Query exceeded limit for bytes billed: %d. %d or higher required.", limit, bytes))
		return
	}
	p, ok, err := s.plan(project, req.Query, req.QueryParameters)
	if err == nil && !ok {
		err = invalidQuery("The sandbox evaluates only SELECT columns FROM dataset.table [WHERE column = value] [LIMIT n]; BigQuery itself would run this query.")
	}
	if err != nil {
		sqlFailure(w, err)
		return
	}
	key, _ := json.Marshal([]any{project, req.Query, req.QueryParameters})
	s.mu.Lock()
	j, cached := s.jobs[s.cache[string(key)]]
	if !cached {
		s.nextJob++
		fields, rows := p.execute()
		j = &sbJob{id: fmt.Sprintf("job_sbx_%04d", s.nextJob), fields: fields, rows: rows, bytes: bytes}
		s.jobs[j.id] = j
		s.cache[string(key)] = j.id
	}
	s.mu.Unlock()
	s.respond(w, project, j, 0, req.MaxResults, cached)
}

// getQueryResults serves jobs.getQueryResults.
func (s *Sandbox) getQueryResults(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.project(w, r); !ok {
		return
	}
	s.mu.Lock()
	j, ok := s.jobs[r.PathValue("job")]
	s.mu.Unlock()
	if !ok {
		googleError(w, http.StatusNotFound, "notFound", "Not found: Job "+r.PathValue("project")+":US."+r.PathValue("job"))
		return
	}
	start, ok := offsetToken(r.URL.Query().Get("pageToken"))
	if !ok || start > len(j.rows) {
		googleError(w, http.StatusBadRequest, "invalid", "Invalid page token.")
		return
	}
	s.respond(w, r.PathValue("project"), j, start, maxResults(r, 0), false)
}

// respond writes one page of a job's rows; a max of 0 means all rows.
func (s *Sandbox) respond(w http.ResponseWriter, project string, j *sbJob, start, max int, cacheHit bool) {
	end := len(j.rows)
	if max > 0 {
		end = min(start+max, end)
	}
	bytes := j.bytes
	if cacheHit {
		bytes = 0
	}
	body := map[string]any{
		"kind": "bigquery#queryResponse", "schema": map[string]any{"fields": j.fields},
		"jobReference": map[string]any{"projectId": project, "jobId": j.id, "location": "US"},
		"totalRows":    i64(int64(len(j.rows))), "rows": j.rows[start:end],
		"totalBytesProcessed": i64(bytes), "jobComplete": true, "cacheHit": cacheHit,
	}
	if end < len(j.rows) {
		body["pageToken"] = strconv.Itoa(end)
	}
	writeJSON(w, http.StatusOK, body)
}

func sqlFailure(w http.ResponseWriter, err error) {
	var se *sqlError
	if errors.As(err, &se) {
		googleError(w, se.status, se.reason, se.message)
		return
	}
	googleError(w, http.StatusInternalServerError, "backendError", "Internal error.")
}
