package billing

import "math"

// Micros is an amount of money in millionths of the plan's currency:
// integer arithmetic, so sums do not drift.
type Micros int64

// ToMicros rounds an amount to the nearest millionth.
func ToMicros(v float64) Micros { return Micros(math.Round(v * 1e6)) }

// Float is the amount in currency units, for JSON.
func (m Micros) Float() float64 { return float64(m) / 1e6 }

// perThousand prices n tokens at price per 1,000, rounded to a millionth.
func perThousand(n int64, price float64) Micros {
	return Micros(math.Round(float64(n) * price * 1000)) // price·1e6/1000 per token
}
