package ptr

import (
	"encoding/binary"
	"strconv"
)

// maxTime bounds a TIME: the seconds of user time before a call or
// within one, on the one processor that recorded the trace. A billion
// seconds is 31 years; a larger value is damage, and it would overflow the
// sums of the simulation.
const maxTime = 1e9

// parseTime reads a TIME as Lib-DVM prints it: a plain decimal number,
// with an optional fraction and exponent (strconv.ParseFloat alone would
// also take "0x1p3", "1_000", "Inf" and negative numbers).
func parseTime(b []byte) (float64, bool) {
	t, n, ok := scanTime(b)
	return t, ok && n == len(b)
}

// scanTime reads a TIME at the start of b, as parseTime, and returns its
// length: what follows is not looked at. It computes the common short
// TIMEs itself (exactFloat) and leaves the others to strconv.ParseFloat,
// with the same result to the bit.
func scanTime(b []byte) (t float64, n int, ok bool) {
	i := 0
	if i < len(b) && b[i] == '+' {
		i++
	}
	start := i
	mant, i := scanDigits(b, i, 0) // read past maxExactDigits, but then not used
	digits := i - start
	scale := 0 // the power of ten of the last digit
	if i < len(b) && b[i] == '.' {
		frac := i + 1
		mant, i = scanDigits(b, frac, mant)
		digits += i - frac
		scale = frac - i
	}
	if digits == 0 {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		e, j := scanExponent(b, i+1)
		if j < 0 {
			return 0, 0, false
		}
		scale, i = scale+e, j
	}
	if t, ok := exactFloat(mant, digits, scale); ok {
		return t, i, t <= maxTime
	}
	t, err := strconv.ParseFloat(string(b[:i]), 64)
	return t, i, err == nil && t <= maxTime
}

// maxExactDigits is the most digits that cannot overflow a uint64.
const maxExactDigits = 19

// scanDigits adds the digits from b[i] to mant and returns it with the
// index after them. The fractions of the TIMEs Lib-DVM writes have eight
// digits: it reads eight at once first.
func scanDigits(b []byte, i int, mant uint64) (uint64, int) {
	if i+8 <= len(b) {
		if v, ok := eightDigits(binary.LittleEndian.Uint64(b[i:])); ok {
			mant = mant*1e8 + v
			i += 8
		}
	}
	for ; i < len(b) && isDigit(b[i]); i++ {
		mant = mant*10 + uint64(b[i]-'0')
	}
	return mant, i
}

// eightDigits reads eight ASCII digits packed little-endian in v (the
// first digit in the low byte) without a loop. ok is false if a byte is not
// a digit.
func eightDigits(v uint64) (uint64, bool) {
	const zeros, high = 0x3030303030303030, 0xf0f0f0f0f0f0f0f0
	// A byte is a digit iff its high nibble is 3 before and after adding
	// 6, which carries into that nibble from ':' on.
	if v&high != zeros || (v+0x0606060606060606)&high != zeros {
		return 0, false
	}
	v -= zeros
	v = (v*10 + v>>8) & 0x00ff00ff00ff00ff
	v = (v*100 + v>>16) & 0x0000ffff0000ffff
	v = (v*10000 + v>>32) & 0xffffffff
	return v, true
}

// scanExponent reads a signed exponent from b[i] and returns it with the
// index after it; the index is -1 when it has no digits.
func scanExponent(b []byte, i int) (e, end int) {
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	start := i
	for ; i < len(b) && isDigit(b[i]); i++ {
		if e < 1e6 { // far beyond any exact case; keeps e from overflowing
			e = e*10 + int(b[i]-'0')
		}
	}
	if i == start {
		return 0, -1
	}
	if neg {
		e = -e
	}
	return e, i
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat is Clinger's fast path, which strconv takes too: when the
// mantissa of a decimal mant × 10^scale of n digits and the power of ten
// are both exact float64s, one multiplication or division, being correctly
// rounded, gives the correctly rounded value of the decimal, which is what
// strconv.ParseFloat returns.
func exactFloat(mant uint64, n, scale int) (float64, bool) {
	switch {
	case n > maxExactDigits || mant > 1<<53:
		return 0, false
	case mant == 0:
		return 0, true
	case 0 <= scale && scale < len(exactPow10):
		return float64(mant) * exactPow10[scale], true
	case -len(exactPow10) < scale && scale < 0:
		return float64(mant) / exactPow10[-scale], true
	}
	return 0, false
}

// maxSmallDigits is how many decimal digits always fit an int: 18 of an
// int64, 9 of an int32.
const maxSmallDigits = 9 + 9*(strconv.IntSize/64)

// scanUint reads the decimal digits at the start of b and returns their
// value and number; ok is false unless there are 1 to maxSmallDigits, so
// that the value is the one strconv.Atoi would give.
func scanUint(b []byte) (v, n int, ok bool) {
	for n < len(b) && isDigit(b[n]) {
		v = v*10 + int(b[n]-'0')
		n++
	}
	return v, n, 0 < n && n <= maxSmallDigits
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
