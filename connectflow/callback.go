package connectflow

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
)

// held is what a link keeps (sealed, in its Secret) between the consent
// and the person's choice: the grant and what it reaches.
type held struct {
	AccessToken   string            `json:"access_token"`
	RefreshToken  string            `json:"refresh_token,omitempty"`
	ExpiresAt     time.Time         `json:"expires_at"`
	TokenEndpoint string            `json:"token_endpoint"`
	Accounts      []connect.Account `json:"accounts"`
	Notes         map[string]string `json:"notes,omitempty"`
}

// callbackParams are the query parameters a provider sends back.
type callbackParams struct {
	State, Code, Error, ErrorDescription string
}

// parseCallback reads the provider's answer; LinkedIn and Google use
// error/error_description, Meta error_reason too (its error is then
// access_denied as well).
func parseCallback(q url.Values) callbackParams {
	return callbackParams{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error"),
		ErrorDescription: clip(q.Get("error_description"), 200)}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// byState finds the link of a state that this browser holds the link's
// cookie of, in status want, not expired; otherwise it writes the refusal
// and returns nil (a finished link: 409, whatever the cookie). A wrong or
// missing cookie leaves the link alone: it may be someone else's attempt
// at it.
func (f *Flow) byState(w http.ResponseWriter, r *http.Request, state, want string) *gtmgate.ConnectLink {
	if state == "" || len(state) > 100 {
		f.refuse(w, http.StatusBadRequest, "Unknown sign-in", "This answer does not belong to a connect link gtmgate started.")
		return nil
	}
	l, err := f.opts.Store.GetConnectLinkByState(r.Context(), hash(state))
	if errors.Is(err, gtmgate.ErrNotFound) {
		f.refuse(w, http.StatusBadRequest, "Unknown sign-in", "This answer does not belong to a connect link gtmgate started.")
		return nil
	} else if err != nil {
		f.internal(w, r, err)
		return nil
	}
	if l.Status == gtmgate.ConnectCompleted || l.Status == gtmgate.ConnectFailed {
		// A finished link's cookie is deleted (forget), and nothing can
		// change the link any more: a replay is told it is used.
		f.refuse(w, http.StatusConflict, "Link already used", alreadyUsed)
		return nil
	}
	if !f.sameBrowser(r, l, state) {
		f.refuse(w, http.StatusForbidden, "Wrong browser", "This sign-in was started in another browser (or its cookie was lost). "+
			"Open the connect link again in the browser you consent with.")
		return nil
	}
	switch {
	case l.Status != want:
		f.refuse(w, http.StatusConflict, "Link already used", alreadyUsed)
		return nil
	case !f.now().Before(l.ExpiresAt):
		f.fail(w, r, l, want, http.StatusGone, "Link expired", "the link expired at "+l.ExpiresAt.Format(time.RFC1123))
		return nil
	}
	return l
}

// callback serves GET /connect/callback: the code exchange, discovery,
// and either the accounts stored or the picker.
func (f *Flow) callback(w http.ResponseWriter, r *http.Request) {
	q := parseCallback(r.URL.Query())
	l := f.byState(w, r, q.State, gtmgate.ConnectOpened)
	if l == nil {
		return
	}
	if isMCP(l.Provider) {
		f.callbackMCP(w, r, l, q)
		return
	}
	p, _ := connect.Lookup(l.Provider)
	if q.Error != "" {
		why := "consent was refused at " + p.Title + ": " + clip(q.Error, 80)
		if q.ErrorDescription != "" {
			why += " (" + q.ErrorDescription + ")"
		}
		f.fail(w, r, l, gtmgate.ConnectOpened, http.StatusForbidden, "Not connected", why)
		return
	}
	// Claim the answer before the code is exchanged: the same answer
	// delivered twice (a double click, a retried request, two replicas)
	// is exchanged once, and the other delivery is told the link is used.
	l.Status = gtmgate.ConnectExchanging
	if !f.claim(w, r, gtmgate.ConnectOpened, l, http.StatusConflict, alreadyUsed) {
		return
	}
	app, err := f.app(r.Context(), l.TenantID, l.Provider)
	if err != nil {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusServiceUnavailable, "Not connected", "no "+p.Title+" OAuth app is registered")
		return
	}
	g, err := f.opts.Client.Exchange(r.Context(), p, app, q.Code, l.Secret, f.redirectURI)
	if err != nil {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusBadGateway, "Not connected", "the code exchange failed: "+gtmgate.AsError(err).Message)
		return
	}
	t, err := f.opts.Store.GetTenant(r.Context(), l.TenantID)
	if err != nil {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusGone, "Not connected", "the tenant could not be read")
		return
	}
	d, _ := f.opts.Client.Discover(r.Context(), p, g, keys(connect.Needs(f.opts.Registry, t, p, l.Products, false)))
	h := &held{AccessToken: g.AccessToken, RefreshToken: g.RefreshToken, ExpiresAt: g.ExpiresAt, TokenEndpoint: g.TokenEndpoint,
		Accounts: d.Accounts, Notes: map[string]string{}}
	for _, prod := range d.Products {
		h.Notes[prod.Provider] = prod.Note()
	}
	if len(h.Accounts) == 0 {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusUnprocessableEntity, "Nothing to connect",
			"the grant reaches no account: "+notes(d))
		return
	}
	secret, err := json.Marshal(h)
	if err != nil {
		f.internal(w, r, err)
		return
	}
	l.Status, l.Secret = gtmgate.ConnectChoosing, string(secret)
	if !f.claim(w, r, gtmgate.ConnectExchanging, l, http.StatusConflict, alreadyUsed) {
		return
	}
	if chosen, ok := autoChoice(h.Accounts, l.AccountHint); ok {
		f.complete(w, r, l, t, app, h, chosen)
		return
	}
	f.audit(r, l, "connect.choosing", gtmgate.OutcomeOK, http.StatusOK, "consent given; choosing accounts")
	f.render(w, http.StatusOK, "picker", pickerPage(p.LinkTitle(l.Products), t, q.State, h))
}

