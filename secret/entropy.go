package secret

import "math"

// MinTokenEntropyBits is the least estimated entropy a tenant bearer token
// may carry: guessing 2^64 values is out of reach, online or offline.
const MinTokenEntropyBits = 64

// EntropyBits estimates the entropy of s from how its characters are
// distributed (Shannon entropy per character times length). It is an upper
// bound for structured strings, but it catches what matters at registration:
// repeated characters ("aaaa…"), tiny alphabets ("0101…") and short tokens.
// A random token of 32 hex characters scores about 120 bits.
func EntropyBits(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var perChar float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		perChar -= p * math.Log2(p)
	}
	return perChar * float64(n)
}
