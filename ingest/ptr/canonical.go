package ptr

import "encoding/binary"

// classifyCanonical classifies the function lines as Lib-DVM writes them,
//
//	<call_|ret_|Event_><name> TIME=<t> LINE=<n> FILE=<f>
//
// (runs of blanks between the words, and optionally after them; no blank
// after an '='; TIME well-formed, LINE plain digits), in one pass instead
// of the general search of each key and prefix. ok is false for any other
// line, and for the lines the general rules could read otherwise;
// classifyGeneral then decides.
//
// Where the general rules could differ, and why they do not on the lines
// accepted here:
//   - a key is its first occurrence followed by blanks and '=' or '[': an
//     earlier occurrence could only lie in the first word, the TIME value
//     or the LINE value; the first word is refused if it holds '=' or '['
//     (so that a key in it is followed by another character, or by the
//     blanks and 'T' before TIME), and the values are numbers, which hold
//     no key;
//   - the kind is that of the first of call_, ret_, Event_ found anywhere:
//     the prefix must therefore be the only such text in the first word and
//     in the FILE value (nowhere else could one be: the keys are upper
//     case, the numbers hold no letter but 'e' and 'E', and none can span a
//     blank or an '=').
func classifyCanonical(b []byte, fl *funcLine) (k kind, ok bool) {
	k, pref := canonicalPrefix(b)
	if k == paramLine {
		return paramLine, false
	}
	end, ok := canonicalWord(b, pref, k, blankByte|keyEndByte)
	if !ok {
		return paramLine, false
	}
	i, ok := afterKey(b, end, "TIME=")
	if !ok {
		return paramLine, false
	}
	t, n, ok := scanTime(b[i:])
	if i, ok = valueEnd(b, i+n, ok); !ok {
		return paramLine, false
	}
	if i, ok = afterKey(b, i, "LINE="); !ok {
		return paramLine, false
	}
	line, n, ok := scanUint(b[i:])
	if i, ok = valueEnd(b, i+n, ok); !ok {
		return paramLine, false
	}
	if i, ok = afterKey(b, i, "FILE="); !ok {
		return paramLine, false
	}
	e, ok := canonicalWord(b, i, k, blankByte)
	if !ok || skipBlanks(b, e) != len(b) {
		return paramLine, false
	}
	// Field by field: a composite literal is built on the stack and then
	// copied in 16-byte moves, each stalling on the 8-byte stores before.
	fl.kind, fl.name, fl.time, fl.line, fl.file = k, b[pref:end], t, line, b[i:e]
	return k, true
}

// canonicalPrefix returns the kind of the prefix b starts with and its
// length; paramLine when it has none.
func canonicalPrefix(b []byte) (kind, int) {
	if len(b) == 0 {
		return paramLine, 0
	}
	switch b[0] { // most lines are parameter lines, told here
	case 'c':
		if len(b) >= 5 && string(b[:5]) == "call_" {
			return callLine, 5
		}
	case 'r':
		if len(b) >= 4 && string(b[:4]) == "ret_" {
			return retLine, 4
		}
	case 'E':
		if len(b) >= 6 && string(b[:6]) == "Event_" {
			return eventLine, 6
		}
	}
	return paramLine, 0
}

// Classes of the bytes that classifyCanonical looks out for in a word.
const (
	blankByte  = 1 << iota
	keyEndByte // '=' or '[', that can end a key
	underscore // the end of call_ and ret_
)

var byteClass = [256]uint8{' ': blankByte, '\t': blankByte, '=': keyEndByte, '[': keyEndByte, '_': underscore}

// canonicalWord finds the end of the word from b[i], as findKey delimits
// words. ok is false when the word holds a byte of the classes in refuse
// (beside the blanks that end it), or a prefix that the general rules take
// before k's: call_ before ret_ and Event_, ret_ before Event_.
func canonicalWord(b []byte, i int, k kind, refuse uint8) (end int, ok bool) {
	for ; i < len(b); i++ {
		c := byteClass[b[i]]
		if c == 0 {
			continue
		}
		if c == blankByte {
			return i, true
		}
		if c&refuse != 0 || c == underscore && hidesKind(k, b[:i+1]) {
			return 0, false
		}
	}
	return i, true
}

// hidesKind reports whether s, the start of a line of kind k up to an
// '_', ends with a prefix that comes before k's.
func hidesKind(k kind, s []byte) bool {
	n := len(s)
	return k != callLine && n >= 5 && string(s[n-5:]) == "call_" ||
		k == eventLine && n >= 4 && string(s[n-4:]) == "ret_"
}

// afterKey skips the blanks from b[i], then key, and returns the index
// after it; ok is false when key is not there.
func afterKey(b []byte, i int, key string) (int, bool) {
	i = skipBlanks(b, i)
	return i + len(key), len(b)-i >= len(key) && string(b[i:i+len(key)]) == key
}

// valueEnd checks that a number read up to b[i] (ok) is the whole value,
// as findKey delimits it, but for one trailing ';'; it returns the index
// after the value.
func valueEnd(b []byte, i int, ok bool) (int, bool) {
	if i < len(b) && b[i] == ';' {
		i++
	}
	return i, ok && (i == len(b) || isBlank(b[i]))
}

// skipBlanks returns the index of the first non-blank byte from b[i] on,
// eight spaces at a time where it can: the columns of a trace are padded
// with runs of them.
func skipBlanks(b []byte, i int) int {
	for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:]) == eightSpaces {
		i += 8
	}
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	return i
}

// eightSpaces is "        " read as a little-endian word.
const eightSpaces = 0x2020202020202020