func notes(d *connect.Discovery) string {
	s := ""
	for i, p := range d.Products {
		if i > 0 {
			s += "; "
		}
		s += p.Note()
	}
	return s
}

// autoChoice picks the accounts without asking when every product found
// exactly one, or the hint names one (with the products that found one).
func autoChoice(accounts []connect.Account, hint string) ([]connect.Account, bool) {
	per := map[string]int{}
	for _, a := range accounts {
		per[a.Provider]++
	}
	var out []connect.Account
	hinted := false
	for _, a := range accounts {
		switch {
		case hint != "" && a.ID == hint:
			out, hinted = append(out, a), true
		case per[a.Provider] == 1:
			out = append(out, a)
		}
	}
	if hinted {
		return out, true
	}
	return out, len(out) == len(accounts)
}

// pickerPage asks which of h's accounts of title ("Google Ads") to connect.
func pickerPage(title string, t *gtmgate.Tenant, state string, h *held) page {
	pg := page{Title: "Choose accounts", Provider: title, TenantID: t.ID, TenantName: t.Name, State: state}
	index := map[string]int{}
	for _, a := range h.Accounts {
		i, ok := index[a.Provider]
		if !ok {
			i = len(pg.Groups)
			index[a.Provider] = i
			pg.Groups = append(pg.Groups, group{What: plural(noun(a.Provider))})
		}
		pg.Groups[i].Accounts = append(pg.Groups[i].Accounts, choice{Value: a.Provider + ":" + a.ID, ID: a.ID, Name: a.Name, Via: a.LoginCustomerID})
	}
	for key, note := range h.Notes {
		if i, ok := index[key]; ok {
			pg.Groups[i].Note = note
			continue
		}
		pg.Groups = append(pg.Groups, group{What: plural(noun(key)), Note: note})
	}
	return pg
}

// choose serves POST /connect/choose: the picked accounts are stored.
func (f *Flow) choose(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		f.refuse(w, http.StatusBadRequest, "Unreadable form", "The form could not be read.")
		return
	}
	if err := f.crossOrigin.Check(r); err != nil {
		f.refuse(w, http.StatusForbidden, "Choose on gtmgate's page", "This choice was not sent from gtmgate's own page; nothing was connected.")
		return
	}
	state := r.PostForm.Get("state")
	l := f.byState(w, r, state, gtmgate.ConnectChoosing)
	if l == nil {
		return
	}
	var h held
	if err := json.Unmarshal([]byte(l.Secret), &h); err != nil {
		f.internal(w, r, errors.New("connect link "+l.ID+": held grant unreadable"))
		return
	}
	t, err := f.opts.Store.GetTenant(r.Context(), l.TenantID)
	if err != nil {
		f.internal(w, r, err)
		return
	}
	var chosen []connect.Account
	for _, v := range r.PostForm["account"] {
		for _, a := range h.Accounts {
			if v == a.Provider+":"+a.ID {
				chosen = append(chosen, a)
			}
		}
	}
	p, _ := connect.Lookup(l.Provider)
	if len(chosen) == 0 {
		pg := pickerPage(p.LinkTitle(l.Products), t, state, &h)
		pg.Title = "Choose at least one account"
		f.render(w, http.StatusBadRequest, "picker", pg)
		return
	}
	app, err := f.app(r.Context(), l.TenantID, l.Provider)
	if err != nil {
		f.fail(w, r, l, gtmgate.ConnectChoosing, http.StatusServiceUnavailable, "Not connected", "no "+p.Title+" OAuth app is registered")
		return
	}
	f.complete(w, r, l, t, app, &h, chosen)
}

// fail marks the link failed (from status from) with why, audits it and
// shows the refusal.
func (f *Flow) fail(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink, from string, status int, title, why string) {
	now := f.now()
	l.Status, l.Secret, l.FinishedAt, l.Result = gtmgate.ConnectFailed, "", &now, why
	err := f.opts.Store.AdvanceConnectLink(r.Context(), from, l)
	switch {
	case errors.Is(err, gtmgate.ErrConflict):
		// Another delivery of the link's answer moved it on first: this one
		// failed only because that one is under way, or done.
		f.refuse(w, http.StatusConflict, "Link already used", alreadyUsed)
		return
	case err != nil:
		f.opts.Logger.Error("connect flow: mark failed", "err", err, "link", l.ID)
	}
	f.audit(r, l, "connect.failed", gtmgate.OutcomeError, status, why)
	f.forget(w, l)
	f.refuse(w, status, title, "Nothing was connected: "+why+".")
}

// alreadyUsed is what a request that lost its link to another one is told.
const alreadyUsed = "This connect link was already used; nothing was changed."

// claim moves l from status from to the status l now holds; false, with the
// refusal (status, why) or the error written, when another request moved
// it first or the store failed.
func (f *Flow) claim(w http.ResponseWriter, r *http.Request, from string, l *gtmgate.ConnectLink, status int, why string) bool {
	err := f.opts.Store.AdvanceConnectLink(r.Context(), from, l)
	switch {
	case errors.Is(err, gtmgate.ErrConflict):
		f.refuse(w, status, "Link already used", why)
		return false
	case err != nil:
		f.internal(w, r, err)
		return false
	}
	return true
}
