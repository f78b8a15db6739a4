package gtmgate

import (
	"context"
	"time"
)

// RateLimit is a token bucket: RequestsPerSecond refill, Burst capacity.
// Zero RequestsPerSecond means no limit.
type RateLimit struct {
	RequestsPerSecond float64 `json:"requests_per_second"`
	Burst             int     `json:"burst"`
}

// RateLimits are a tenant's request limits: over all its credentials, and
// for each credential (tenant token or OAuth client) alone.
type RateLimits struct {
	Tenant   *RateLimit `json:"tenant,omitempty"`
	PerToken *RateLimit `json:"per_token,omitempty"`
}

// Replica is one gtmgate process sharing the database.
type Replica struct {
	ID        string    `json:"id"`
	Hostname  string    `json:"hostname"`
	Version   string    `json:"version"`
	StartedAt time.Time `json:"started_at"`
	SeenAt    time.Time `json:"seen_at"`
}

// HealthSnapshot is one system health snapshot; Body is its JSON report.
type HealthSnapshot struct {
	ID      string
	TakenAt time.Time
	Status  string
	Body    []byte
}

// OperationsStore keeps replica heartbeats and health snapshots.
type OperationsStore interface {
	// Heartbeat records that a replica is alive now.
	Heartbeat(ctx context.Context, r Replica) error
	// ListReplicas returns the replicas seen at or after since, by id.
	ListReplicas(ctx context.Context, since time.Time) ([]Replica, error)
	// ForgetReplica removes a replica that stopped.
	ForgetReplica(ctx context.Context, id string) error
	AddHealthSnapshot(ctx context.Context, s *HealthSnapshot) error
	// ListHealthSnapshots returns snapshots taken at or after since, oldest
	// first, at most limit; with since zero, the latest one.
	ListHealthSnapshots(ctx context.Context, since time.Time, limit int) ([]*HealthSnapshot, error)
	// MigrationVersion is the highest schema migration applied.
	MigrationVersion(ctx context.Context) (int, error)
	// RecentUsage returns all tenants' usage events from since on, newest
	// first, at most limit.
	RecentUsage(ctx context.Context, since time.Time, limit int) ([]UsageEvent, error)
}
