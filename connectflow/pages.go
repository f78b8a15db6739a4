package connectflow

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate/connect"
)

// page is what one template renders.
type page struct {
	Title string
	// Operator names who asks for access (Options.OperatorName); Logo is
	// its logo's URL, "" for none.
	Operator, Logo string
	// Link page. Provider is what the link connects, as its owner knows it
	// ("Google Ads"); Products, when the link covers several, lists them.
	// Consent names whose consent page the owner is sent to ("Google").
	TenantID, TenantName, Provider string
	Consent, Products              string
	Scopes                         []scopeLine
	Expires                        string
	// CSRF is the link page's form token (guard.go).
	CSRF string
	// Picker.
	State  string
	Groups []group
	// Completion.
	Connected []string
	// Refusal. Retry: the link still works, from its page opened again.
	Message string
	Retry   bool
	// provider is the origin of the provider's consent page, where the
	// link page's form ends up (a redirect CSP's form-action also checks).
	provider string
}

// scopeLine is one scope a link asks for: Words says it in plain words,
// "" for a scope gtmgate does not know (shown as itself).
type scopeLine struct{ Scope, Words string }

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
<title>{{.Title}} · {{.Operator}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{font-size:1.4rem}code{word-break:break-all}li{margin:.3rem 0}button{font-size:1rem;padding:.6rem 1.2rem;margin-top:1rem}
.muted{color:#555}fieldset{border:1px solid #ccc;margin:1rem 0}
.operator{display:flex;align-items:center;gap:.6rem;font-weight:600}.operator img{max-height:2.5rem;max-width:10rem}
.scope{display:block;font-size:.75rem;color:#555}</style></head><body>
<header class="operator">{{if .Logo}}<img src="{{.Logo}}" alt="{{.Operator}} logo">{{end}}<span>{{.Operator}}</span></header>
{{template "body" .}}
</body></html>
{{define "link"}}<h1>{{.Operator}} asks to connect your {{.Provider}} account</h1>
<p>This link connects your <strong>{{.Provider}}</strong> account{{if .Products}} for {{.Products}}{{end}} to the tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>) on {{.Operator}}'s gtmgate gateway.</p>
<p>{{.Consent}} will ask you to let {{.Operator}}:</p>
<ul>{{range .Scopes}}<li>{{if .Words}}{{.Words}}<small class="scope" title="OAuth scope"><code>{{.Scope}}</code></small>{{else}}<code>{{.Scope}}</code>{{end}}</li>{{else}}<li>Confirm who you are, and nothing more</li>{{end}}</ul>
<p class="muted">The link works once and expires at {{.Expires}}. gtmgate stores the tokens encrypted; nobody sees them.</p>
<form method="post"><input type="hidden" name="csrf" value="{{.CSRF}}"><button type="submit">Continue to {{.Consent}}</button></form>{{end}}
{{define "picker"}}<h1>Choose the {{.Provider}} accounts {{.Operator}} may use</h1>
<p>Tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>). Tick the accounts {{.Operator}} may use through gtmgate.</p>
<form method="post" action="/connect/choose"><input type="hidden" name="state" value="{{.State}}">
{{range .Groups}}<fieldset><legend>{{.What}}</legend>{{range .Accounts}}
<p><label><input type="checkbox" name="account" value="{{.Value}}"> {{if .Name}}{{.Name}} {{end}}<code>{{.ID}}</code>{{if .Via}} <span class="muted">through manager {{.Via}}</span>{{end}}</label></p>{{end}}
{{if .Note}}<p class="muted">{{.Note}}</p>{{end}}</fieldset>{{end}}
<button type="submit">Connect the chosen accounts</button></form>{{end}}
{{define "done"}}<h1>Your {{.Provider}} account is connected</h1>
<p>{{.Operator}} can now use, for tenant <strong>{{.TenantName}}</strong> (<code>{{.TenantID}}</code>):</p>
<ul>{{range .Connected}}<li>{{.}}</li>{{end}}</ul>
<p class="muted">You can close this page.</p>{{end}}
{{define "refused"}}<h1>{{.Title}}</h1><p>{{.Message}}</p>
{{if .Retry}}<p><a href="">Open the link's page again</a> and press Continue there.</p>{{else}}<p class="muted">Ask {{.Operator}} for a new connect link.</p>{{end}}{{end}}
`))

// render writes a page with the headers every connect page carries: never
// cached, never framed, no script, and no Referer that could carry the
// link's secret.
func (f *Flow) render(w http.ResponseWriter, status int, name string, p page) {
	p.Operator, p.Logo = f.opts.OperatorName, f.opts.OperatorLogoURL
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
	h.Set("Content-Security-Policy", strings.TrimSpace("default-src 'none'; style-src 'unsafe-inline'; "+imgSrc(p.Logo)+"form-action 'self' "+p.provider)+
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

// imgSrc is the CSP directive that lets the page show the operator's
// logo: its origin, or the gateway's own for a path; none without a logo.
func imgSrc(logo string) string {
	switch {
	case logo == "":
		return ""
	case strings.HasPrefix(logo, "/"):
		return "img-src 'self'; "
	}
	if o := origin(logo); o != "" {
		return "img-src " + o + "; "
	}
	return ""
}

// refuse renders a refusal page.
func (f *Flow) refuse(w http.ResponseWriter, status int, title, message string) {
	f.render(w, status, "refused", page{Title: title, Message: message})
}

// scopeLines says each scope in words, an unknown one as itself.
func scopeLines(scopes []string) []scopeLine {
	var out []scopeLine
	for _, s := range scopes {
		words, _ := connect.ScopeWords(s)
		out = append(out, scopeLine{Scope: s, Words: words})
	}
	return out
}

// sayList joins names as a sentence does: "A, B and C".
func sayList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
