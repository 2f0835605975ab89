package ordertrace

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSimpleDecimal checks the fast path against strconv, bit for bit.
func TestSimpleDecimal(t *testing.T) {
	tokens := []string{"0", "-0", "1", "2.5", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456", "9.999999999999999", "-0.125", "1e5"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		tokens = append(tokens, strconv.FormatFloat(rng.Float64()*1000, 'f', rng.IntN(14), 64))
	}
	for _, tok := range tokens {
		want, _ := strconv.ParseFloat(tok, 64)
		s := scanner{b: []byte(tok)}
		got, err := s.float64()
		if err != nil || got != want || (got == 0 && (1/got > 0) != (1/want > 0)) {
			t.Errorf("%s: got %v (%v), want %v", tok, got, err, want)
		}
	}
}
