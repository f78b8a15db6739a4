package connectflow

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

// page is what one template renders.
type page struct {
	Title string
	// Link page.
	TenantID, TenantName, Provider string
	Scopes                         []scopeLine
	Expires                        string
	// Picker.
	State  string
	Groups []group
	// Completion.
	Connected []string
	// Refusal.
	Message string
	// provider is the origin of the provider's consent page, where the
	// link page's form ends up (a redirect CSP's form-action also checks).
	provider string
}

type scopeLine struct{ Scope, Access string }

type group struct {
	What     string
	Note     string
	Accounts []choice
}

type choice struct {
	Value, ID, Name, Via string
}

var pages = template.Must(template.New("base").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · gtmgate</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{font-size:1.4rem}code{word-break:break-all}li{margin:.3rem 0}button{font-size:1rem;padding:.6rem 1.2rem;margin-top:1rem}
.muted{color:#555}fieldset{border:1px solid #ccc;margin:1rem 0}</style></head><body>
{{template "body" .}}
</body></html>
{{define "link"}}<h1>Connect {{.Provider}} to gtmgate</h1>
<p>This link connects your <strong>{{.Provider}}</strong> account to the tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>) on this gtmgate gateway.</p>
<p>{{.Provider}} will ask you to grant this access:</p>
<ul>{{range .Scopes}}<li><code>{{.Scope}}</code>: {{.Access}}</li>{{else}}<li>no scopes beyond signing in</li>{{end}}</ul>
<p class="muted">The link works once and expires at {{.Expires}}. gtmgate stores the tokens encrypted; nobody sees them.</p>
<form method="post"><button type="submit">Continue to {{.Provider}}</button></form>{{end}}
{{define "picker"}}<h1>Choose the {{.Provider}} accounts to connect</h1>
<p>Tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>). Tick the accounts gtmgate may use.</p>
<form method="post" action="/connect/choose"><input type="hidden" name="state" value="{{.State}}">
{{range .Groups}}<fieldset><legend>{{.What}}</legend>{{range .Accounts}}
<p><label><input type="checkbox" name="account" value="{{.Value}}"> {{if .Name}}{{.Name}} {{end}}<code>{{.ID}}</code>{{if .Via}} <span class="muted">through manager {{.Via}}</span>{{end}}</label></p>{{end}}
{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}</fieldset>{{end}}
<button type="submit">Connect the chosen accounts</button></form>{{end}}
{{define "done"}}<h1>{{.Provider}} connected</h1>
<p>Tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>) can now use:</p>
<ul>{{range .Connected}}<li>{{.}}</li>{{end}}</ul>
<p class="muted">You can close this page.</p>{{end}}
{{define "refused"}}<h1>{{.Title}}</h1><p>{{.Message}}</p>
<p class="muted">Ask the gateway's operator for a new connect link.</p>{{end}}
`))

// render writes a page with the headers every connect page carries: never
// cached, never framed, no script, and no Referer that could carry the
// link's secret.
func render(w http.ResponseWriter, status int, name string, p page) {
	t, err := pages.Clone()
	if err == nil {
		_, err = t.New("body").Parse(`{{template "` + name + `" .}}`)
	}
	var buf bytes.Buffer
	if err == nil {
		err = t.ExecuteTemplate(&buf, "base", p)
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	h.Set("Content-Security-Policy", strings.TrimSpace("default-src 'none'; style-src 'unsafe-inline'; form-action 'self' "+p.provider)+
		"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// origin is the scheme and host of a URL, for a CSP source; "" when it
// has none.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || strings.ContainsAny(u.Host, " ;'") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// refuse renders a refusal page.
func refuse(w http.ResponseWriter, status int, title, message string) {
	render(w, status, "refused", page{Title: title, Message: message})
}

// describe says in plain words what a scope grants: read, or read and write.
func describe(scope string) string {
	if d, ok := scopeWords[scope]; ok {
		return d
	}
	s := strings.ToLower(scope)
	switch {
	case strings.HasSuffix(s, ".readonly"), strings.HasSuffix(s, ".read"), strings.HasSuffix(s, "_read"),
		strings.HasPrefix(s, "r_"):
		return "read only"
	case strings.HasSuffix(s, ".write"), strings.HasPrefix(s, "rw_"), strings.HasSuffix(s, "_management"):
		return "read and change"
	}
	return "read and change"
}

const gs = "https://www.googleapis.com/auth/"

var scopeWords = map[string]string{
	"openid":                        "know that it is you who signed in",
	"email":                         "see your email address",
	gs + "adwords":                  "see and change your Google Ads accounts",
	gs + "analytics.readonly":       "read your Google Analytics data",
	gs + "webmasters.readonly":      "read your Search Console data",
	gs + "gmail.readonly":           "read your email",
	gs + "gmail.send":               "send email as you",
	gs + "gmail.compose":            "write drafts and send email as you",
	gs + "calendar.events":          "see and change your calendar events",
	gs + "calendar.events.readonly": "read your calendar events",
	gs + "calendar.freebusy":        "see when you are free or busy",
	gs + "bigquery":                 "run queries and read data in BigQuery",
	gs + "spreadsheets.readonly":    "read your spreadsheets",
	gs + "spreadsheets":             "read and change your spreadsheets",
	"ads_read":                      "read your ad accounts' data",
	"ads_management":                "read and change your ad accounts",
	"r_ads":                         "read your ad accounts",
	"r_ads_reporting":               "read your ads reports",
	"rw_ads":                        "read and change your ad accounts",
}
