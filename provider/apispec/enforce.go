package apispec

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gtmgate/gtmgate/jsonvalue"
)

// RefuseFunc writes the provider's own error answer for a request its spec
// does not allow: status is 400, or 404 for a path no operation serves.
type RefuseFunc func(w http.ResponseWriter, status int, message string)

// Enforcer checks every request a sandbox receives, and every answer it
// sends, against a spec.
type Enforcer struct {
	spec   *Spec
	next   http.Handler
	refuse RefuseFunc

	mu         sync.Mutex
	violations []string
	checked    map[string]int
}

// maxBody bounds a request body the enforcer reads.
const maxBody = 16 << 20

// Enforce returns an Enforcer serving next behind spec's checks.
func Enforce(spec *Spec, next http.Handler, refuse RefuseFunc) *Enforcer {
	e := &Enforcer{spec: spec, next: next, refuse: refuse, checked: map[string]int{}}
	all.mu.Lock()
	all.list = append(all.list, e)
	all.mu.Unlock()
	return e
}

// all are the enforcers of this process, so that a test binary can fail on
// a violation no test took (see Unexpected). Sandboxes are few and live as
// long as the process in --demo; in tests they are per test.
var all struct {
	mu   sync.Mutex
	list []*Enforcer
}

// Unexpected lists the violations of every enforcer of the process that
// were not taken with TakeViolations: provider test binaries fail on them
// (apispec/spectest.Main).
func Unexpected() []string {
	all.mu.Lock()
	list := slices.Clone(all.list)
	all.mu.Unlock()
	var out []string
	for _, e := range list {
		out = append(out, e.Violations()...)
	}
	return out
}

// TakeViolations returns the violations so far and forgets them: a test
// that sends a request the spec refuses on purpose takes what it expected.
func (e *Enforcer) TakeViolations() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	v := e.violations
	e.violations = nil
	return v
}

// Spec returns the spec enforced.
func (e *Enforcer) Spec() *Spec { return e.spec }

// Violations lists every request or answer the spec did not allow, in order.
func (e *Enforcer) Violations() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.violations)
}

// Checked counts the requests that passed the checks, by operation id.
func (e *Enforcer) Checked() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.checked)
}

func (e *Enforcer) record(op string, r *http.Request, problems []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range problems {
		e.violations = append(e.violations, fmt.Sprintf("%s %s %s (%s): %s", e.spec.Provider, r.Method, r.URL.Path, op, p))
	}
}

func (e *Enforcer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op, pathParams, allowed := e.spec.Find(r.Method, r.URL.EscapedPath())
	if op == nil {
		msg := "no operation of the " + e.spec.Title + " serves " + r.Method + " " + r.URL.Path
		status := http.StatusNotFound
		if len(allowed) > 0 {
			msg += " (it takes " + strings.Join(allowed, ", ") + ")"
			status = http.StatusMethodNotAllowed
		}
		e.record("no operation", r, []string{msg})
		e.refuse(w, status, msg)
		return
	}
	body, problems := e.checkRequest(op, pathParams, r)
	if len(problems) > 0 {
		e.record(op.ID, r, problems)
		e.refuse(w, http.StatusBadRequest, strings.Join(problems, "; "))
		return
	}
	e.mu.Lock()
	e.checked[op.ID]++
	e.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	e.next.ServeHTTP(rec, r)
	if p := e.checkResponse(op, rec); len(p) > 0 {
		e.record(op.ID, r, p)
	}
	maps.Copy(w.Header(), rec.header)
	w.WriteHeader(rec.status)
	w.Write(rec.body.Bytes())
}

