package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// RunningJob is a job being worked: by which process (its ClientID), since
// when, and whether a cancel was asked for.
type RunningJob struct {
	ID        int64
	Args      json.RawMessage
	WorkedBy  string
	Since     time.Time
	Cancelled bool
}

// RunningJobs lists up to limit jobs of kind being worked, oldest first.
func (e *Engine) RunningJobs(ctx context.Context, kind string, limit int) ([]RunningJob, error) {
	res, err := e.client.JobList(ctx, river.NewJobListParams().Kinds(kind).States(rivertype.JobStateRunning).First(limit))
	if err != nil {
		return nil, fmt.Errorf("jobs: list running %s jobs: %w", kind, err)
	}
	out := make([]RunningJob, 0, len(res.Jobs))
	for _, j := range res.Jobs {
		rj := RunningJob{ID: j.ID, Args: j.EncodedArgs}
		if n := len(j.AttemptedBy); n > 0 {
			rj.WorkedBy = j.AttemptedBy[n-1]
		}
		if j.AttemptedAt != nil {
			rj.Since = *j.AttemptedAt
		}
		var meta struct {
			CancelAttemptedAt *time.Time `json:"cancel_attempted_at"`
		}
		if json.Unmarshal(j.Metadata, &meta) == nil && meta.CancelAttemptedAt != nil {
			rj.Cancelled = true
		}
		out = append(out, rj)
	}
	return out, nil
}

// CancelJob cancels a job: one being worked is marked so (its process, if
// alive, stops it; River's rescuer ends it if not), any other ends now.
func (e *Engine) CancelJob(ctx context.Context, id int64) error {
	if _, err := e.client.JobCancel(ctx, id); err != nil {
		return fmt.Errorf("jobs: cancel job %d: %w", id, err)
	}
	return nil
}
