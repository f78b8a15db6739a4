package oauthsandbox

import (
	"html/template"
	"net/http"
)

// The pages are server-rendered and work with JavaScript off; html/template
// escapes every value.
var pages = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.Name}} sandbox — consent</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem}</style>
</head><body>
<h1>{{.Name}} sandbox — consent</h1>
<p>The application <strong id="client">{{.ClientID}}</strong> asks for access to your {{.Name}} sandbox account:</p>
<ul id="scopes">{{range .Scopes}}<li><code>{{.}}</code></li>{{end}}</ul>
<p>This is gtmgate's demo sandbox: no real account is involved.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.Request}}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>
`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Name}} sandbox — {{.Title}}</title></head><body>
<h1>{{.Name}} sandbox — {{.Title}}</h1>
<p id="message">{{.Description}}</p>
{{if .Code}}<p>Error {{.Status}}: <code id="error">{{.Code}}</code></p>{{end}}
</body></html>
`))

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request, id string, scopes []string) {
	setPageHeaders(w)
	w.WriteHeader(http.StatusOK)
	_ = pages.Execute(w, map[string]any{"Name": s.opts.Name, "ClientID": s.opts.ClientID, "Scopes": scopes,
		"Action": r.URL.Path, "Request": id})
}

// errorPage shows a refused request; every refusal is the client's fault,
// so the status is 400, as the providers answer.
func (s *Server) errorPage(w http.ResponseWriter, ref Refusal) {
	if ref.Title == "" {
		ref.Title = "error"
	}
	setPageHeaders(w)
	w.WriteHeader(http.StatusBadRequest)
	_ = errorTemplate.Execute(w, map[string]any{"Name": s.opts.Name, "Title": ref.Title, "Description": ref.Description,
		"Code": ref.Code, "Status": http.StatusBadRequest})
}

func setPageHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("X-Frame-Options", "DENY")
}
