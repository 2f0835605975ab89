package tracefile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// sameFloat reports whether the scanner reads tok as strconv does, bit
// for bit (the sign of a zero included), remembering numbers in recent
// (nil: none).
func sameFloat(t *testing.T, recent *recentFloats, tok string) {
	t.Helper()
	want, werr := strconv.ParseFloat(tok, 64)
	s := scanner{b: []byte(tok), recent: recent}
	got, err := s.float64()
	if werr != nil || math.IsInf(want, 0) {
		if err == nil {
			t.Errorf("%s: read %v, want an error (strconv: %v, %v)", tok, got, want, werr)
		}
		return
	}
	if err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%s: got %v (%v), want %v", tok, got, err, want)
	}
}

// TestExactDecimal checks the fast path and the numbers remembered
// against strconv, bit for bit, and that the fast path takes the numbers
// it is meant to.
func TestExactDecimal(t *testing.T) {
	tokens := []string{"0", "-0", "-0.0", "1", "2.5", "0.1", "0.30000000000000004", "123456789012345",
		"1234567890123456", "9.999999999999999", "-0.125", "1e5", "1E+22", "1e23", "1e-22", "1e-23",
		"9007199254740992", "9007199254740993", "90071992547409.93e2", "0.00011575771681132739",
		"9.657175713160912e-05", "4.9e-324", "1.7976931348623157e308", "0e-999", "12e-0", "100000000000000000000000"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		x := rng.Float64() * math.Pow(10, float64(rng.IntN(30)-20))
		tokens = append(tokens, strconv.FormatFloat(x, 'f', rng.IntN(14), 64), strconv.FormatFloat(x, 'g', -1, 64),
			strconv.FormatFloat(-x, 'e', rng.IntN(17), 64))
	}
	for _, tok := range tokens {
		sameFloat(t, nil, tok)
	}
	// Twice through one memory: the second time, most numbers not exact
	// are remembered, the others were pushed out by a number of the
	// same slot.
	var recent recentFloats
	for range 2 {
		for _, tok := range tokens {
			sameFloat(t, &recent, tok)
		}
	}
	for tok, fast := range map[string]bool{"9.6e-05": true, "0.0001157": true, "9007199254740992": true,
		"9007199254740993": false, "1e23": false, "0.00011575771681132739": false} {
		s := scanner{b: []byte(tok)}
		if _, _, err := s.numberToken(); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.dec.exact(); ok != fast {
			t.Errorf("%s: fast path %v, want %v", tok, ok, fast)
		}
	}
}

// FuzzFloat checks the scanner's numbers against strconv.
func FuzzFloat(f *testing.F) {
	for _, tok := range []string{"0", "-2.5e-3", "9007199254740993", "1e22", "0.000115757716811327"} {
		f.Add(tok)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		s := scanner{b: []byte(tok)}
		if num, _, err := s.numberToken(); err != nil || len(num) != len(tok) {
			return // not one JSON number
		}
		sameFloat(t, nil, tok)
		sameFloat(t, &fuzzRecent, tok) // remembered, or pushing out another
		sameFloat(t, &fuzzRecent, tok) // remembered
	})
}

// fuzzRecent is FuzzFloat's memory of numbers, kept from input to input.
var fuzzRecent recentFloats

// TestRecentFloats checks that a number is remembered by its whole text,
// and forgotten when another of its slot comes.
func TestRecentFloats(t *testing.T) {
	var r recentFloats
	a, b := []byte("0.00011575771681132739"), []byte("0.00011575771681132738")
	r.put(a, 1)
	if f, ok := r.get(a); !ok || f != 1 {
		t.Fatalf("get after put = %v, %v", f, ok)
	}
	if _, ok := r.get(b); ok {
		t.Error("a text differing in its last digit is remembered")
	}
	if _, ok := r.get([]byte("1.00011575771681132739")); ok {
		t.Error("a text differing in its first digit is remembered")
	}
	// Find another text of a's slot: it takes the slot.
	for i := range 10000 {
		c := fmt.Appendf(nil, "0.000115757716811%05d", i)
		if r.slot(c) == r.slot(a) {
			r.put(c, 2)
			if _, ok := r.get(a); ok {
				t.Error("a number pushed out of its slot is still remembered")
			}
			if f, ok := r.get(c); !ok || f != 2 {
				t.Errorf("get(%s) = %v, %v", c, f, ok)
			}
			return
		}
	}
	t.Fatal("no text of the same slot found")
}
