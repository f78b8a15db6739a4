package config

import "fmt"

// limitSetting is one gateway-wide tenant limit: its default, and where
// Load puts it.
type limitSetting struct {
	Setting
	def int64
	dst *int64
}

// tenantLimitSettings are the gateway's tenant limits, each overridable
// per tenant (limits on PUT /admin/tenants/{tenant_id}). The defaults are
// agent.DefaultTenantLimits.
func (c *Config) tenantLimitSettings() []limitSetting {
	return []limitSetting{
		{Setting{"GTMGATE_TENANT_RUNS_IN_FLIGHT", "", "8", "agent runs one tenant may have running at once over all replicas; more wait queued (and say so)"}, 8, &c.TenantRunsInFlight},
		{Setting{"GTMGATE_TENANT_RUNS_QUEUED", "", "100", "agent runs one tenant may have waiting to start; a start past it is RATE_LIMITED"}, 100, &c.TenantRunsQueued},
		{Setting{"GTMGATE_TENANT_SCHEDULES", "", "50", "enabled schedules one tenant may have; putting one more is QUOTA_EXCEEDED"}, 50, &c.TenantSchedules},
		{Setting{"GTMGATE_TENANT_STEPS_PER_MINUTE", "", "120", "tool calls one tenant's agent runs and scheduled calls may make a minute; a step past it waits (and its run says so)"}, 120, &c.TenantStepsPerMinute},
	}
}

// loadTenantLimits reads the tenant limit settings.
func (c *Config) loadTenantLimits(env *envReader) error {
	var err error
	for _, l := range c.tenantLimitSettings() {
		if *l.dst, err = env.int64(l.Env, l.def); err != nil {
			return err
		}
	}
	return nil
}

// validateTenantLimits checks the tenant limit settings.
func (c *Config) validateTenantLimits() error {
	for _, l := range c.tenantLimitSettings() {
		if *l.dst < 0 || *l.dst > 1_000_000 {
			return fmt.Errorf("%s: %d is outside 1..1000000 (0 takes the default)", l.Env, *l.dst)
		}
	}
	return nil
}
