package config

import (
	"strings"
	"testing"
)

// TestJobWorkers: each queue has its own setting; GTMGATE_JOB_WORKERS, when
// set, fills the ones left unset; GRADER_MAX_WAITING defaults to 10,000.
func TestJobWorkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		env     []string
		want    [6]int64 // all, grading, agents, schedules, webhooks, maintenance
		wantErr string
	}{
		{name: "unset: each queue's default (0 here)", want: [6]int64{}},
		{name: "one queue", env: []string{"GTMGATE_JOB_WORKERS_GRADING=1"}, want: [6]int64{0, 1, 0, 0, 0, 0}},
		{name: "the old setting fills the others", env: []string{"GTMGATE_JOB_WORKERS=8", "GTMGATE_JOB_WORKERS_AGENTS=2"},
			want: [6]int64{8, 8, 2, 8, 8, 8}},
		{name: "out of range", env: []string{"GTMGATE_JOB_WORKERS_SCHEDULES=300"}, wantErr: "GTMGATE_JOB_WORKERS_SCHEDULES: 300 is outside 1..256"},
		{name: "negative old setting", env: []string{"GTMGATE_JOB_WORKERS=-1"}, wantErr: "GTMGATE_JOB_WORKERS: -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(nil, tc.env)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := [6]int64{c.JobWorkers, c.JobWorkersGrading, c.JobWorkersAgents, c.JobWorkersSchedules, c.JobWorkersWebhooks, c.JobWorkersMaintenance}
			if got != tc.want {
				t.Errorf("workers = %v, want %v", got, tc.want)
			}
			if c.GraderMaxWaiting != 10_000 {
				t.Errorf("GraderMaxWaiting = %d", c.GraderMaxWaiting)
			}
		})
	}
}
