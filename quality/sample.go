package quality

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/gtmgate/gtmgate"
)

// Factors raise the base sample rate; the rate is capped at 1.
type Factors struct {
	// Mutating multiplies the rate for actions in the categories that change
	// things: crm_write, ads_mutate, email_send.
	Mutating float64
	// Production multiplies it for tenants marked production.
	Production float64
	// Degraded multiplies it for a tool path after a bad panel verdict, until
	// it has earned enough good verdicts again (PathRules.CloseAfter).
	Degraded float64
}

// DefaultFactors are the documented factors.
var DefaultFactors = Factors{Mutating: 3, Production: 2, Degraded: 5}

// Sampler decides which calls are graded. It is safe for concurrent use and
// allocates nothing for a call it does not sample.
type Sampler struct {
	base     float64
	factors  Factors
	degraded atomic.Pointer[map[pathKey]struct{}]
	// draw returns a number in [0, 1); tests replace it.
	draw func() float64
}

type pathKey struct{ tenant, tool, action string }

// NewSampler returns a sampler at base rate (0 samples nothing, 1 everything).
func NewSampler(base float64, f Factors) *Sampler {
	s := &Sampler{base: base, factors: f, draw: rand.Float64}
	s.degraded.Store(&map[pathKey]struct{}{})
	return s
}

// Base returns the configured base rate.
func (s *Sampler) Base() float64 { return s.base }

// Sample decides for one call: the rate it was drawn at, the reasons the
// rate was raised, and whether it is sampled.
func (s *Sampler) Sample(tenantID string, production bool, tool string, a gtmgate.Action) (gtmgate.Sample, bool) {
	if s == nil || s.base <= 0 {
		return gtmgate.Sample{}, false
	}
	rate := s.base
	mutating := mutatingCategory(a.Category)
	if mutating {
		rate *= s.factors.Mutating
	}
	if production {
		rate *= s.factors.Production
	}
	_, degraded := (*s.degraded.Load())[pathKey{tenantID, tool, a.Name}]
	if degraded {
		rate *= s.factors.Degraded
	}
	rate = min(rate, 1)
	if rate < 1 && s.draw() >= rate {
		return gtmgate.Sample{}, false
	}
	smp := gtmgate.Sample{Rate: rate}
	if mutating {
		smp.Reasons = append(smp.Reasons, "mutating_category")
	}
	if production {
		smp.Reasons = append(smp.Reasons, "production_tenant")
	}
	if degraded {
		smp.Reasons = append(smp.Reasons, "degraded_path")
	}
	return smp, true
}

// SetDegraded replaces the set of degraded tool paths.
func (s *Sampler) SetDegraded(states []*gtmgate.PathState) {
	m := make(map[pathKey]struct{}, len(states))
	for _, p := range states {
		if p.Degraded {
			m[pathKey{p.TenantID, p.Tool, p.Action}] = struct{}{}
		}
	}
	s.degraded.Store(&m)
}

// markDegraded updates one path at once, after this process graded it.
func (s *Sampler) markDegraded(tenantID, tool, action string, degraded bool) {
	for {
		old := s.degraded.Load()
		k := pathKey{tenantID, tool, action}
		if _, ok := (*old)[k]; ok == degraded {
			return
		}
		m := make(map[pathKey]struct{}, len(*old)+1)
		for k, v := range *old {
			m[k] = v
		}
		if degraded {
			m[k] = struct{}{}
		} else {
			delete(m, k)
		}
		if s.degraded.CompareAndSwap(old, &m) {
			return
		}
	}
}

func mutatingCategory(c gtmgate.Category) bool {
	return c == gtmgate.CategoryCRMWrite || c == gtmgate.CategoryAdsMutate || c == gtmgate.CategoryEmailSend
}
