package quality

import (
	"github.com/gtmgate/gtmgate"
)

// Agreement measures how the jury agrees over a set of verdicts, and how
// each judge fares against the panel and against operators' labels.
type Agreement struct {
	Verdicts int `json:"verdicts"`
	// FleissKappa is Fleiss' kappa over the judges' categories, on verdicts
	// all three judges answered; null when there are none or every rating
	// falls in one category.
	FleissKappa *float64 `json:"fleiss_kappa"`
	// RoutingDefects counts verdicts flagged as routing defects.
	RoutingDefects int                     `json:"routing_defects"`
	Judges         map[string]*JudgeRecord `json:"judges"`
}

// JudgeRecord is one judge's record over the verdicts.
type JudgeRecord struct {
	Model string `json:"model,omitempty"`
	// Answered and Failed count the judge's valid verdicts and failures.
	Answered int `json:"answered"`
	Failed   int `json:"failed"`
	// CategoryAgreement is the share of answered verdicts whose category is the panel's.
	CategoryAgreement float64 `json:"category_agreement"`
	// QualityAgreement is the share whose quality is within one of the panel's.
	QualityAgreement float64 `json:"quality_agreement"`
	// Labelled counts answered verdicts an operator labelled; Accuracy is the
	// share where the judge matched the label's reference on both category
	// and good/bad quality (3-4 against 1-2).
	Labelled int      `json:"labelled"`
	Accuracy *float64 `json:"accuracy"`

	catAgree, qualAgree, accurate int
}

// Measure computes the agreement over graded verdicts.
func Measure(vs []*gtmgate.GraderVerdict) *Agreement {
	a := &Agreement{Judges: map[string]*JudgeRecord{}}
	var table [][]int // per fully answered verdict: count per category
	for _, v := range vs {
		if v.Status != gtmgate.VerdictGraded || v.Panel == nil {
			continue
		}
		a.Verdicts++
		if v.Panel.RoutingDefect {
			a.RoutingDefects++
		}
		row := make([]int, len(gtmgate.Categories))
		answered := 0
		for _, j := range v.Judges {
			r := a.Judges[j.Judge]
			if r == nil {
				r = &JudgeRecord{}
				a.Judges[j.Judge] = r
			}
			r.Model = j.Model
			if j.Verdict == nil {
				r.Failed++
				continue
			}
			answered++
			r.Answered++
			if i := categoryIndex(j.Verdict.Category); i >= 0 {
				row[i]++
			}
			if j.Verdict.Category == v.Panel.Category {
				r.catAgree++
			}
			if d := j.Verdict.Quality - v.Panel.Quality; d >= -1 && d <= 1 {
				r.qualAgree++
			}
			if l := v.Label; l != nil {
				r.Labelled++
				refQ, refC := v.Panel.Quality, v.Panel.Category
				if !l.Correct {
					refQ = l.Quality
					if l.Category != "" {
						refC = l.Category
					}
				}
				if j.Verdict.Category == refC && (j.Verdict.Quality >= 3) == (refQ >= 3) {
					r.accurate++
				}
			}
		}
		if answered == 3 {
			table = append(table, row)
		}
	}
	for _, r := range a.Judges {
		if r.Answered > 0 {
			r.CategoryAgreement = float64(r.catAgree) / float64(r.Answered)
			r.QualityAgreement = float64(r.qualAgree) / float64(r.Answered)
		}
		if r.Labelled > 0 {
			acc := float64(r.accurate) / float64(r.Labelled)
			r.Accuracy = &acc
		}
	}
	a.FleissKappa = FleissKappa(table)
	return a
}

func categoryIndex(c gtmgate.Category) int {
	for i, k := range gtmgate.Categories {
		if k == c {
			return i
		}
	}
	return -1
}

// FleissKappa computes Fleiss' kappa for subjects (rows) each rated by the
// same number of raters into categories (columns hold counts). It returns
// nil when there are no subjects or the expected agreement is 1 (every
// rating in one category, where kappa is undefined).
func FleissKappa(table [][]int) *float64 {
	if len(table) == 0 {
		return nil
	}
	n := 0
	for _, c := range table[0] {
		n += c
	}
	if n < 2 {
		return nil
	}
	N := float64(len(table))
	cols := len(table[0])
	pj := make([]float64, cols)
	var pBar float64
	for _, row := range table {
		var sq float64
		for j, c := range row {
			pj[j] += float64(c)
			sq += float64(c * c)
		}
		pBar += (sq - float64(n)) / float64(n*(n-1))
	}
	pBar /= N
	var pe float64
	for j := range pj {
		pj[j] /= N * float64(n)
		pe += pj[j] * pj[j]
	}
	if pe >= 1 {
		return nil
	}
	k := (pBar - pe) / (1 - pe)
	return &k
}
