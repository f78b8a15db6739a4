package quality

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func TestSamplerRates(t *testing.T) {
	read := gtmgate.Action{Name: "search", Category: gtmgate.CategoryCRMRead}
	write := gtmgate.Action{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true}
	s := NewSampler(0.1, DefaultFactors)
	s.draw = func() float64 { return 0.999 } // only a rate of 1 samples
	s.SetDegraded([]*gtmgate.PathState{{TenantID: "acme", Tool: "crm_contacts", Action: "search", Degraded: true}})
	for _, tc := range []struct {
		name       string
		tenant     string
		production bool
		action     gtmgate.Action
		rate       float64
		reasons    []string
	}{
		{"base", "beta", false, read, 0.1, nil},
		{"mutating", "beta", false, write, 0.3, []string{"mutating_category"}},
		{"production", "beta", true, read, 0.2, []string{"production_tenant"}},
		{"degraded", "acme", false, read, 0.5, []string{"degraded_path"}},
		{"all, capped at 1", "acme", true, gtmgate.Action{Name: "search", Category: gtmgate.CategoryCRMWrite}, 1,
			[]string{"mutating_category", "production_tenant", "degraded_path"}},
	} {
		s.draw = func() float64 { return tc.rate - 0.0001 }
		got, ok := s.Sample(tc.tenant, tc.production, "crm_contacts", tc.action)
		if !ok || got.Rate < tc.rate-1e-9 || got.Rate > tc.rate+1e-9 || !cmp.Equal(got.Reasons, tc.reasons) {
			t.Errorf("%s: sample %+v %v, want rate %v reasons %v", tc.name, got, ok, tc.rate, tc.reasons)
		}
		s.draw = func() float64 { return tc.rate + 1e-9 }
		if _, ok := s.Sample(tc.tenant, tc.production, "crm_contacts", tc.action); ok && tc.rate < 1 {
			t.Errorf("%s: sampled with a draw at the rate", tc.name)
		}
	}
	if _, ok := NewSampler(0, DefaultFactors).Sample("acme", true, "crm_contacts", write); ok {
		t.Error("rate 0 sampled a call")
	}
	s.markDegraded("acme", "crm_contacts", "search", false)
	s.draw = func() float64 { return 0.15 }
	if _, ok := s.Sample("acme", false, "crm_contacts", read); ok {
		t.Error("a path no longer degraded is still sampled at the raised rate")
	}
}

func BenchmarkSample(b *testing.B) {
	s := NewSampler(0.1, DefaultFactors)
	s.SetDegraded([]*gtmgate.PathState{{TenantID: "acme", Tool: "crm_deals", Action: "search", Degraded: true}})
	a := gtmgate.Action{Name: "search", Category: gtmgate.CategoryCRMRead}
	b.ReportAllocs()
	for b.Loop() {
		s.Sample("acme", false, "crm_contacts", a)
	}
}

func TestNewTraceRedactsAndBounds(t *testing.T) {
	input := map[string]any{"rationale": "r", "api_key": "sk-live-1", "properties": map[string]any{"Password": "p", "email": "a@b.c"},
		"items": []any{map[string]any{"refresh_token": "x", "n": 1.0}}}
	c := &gtmgate.FinishedCall{TenantID: "acme", Tool: "crm_contacts", Action: gtmgate.Action{Name: "create", Category: gtmgate.CategoryCRMWrite},
		Input: input, Result: map[string]any{"text": strings.Repeat("é", maxExcerpt)}}
	tr := NewTrace(c)
	for _, secret := range []string{"sk-live-1", `"p"`, `"x"`} {
		if strings.Contains(string(tr.Input), secret) {
			t.Fatalf("trace input keeps %s: %s", secret, tr.Input)
		}
	}
	if input["api_key"] != "sk-live-1" {
		t.Fatal("Redact changed the caller's input")
	}
	if want := "crm_contacts.create{api_key:string,items:[{n:number,refresh_token:string}],properties:{Password:string,email:string},rationale:string}"; tr.InputShape != want {
		t.Fatalf("shape %s\nwant  %s", tr.InputShape, want)
	}
	if !tr.Truncated || len(tr.Result) > maxExcerpt+16 || !json.Valid(tr.Result) {
		t.Fatalf("excerpt: truncated %v, %d bytes, valid %v", tr.Truncated, len(tr.Result), json.Valid(tr.Result))
	}
	failed := NewTrace(&gtmgate.FinishedCall{Tool: "t", Action: gtmgate.Action{Name: "a"}, Err: errors.New("secret cause")})
	if failed.Error == nil || failed.Error.Code != gtmgate.EInternal || strings.Contains(failed.Error.Message, "secret") {
		t.Fatalf("error of a failed call: %+v", failed.Error)
	}
}
