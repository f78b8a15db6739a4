package quality

import (
	_ "embed"
)

// RubricVersion names the rubric every verdict is graded with; it is stored
// on each verdict so a changed rubric never mixes with older grades.
const RubricVersion = "v2"

// Rubric is the judges' instructions (quality/rubric/v2.md, shown in the
// docs). v1 stays in the repository: verdicts graded with it say so.
//
//go:embed rubric/v2.md
var Rubric string
