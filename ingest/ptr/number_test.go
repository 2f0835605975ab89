package ptr

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// referenceParseTime is parseTime as it was before its fast path: the
// syntax checked, then strconv.ParseFloat.
func referenceParseTime(b []byte) (float64, bool) {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(b) && b[i] == '+' {
		i++
	}
	j := digits(i)
	mantissa := j - i
	if j < len(b) && b[j] == '.' {
		k := digits(j + 1)
		mantissa += k - j - 1
		j = k
	}
	if mantissa == 0 {
		return 0, false
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j = e
		} else {
			return 0, false
		}
	}
	if j != len(b) {
		return 0, false
	}
	t, err := strconv.ParseFloat(string(b), 64)
	return t, err == nil && t <= maxTime
}

func checkParseTime(t *testing.T, s string) {
	t.Helper()
	got, ok := parseTime([]byte(s))
	want, wok := referenceParseTime([]byte(s))
	if ok != wok || ok && math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseTime(%q) = %v (%#x), %v; want %v (%#x), %v",
			s, got, math.Float64bits(got), ok, want, math.Float64bits(want), wok)
	}
}

var parseTimeSeeds = []string{
	"0.00000133", "0.00002067", "12.34567890", "+1.5E-02", ".5", "3.", "1e9", "1e+9", "1000000000.0000001",
	"9007199254740993", "9007199254740992e-10", "0.1", "0.30000000000000004", "1e22", "1e23", "1e-22", "1e-23",
	"123456789012345678901234567890e-25", "00000000000000000000000001", "0e999999999999", "1e-400",
	"1e", "1e+", ".", "+", "", "-1", "1_000", "0x1p3", "Inf", "NaN", "1.2.3", "12345678.12345678",
	"1234567890123456789", "12345678901234567890", "0.12345678901234567", "4.9406564584124654e-324",
}

// FuzzParseTime checks that parseTime accepts what it did before its fast
// path, with the same value to the bit.
func FuzzParseTime(f *testing.F) {
	for _, s := range parseTimeSeeds {
		f.Add(s)
	}
	f.Fuzz(checkParseTime)
}

// TestParseTimeDecimals compares parseTime with the reference on random
// decimals of the form and sizes Lib-DVM prints, the fast path's domain,
// and around its limits.
func TestParseTimeDecimals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		intDigits, fracDigits := rng.IntN(11), rng.IntN(22)
		b := make([]byte, 0, 40)
		for range intDigits {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if fracDigits > 0 || rng.IntN(2) == 0 {
			b = append(b, '.')
			for range fracDigits {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(4) == 0 {
			b = strconv.AppendInt(append(b, 'e'), int64(rng.IntN(60)-30), 10)
		}
		checkParseTime(t, string(b))
	}
}

func TestEightDigits(t *testing.T) {
	for _, tt := range []struct {
		s  string
		v  uint64
		ok bool
	}{
		{"00000000", 0, true},
		{"12345678", 12345678, true},
		{"99999999", 99999999, true},
		{"00000133", 133, true},
		{"1234567:", 0, false},
		{"/2345678", 0, false},
		{"1234 678", 0, false},
		{"\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8", 0, false},
	} {
		v, ok := eightDigits(uint64(tt.s[0]) | uint64(tt.s[1])<<8 | uint64(tt.s[2])<<16 | uint64(tt.s[3])<<24 |
			uint64(tt.s[4])<<32 | uint64(tt.s[5])<<40 | uint64(tt.s[6])<<48 | uint64(tt.s[7])<<56)
		if ok != tt.ok || ok && v != tt.v {
			t.Errorf("eightDigits(%q) = %d, %v; want %d, %v", tt.s, v, ok, tt.v, tt.ok)
		}
	}
}

func TestScanUint(t *testing.T) {
	for _, s := range []string{"0", "7", "20 FILE", "123456789012345678", "1234567890123456789", "9223372036854775807",
		"+5", "-5", "", "1a", " 1", "٣"} {
		v, n, ok := scanUint([]byte(s))
		want, err := strconv.Atoi(s[:n])
		if wok := err == nil && n <= maxSmallDigits; ok != wok || ok && v != want {
			t.Errorf("scanUint(%q) = %d, %d, %v; strconv.Atoi(%q) = %d, %v", s, v, n, ok, s[:n], want, err)
		}
	}
}
