package apptest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// gatewayContract holds the validator of the gateway's own /openapi.json.
type gatewayContract struct {
	once sync.Once
	v    validator.Validator
	err  string
}

// checkGatewayResponse validates a gateway response against the document
// the gateway serves, so that every HTTP test through Do holds the
// description to what the handlers answer. Requests to paths the document
// does not have (the 404 fallback, deliberate nonsense) are not checked.
func (e *Env) checkGatewayResponse(req *http.Request, status int, header http.Header, body []byte) {
	e.T.Helper()
	if !e.checksGateway(req) {
		return
	}
	if e.contract.err != "" {
		e.T.Errorf("gateway OpenAPI document: %s", e.contract.err)
		return
	}
	resp := &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	if ok, errs := e.contract.v.ValidateHttpResponse(req, resp); !ok {
		for _, ve := range errs {
			if ve.IsPathMissingError() || ve.IsOperationMissingError() {
				return
			}
		}
		for _, ve := range errs {
			msg := ve.Message + ": " + ve.Reason
			for _, se := range ve.SchemaValidationErrors {
				msg += "; " + se.FieldPath + ": " + se.Reason
			}
			e.T.Errorf("%s %s → %d does not match the gateway's OpenAPI document: %s\nbody: %.600s", req.Method, req.URL.Path, status, msg, body)
		}
	}
}

// checksGateway reports whether req's answer is checked, loading the
// document first (before the request: a test may be stopping the gateway).
func (e *Env) checksGateway(req *http.Request) bool {
	if e.GatewayURL == "" || !strings.HasPrefix(req.URL.String(), e.GatewayURL) || req.URL.Path == "/openapi.json" {
		return false
	}
	e.contract.once.Do(func() { e.contract.v, e.contract.err = e.loadGatewayContract() })
	return true
}

func (e *Env) loadGatewayContract() (validator.Validator, string) {
	resp, err := http.Get(e.GatewayURL + "/openapi.json")
	if err != nil {
		return nil, err.Error()
	}
	defer resp.Body.Close()
	spec, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, "GET /openapi.json: " + resp.Status
	}
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, err.Error()
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, errs[0].Error()
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		return nil, verrs[0].Message + ": " + verrs[0].Reason
	}
	return v, ""
}
