package googleads

import (
	"net/http"
	"regexp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

var customerIDPattern = regexp.MustCompile(`^[0-9]{1,20}$`)

// customerID returns the call's account as a Google Ads customer id.
func customerID(call *gtmgate.Call) (string, error) {
	id := CustomerID(call.Account.ID)
	if !customerIDPattern.MatchString(id) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "account %q is not a Google Ads customer id (10 digits, dashes allowed)", call.Account.ID)
	}
	return id, nil
}

// accountHeader returns login-customer-id when the tenant reaches the
// account through a manager account: Google refuses a client account to a
// user who has access only through its manager unless every request names
// that manager.
func accountHeader(call *gtmgate.Call) (http.Header, error) {
	raw := call.Account.LoginCustomerID
	if raw == "" {
		return nil, nil
	}
	id := CustomerID(raw)
	if !customerIDPattern.MatchString(id) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "login_customer_id %q of account %q is not a Google Ads customer id (10 digits, dashes allowed)", raw, call.Account.ID)
	}
	h := http.Header{}
	h.Set("login-customer-id", id)
	return h, nil
}

// version is the API version in the client's paths.
func (a *api) version() string {
	if v := a.c.APIVersion(); v != "" {
		return v
	}
	return DefaultVersion()
}

// post returns a POST of body to method ("googleAds:search",
// "campaigns:mutate") of the call's customer, with the call's token and
// login-customer-id.
func (a *api) post(call *gtmgate.Call, method string, body any) (*upstream.Request, error) {
	cid, err := customerID(call)
	if err != nil {
		return nil, err
	}
	h, err := accountHeader(call)
	if err != nil {
		return nil, err
	}
	return &upstream.Request{Method: http.MethodPost, Path: "/" + a.version() + "/customers/" + cid + "/" + method,
		JSON: body, Header: h, Token: call.Token}, nil
}
