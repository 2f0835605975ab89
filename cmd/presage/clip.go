package main

import (
	"fmt"
	"strings"
)

// maxMessage bounds the error line the command prints. The readers quote
// at most a short prefix of what they found, but an error may still carry
// text from an input (a name, a header) that nothing shortened: a line of
// megabytes on a terminal is no message.
const maxMessage = 1000

// clipMessage returns msg when it is at most maxMessage bytes long, else
// its beginning and its end (where the expectation usually is) with the
// number of bytes left out between them; a character cut in two is
// dropped.
func clipMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	head, tail := maxMessage*2/3, maxMessage/4
	return fmt.Sprintf("%s…[%d bytes left out]…%s", strings.ToValidUTF8(msg[:head], ""), len(msg)-head-tail, strings.ToValidUTF8(msg[len(msg)-tail:], ""))
}
