package billing

import (
	"math"
	"regexp"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
)

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// maxPrice bounds any one price or budget: a typo of many zeros is refused.
const maxPrice = 1e9

// Validate checks a plan and fills its defaults (limit soft, billing day 1,
// time zone UTC, plan "custom"). Errors are VALIDATION_ERROR naming the field.
func Validate(p *gtmgate.BillingPlan) error {
	bad := func(field, format string, args ...any) error {
		return gtmgate.Errorf(gtmgate.EValidation, field+": "+format, args...).AtField(field)
	}
	if p.Plan == "" {
		p.Plan = "custom"
	}
	if len(p.Plan) > 100 {
		return bad("plan", "at most 100 characters")
	}
	if !currencyCode.MatchString(p.Currency) {
		return bad("currency", "%q is not an ISO 4217 code such as EUR or USD", p.Currency)
	}
	switch p.Limit {
	case "":
		p.Limit = gtmgate.LimitSoft
	case gtmgate.LimitSoft, gtmgate.LimitHard:
	default:
		return bad("limit", "%q is not soft or hard", p.Limit)
	}
	if p.BillingDay == 0 {
		p.BillingDay = 1
	}
	if p.BillingDay < 1 || p.BillingDay > 28 {
		return bad("billing_day", "%d is not a day from 1 to 28 (every month has it)", p.BillingDay)
	}
	if p.Timezone == "" {
		p.Timezone = "UTC"
	}
	if _, err := time.LoadLocation(p.Timezone); err != nil || p.Timezone == "Local" {
		return bad("timezone", "%q is not an IANA time zone such as Europe/Berlin", p.Timezone)
	}
	if p.IncludedCalls < 0 {
		return bad("included_calls", "must not be negative")
	}
	if p.IncludedTokens < 0 {
		return bad("included_tokens", "must not be negative")
	}
	if err := amount("monthly_budget", p.MonthlyBudget); err != nil {
		return err
	}
	if err := amount("tool_call_price.default", p.ToolCallPrice.Default); err != nil {
		return err
	}
	for c, v := range p.ToolCallPrice.ByCategory {
		if !slices.Contains(gtmgate.Categories, gtmgate.Category(c)) && c != gtmgate.BillingCategoryFederated {
			return bad("tool_call_price.by_category."+c, "%q is not a category; categories: %v and %s", c, gtmgate.Categories,
				gtmgate.BillingCategoryFederated)
		}
		if err := amount("tool_call_price.by_category."+c, v); err != nil {
			return err
		}
	}
	if err := tokenPrice("chat_token_price.default", p.ChatTokenPrice.Default); err != nil {
		return err
	}
	for m, v := range p.ChatTokenPrice.ByModel {
		if m == "" || len(m) > 200 {
			return bad("chat_token_price.by_model", "model names are 1 to 200 characters")
		}
		if err := tokenPrice("chat_token_price.by_model."+m, v); err != nil {
			return err
		}
	}
	return nil
}

func tokenPrice(field string, p gtmgate.TokenPrice) error {
	if err := amount(field+".input", p.Input); err != nil {
		return err
	}
	return amount(field+".output", p.Output)
}

// amount checks a price or budget: finite, not negative, at most maxPrice,
// and no finer than a millionth.
func amount(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxPrice {
		return gtmgate.Errorf(gtmgate.EValidation, "%s: %v is not an amount from 0 to %.0f", field, v, maxPrice).AtField(field)
	}
	if math.Abs(v*1e6-math.Round(v*1e6)) > 1e-3 {
		return gtmgate.Errorf(gtmgate.EValidation, "%s: %v has more than 6 decimal places", field, v).AtField(field)
	}
	return nil
}