// checkRequest checks headers, parameters and body; it returns the body read.
func (e *Enforcer) checkRequest(op *Operation, pathParams map[string]string, r *http.Request) ([]byte, []string) {
	var problems []string
	for _, h := range e.spec.Headers {
		problems = append(problems, e.checkParam(h, r.Header.Values(h.Name))...)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return nil, []string{"the body cannot be read: " + err.Error()}
	}
	query := r.URL.Query()
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if op.RequestType == "application/x-www-form-urlencoded" && mediaType == op.RequestType {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			problems = append(problems, "the form body cannot be parsed: "+err.Error())
		}
		for k, v := range form {
			query[k] = append(query[k], v...)
		}
	}
	known := map[string]bool{}
	for _, p := range op.Params {
		switch p.In {
		case "path":
			v, err := url.PathUnescape(pathParams[p.Name])
			if err != nil {
				v = pathParams[p.Name]
			}
			problems = append(problems, e.checkParam(p, []string{v})...)
		case "query":
			known[p.Name] = true
			problems = append(problems, e.checkParam(p, query[p.Name])...)
		case "header":
			problems = append(problems, e.checkParam(p, r.Header.Values(p.Name))...)
		}
	}
	for _, p := range e.spec.GlobalParams {
		known[p.Name] = true
		problems = append(problems, e.checkParam(p, query[p.Name])...)
	}
	for _, k := range slices.Sorted(maps.Keys(query)) {
		if !known[k] {
			problems = append(problems, fmt.Sprintf("query parameter %q: unknown", k))
		}
	}
	problems = append(problems, e.checkBody(op, mediaType, body)...)
	return body, problems
}

func (e *Enforcer) checkBody(op *Operation, mediaType string, body []byte) []string {
	switch {
	case op.RequestType == "application/x-www-form-urlencoded":
		return nil // checked as parameters
	case op.RequestType != "":
		if len(body) > 0 && mediaType != op.RequestType {
			return []string{fmt.Sprintf("body: sent as %q, want %q", mediaType, op.RequestType)}
		}
		return nil
	case op.Request == nil:
		if len(bytes.TrimSpace(body)) > 0 {
			return []string{"body: this operation takes none"}
		}
		return nil
	}
	if mediaType != "application/json" {
		return []string{fmt.Sprintf("body: sent as %q, want application/json", mediaType)}
	}
	v, err := jsonvalue.Decode(body)
	if err != nil {
		return []string{"body: not JSON: " + err.Error()}
	}
	return e.spec.CheckValue(op.Request, v, Request)
}

func (e *Enforcer) checkResponse(op *Operation, rec *recorder) []string {
	if rec.status < 200 || rec.status > 299 || op.Response == nil || rec.body.Len() == 0 {
		return nil
	}
	v, err := jsonvalue.Decode(rec.body.Bytes())
	if err != nil {
		return []string{"response: not JSON: " + err.Error()}
	}
	problems := e.spec.CheckValue(op.Response, v, Response)
	for i := range problems {
		problems[i] = "response " + problems[i]
	}
	return problems
}

// checkParam checks one parameter's values.
func (e *Enforcer) checkParam(p Param, values []string) []string {
	name := fmt.Sprintf("%s parameter %q", p.In, p.Name)
	if len(values) == 0 {
		if p.Required {
			return []string{name + ": required, missing"}
		}
		return nil
	}
	if len(values) > 1 && !p.Repeated {
		return []string{fmt.Sprintf("%s: given %d times, takes one value", name, len(values))}
	}
	var out []string
	for _, v := range values {
		if msg := checkParamValue(p, v, e.spec.EnumsFoldCase); msg != "" {
			out = append(out, name+": "+msg)
		}
	}
	return out
}

func checkParamValue(p Param, v string, fold bool) string {
	if p.Pattern != "" {
		if re, err := regexp.Compile("^(?:" + p.Pattern + ")$"); err == nil && !re.MatchString(v) {
			return fmt.Sprintf("%q does not match %s", v, p.Pattern)
		}
	}
	switch p.Type {
	case "integer":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return fmt.Sprintf("%q is not an integer", v)
		}
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Sprintf("%q is not a number", v)
		}
	case "boolean":
		if v != "true" && v != "false" {
			return fmt.Sprintf("%q is not true or false", v)
		}
	}
	return checkString(p.Format, p.Enum, v, fold)
}

// recorder keeps a handler's answer so it can be checked before it is sent.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
