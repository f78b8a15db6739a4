package providertest

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// Step is one call of an action in a Walk: its input, a fault to inject
// first (nil: none), and the error code it must end with ("" for success).
// Account, when set, is the account the call acts for instead of the kit's.
// Check, when set, is called after the call with its error (nil on success),
// for what else the step must show, such as the shape of the provider's
// error body, and may undo what Before armed; an error it returns fails the
// test. Answer, when set, is called with a successful call's result and
// says what is wrong with it (nil when nothing is): the records a filter
// must select, so a step proves the sandbox answered as the provider would,
// not only that the request passed the spec.
type Step struct {
	Input    string
	Before   func()
	WantCode string
	Account  *gtmgate.Account
	Check    func(err error) error
	Answer   func(out map[string]any) error
}

// ActionWalk is the steps of one tool action.
type ActionWalk struct {
	Tool, Action string
	Steps        []Step
}

// Walk runs every action of the kit's tools against a sandbox that checks
// its traffic against the provider's published spec, and logs, per action,
// the spec operations it was checked against. Every action must be walked,
// at least once succeeding and once refused by the provider (an error the
// provider answered, not one gtmgate raised before calling it), and must
// reach at least one operation of the spec.
func Walk(t *testing.T, k Kit, spec gtmgate.SpecChecks, walks []ActionWalk) {
	t.Helper()
	walked := map[string]bool{}
	for _, w := range walks {
		walked[w.Tool+"."+w.Action] = true
	}
	for _, name := range slices.Sorted(maps.Keys(k.Tools)) {
		for _, a := range k.Tools[name].Actions {
			if !walked[name+"."+a.Name] {
				t.Errorf("%s.%s is not walked: add it with a success and a provider error", name, a.Name)
			}
		}
	}
	for _, w := range walks {
		before := spec.Checked()
		succeeded, refused := false, false
		for _, s := range w.Steps {
			if s.Before != nil {
				s.Before()
			}
			kit := k
			if s.Account != nil {
				kit.Account = *s.Account
			}
			out, err := kit.Run(t, w.Tool, s.Input)
			switch {
			case s.WantCode == "" && err != nil:
				t.Errorf("%s.%s %s: %v", w.Tool, w.Action, s.Input, err)
			case s.WantCode == "":
				succeeded = true
				if s.Answer != nil {
					if problem := s.Answer(out); problem != nil {
						t.Errorf("%s.%s %s: %v", w.Tool, w.Action, s.Input, problem)
					}
				}
			default:
				WantCode(t, err, s.WantCode)
				var ge *gtmgate.Error
				if d, ok := detailOf(err, &ge); ok && d.Status != 0 {
					refused = true
				}
			}
			if s.Check != nil {
				if problem := s.Check(err); problem != nil {
					t.Errorf("%s.%s %s: %v", w.Tool, w.Action, s.Input, problem)
				}
			}
		}
		ops := CheckedSince(before, spec.Checked())
		t.Logf("%-36s checked against %v", w.Tool+"."+w.Action, ops)
		if !succeeded || !refused {
			t.Errorf("%s.%s: walked with a success %v and a provider's refusal %v; it needs both", w.Tool, w.Action, succeeded, refused)
		}
		if len(ops) == 0 {
			t.Errorf("%s.%s reached no operation of the spec", w.Tool, w.Action)
		}
	}
}

func detailOf(err error, ge **gtmgate.Error) (gtmgate.UpstreamDetail, bool) {
	if !errors.As(err, ge) {
		return gtmgate.UpstreamDetail{}, false
	}
	d, ok := (*ge).Detail.(gtmgate.UpstreamDetail)
	return d, ok
}

// CheckedSince lists, sorted, the spec operations counted more often in
// after than in before (two readings of SpecChecks.Checked).
func CheckedSince(before, after map[string]int) []string {
	var ops []string
	for _, id := range slices.Sorted(maps.Keys(after)) {
		if after[id] > before[id] {
			ops = append(ops, id)
		}
	}
	return ops
}
