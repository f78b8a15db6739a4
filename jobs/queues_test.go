package jobs

import (
	"testing"

	"github.com/riverqueue/river"
)

func TestQueueConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		workers map[string]int
		want    map[string]int
		wantErr bool
	}{
		{name: "defaults", workers: nil, want: DefaultWorkers},
		{name: "zero keeps the default", workers: map[string]int{QueueGrading: 0, QueueAgents: 9},
			want: map[string]int{QueueGrading: 4, QueueAgents: 9, QueueSchedules: 4, QueueWebhooks: 2, QueueMaintenance: 2, QueueLegacy: 1}},
		{name: "legacy queue takes a count", workers: map[string]int{QueueLegacy: 8},
			want: map[string]int{QueueGrading: 4, QueueAgents: 4, QueueSchedules: 4, QueueWebhooks: 2, QueueMaintenance: 2, QueueLegacy: 8}},
		{name: "negative", workers: map[string]int{QueueGrading: -1}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := queueConfig(tt.workers)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("queues = %v, want %v", got, tt.want)
			}
			for q, n := range tt.want {
				if got[q] != (river.QueueConfig{MaxWorkers: n}) {
					t.Errorf("queue %s = %+v, want %d workers", q, got[q], n)
				}
			}
		})
	}
}
