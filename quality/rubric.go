package quality

import (
	_ "embed"
)

// RubricVersion names the rubric every verdict is graded with; it is stored
// on each verdict so a changed rubric never mixes with older grades.
const RubricVersion = "v1"

// Rubric is the judges' instructions (quality/rubric/v1.md, shown in the docs).
//
//go:embed rubric/v1.md
var Rubric string
