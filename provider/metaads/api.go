package metaads

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// api holds the client the tools call Meta with.
type api struct{ c *upstream.Client }

var accountPattern = regexp.MustCompile(`^act_[0-9]{1,20}$`)

// account returns the call's ad account in path form (act_…).
func account(call *gtmgate.Call) (string, error) {
	id := AccountID(call.Account.ID)
	if !accountPattern.MatchString(id) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "account %q is not a Meta ad account id (digits, optionally act_-prefixed)", call.Account.ID)
	}
	return id, nil
}

// page is a Graph API list response.
type page struct {
	Data   []map[string]any `json:"data"`
	Paging struct {
		Cursors struct {
			After string `json:"after"`
		} `json:"cursors"`
		Next string `json:"next"`
	} `json:"paging"`
}

// updateAnswer is Graph's answer to an object update.
type updateAnswer struct {
	Success bool `json:"success"`
}

// accountCurrency is what the tools read of an ad account.
type accountCurrency struct {
	Currency string `json:"currency"`
}

// next returns the cursor of the following page, or "" on the last one.
func (p *page) next() string {
	if p.Paging.Next == "" {
		return ""
	}
	return p.Paging.Cursors.After
}

// version is the Graph API version in every path: the client's, else the
// catalogue's default.
func (a *api) version() string {
	if v := a.c.APIVersion(); v != "" {
		return v
	}
	return catalogue().Default
}

// get reads a Graph API path.
func (a *api) get(ctx context.Context, call *gtmgate.Call, path string, q url.Values, out any) error {
	req := &upstream.Request{Method: http.MethodGet, Path: "/" + a.version() + "/" + path, Query: q, Token: call.Token}
	if err := a.c.Do(ctx, req, out); err != nil {
		return fmt.Errorf("meta ads: GET %s: %w", path, a.graphError(err))
	}
	return nil
}

// post changes a Graph API object with form fields; it is never retried.
func (a *api) post(ctx context.Context, call *gtmgate.Call, path string, form url.Values) error {
	req := &upstream.Request{Method: http.MethodPost, Path: "/" + a.version() + "/" + path, Body: []byte(form.Encode()),
		ContentType: "application/x-www-form-urlencoded", Mutating: true, Token: call.Token}
	var out updateAnswer
	if err := a.c.Do(ctx, req, &out); err != nil {
		return fmt.Errorf("meta ads: POST %s: %w", path, a.graphError(err))
	}
	if !out.Success {
		return &gtmgate.Error{Code: gtmgate.EUpstream, Message: "meta_ads did not confirm the change", Detail: gtmgate.UpstreamDetail{Provider: Provider, Status: 200}}
	}
	return nil
}

var errorCode = regexp.MustCompile(`"code"\s*:\s*([0-9]+)`)

// errDeprecatedVersion is Graph's error code for a call to an expired
// Marketing API version.
const errDeprecatedVersion = 2635

// graphError reads the Graph error code of a refused call, all of which Meta
// sends as HTTP 400: a call to an expired version names the setting that
// moves it (the codes the client acts on, classify reads).
func (a *api) graphError(err error) error {
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		return err
	}
	d, _ := e.Detail.(gtmgate.UpstreamDetail)
	m := errorCode.FindStringSubmatch(d.Body)
	if m == nil {
		return err
	}
	if code, _ := strconv.Atoi(m[1]); code == errDeprecatedVersion {
		cat := catalogue()
		e.Message += fmt.Sprintf("; Meta no longer serves Marketing API %s: set %s to a current version", a.version(), cat.Setting)
		e.Hint = fmt.Sprintf("the gateway's operator must set %s to a Marketing API version Meta still serves (this release's default is %s, the newest it knows %s)",
			cat.Setting, cat.Default, cat.Newest())
	}
	return err
}

// currency reads the ad account's currency.
func (a *api) currency(ctx context.Context, call *gtmgate.Call) (string, error) {
	acct, err := account(call)
	if err != nil {
		return "", err
	}
	var out accountCurrency
	if err := a.get(ctx, call, acct, url.Values{"fields": {"currency"}}, &out); err != nil {
		return "", err
	}
	return out.Currency, nil
}

// zeroDecimal are currencies Meta counts in whole units (offset 1) rather than hundredths.
var zeroDecimal = []string{"CLP", "COP", "CRC", "HUF", "ISK", "IDR", "JPY", "KRW", "PYG", "TWD", "VND"}

// minorPerUnit returns how many minor units make one unit of currency on Meta.
func minorPerUnit(currency string) float64 {
	if slices.Contains(zeroDecimal, currency) {
		return 1
	}
	return 100
}

// toMinor converts currency units to Meta's minor units (cents for USD).
func toMinor(amount float64, currency string) int64 {
	return int64(math.Round(amount * minorPerUnit(currency)))
}

// fromMinor converts Meta's minor units (a string or number) to currency units.
func fromMinor(v any, currency string) any {
	n, ok := number(v)
	if !ok {
		return nil
	}
	return n / minorPerUnit(currency)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		n, err := strconv.ParseFloat(x, 64)
		return n, err == nil && !math.IsInf(n, 0) && !math.IsNaN(n)
	}
	return 0, false
}

// filtering maps a gtmgate filter to Meta's filtering parameter.
func filtering(f *gtmgate.Filter) (string, error) {
	ops := map[string]string{"EQ": "EQUAL", "NEQ": "NOT_EQUAL", "LT": "LESS_THAN", "LTE": "LESS_THAN_OR_EQUAL",
		"GT": "GREATER_THAN", "GTE": "GREATER_THAN_OR_EQUAL", "BETWEEN": "IN_RANGE", "IN": "IN", "NOT_IN": "NOT_IN",
		"CONTAINS_TOKEN": "CONTAIN", "NOT_CONTAINS_TOKEN": "NOT_CONTAIN"}
	op, ok := ops[f.Operator]
	if !ok {
		return "", gtmgate.Errorf(gtmgate.EValidation, "filter operator %s has no Meta equivalent", f.Operator)
	}
	if !filterField.MatchString(f.Property) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "filter property %q is not a Meta field (campaign.name, adset.id, spend…)", f.Property)
	}
	b, err := json.Marshal([]map[string]any{{"field": f.Property, "operator": op, "value": f.Value}})
	if err != nil {
		return "", fmt.Errorf("meta ads: encode filtering: %w", err)
	}
	return string(b), nil
}

var filterField = regexp.MustCompile(`^[a-z_]{1,40}(\.[a-z_]{1,40})?$`)

// listResult is the shape of every list result (see the package doc).
func listResult(items []map[string]any, next, currency string) map[string]any {
	out := map[string]any{"items": items, "currency": currency}
	if next != "" {
		out["next_cursor"] = next
	}
	return out
}
