package tracefile

import (
	"encoding/json"
	"io"
	"iter"
	"math"
	"strconv"
)

// AppendOrder appends o's line, without the newline, with the keys, key
// order and omissions encoding/json would produce, several times faster.
// It does not validate o (sim/ordertrace's Writer does).
func AppendOrder(b []byte, o *Order) []byte {
	b = appendHead(b, o)
	for i, q := range o.Requests {
		b = appendRequestItem(b, i, q)
	}
	if len(o.Requests) > 0 {
		b = append(b, ']')
	}
	return appendTail(b, o)
}

// AppendOrderLines appends o's line and, when a list of o has more than
// perLine items (LineItems, but for tests of continuation lines), its
// continuation lines, separated by newlines, without the last newline;
// it returns the number of lines. It does not validate o
// (sim/ordertrace's Writer does).
func AppendOrderLines(b []byte, o *Order, perLine int) ([]byte, int) {
	perLine = max(perLine, 1)
	first := *o
	first.Segments, first.Requests, first.Results = window(o.Segments, 0, perLine), window(o.Requests, 0, perLine), window(o.Results, 0, perLine)
	b = AppendOrder(b, &first)
	lines := 1
	for k := perLine; k < max(len(o.Segments), len(o.Requests), len(o.Results)); k += perLine {
		b = appendMore(append(b, '\n'), o.ID, window(o.Segments, k, perLine), window(o.Requests, k, perLine), window(o.Results, k, perLine))
		lines++
	}
	return b, lines
}

// window returns the items of a line starting at item k.
func window[T any](items []T, k, perLine int) []T {
	return items[min(k, len(items)):min(k+perLine, len(items))]
}

// appendMore appends a continuation line of order id.
func appendMore(b []byte, id int64, segs []Segment, reqs []Request, ress []Result) []byte {
	b = append(b, `{"more":`...)
	b = strconv.AppendInt(b, id, 10)
	b = appendSegments(b, segs)
	for i, q := range reqs {
		b = appendRequestItem(b, i, q)
	}
	if len(reqs) > 0 {
		b = append(b, ']')
	}
	return appendTail(b, &Order{Results: ress})
}

// WriteOrder writes o's lines and their newline to w, taking the requests
// from requests instead of o.Requests: a generator writes a master that
// requests millions of results without holding them. Every perLine
// requests (LineItems, but for tests) after the first line's go in a
// continuation line; o's other lists must fit its first line. It does
// not validate o.
func WriteOrder(w io.Writer, o *Order, requests iter.Seq[Request], perLine int) error {
	perLine = max(perLine, 1)
	b := appendHead(make([]byte, 0, flushSize), o)
	first, n := true, 0 // on the order's own line; requests on the line
	endLine := func() error {
		if n > 0 {
			b = append(b, ']')
		}
		if first {
			b = appendTail(b, o)
		} else {
			b = append(b, '}')
		}
		_, err := w.Write(append(b, '\n'))
		b = strconv.AppendInt(append(b[:0], `{"more":`...), o.ID, 10)
		first, n = false, 0
		return err
	}
	for q := range requests {
		if n == perLine {
			if err := endLine(); err != nil {
				return err
			}
		}
		b = appendRequestItem(b, n, q)
		n++
	}
	if first || n > 0 {
		return endLine()
	}
	return nil
}

const flushSize = 64 << 10

// appendHead appends the line up to the requests: the scalars and the
// segments.
func appendHead(b []byte, o *Order) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, o.ID, 10)
	b = append(b, `,"parent":`...)
	b = strconv.AppendInt(b, o.Parent, 10)
	b = append(b, `,"proc":`...)
	b = appendString(b, o.Proc)
	b = append(b, `,"made_at":`...)
	b = appendFloat(b, o.MadeAt)
	b = append(b, `,"arg_bytes":`...)
	b = strconv.AppendInt(b, o.ArgBytes, 10)
	b = append(b, `,"duration":`...)
	b = appendFloat(b, o.Duration)
	return appendSegments(b, o.Segments)
}

// appendSegments appends a segments field, if there are segments.
func appendSegments(b []byte, segs []Segment) []byte {
	if len(segs) == 0 {
		return b
	}
	b = append(b, `,"segments":[`...)
	for i, g := range segs {
		b = comma(b, i)
		b = append(b, `{"start":`...)
		b = appendFloat(b, g.Start)
		b = append(b, `,"dur":`...)
		b = appendFloat(b, g.Dur)
		if g.Block != "" {
			b = append(b, `,"block":`...)
			b = appendString(b, g.Block)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendRequestItem appends request i of a requests list, opening the
// list before the first one.
func appendRequestItem(b []byte, i int, q Request) []byte {
	if i == 0 {
		b = append(b, `,"requests":[`...)
	} else {
		b = append(b, ',')
	}
	return appendRequest(b, q)
}

// appendTail appends the results and closes the object.
func appendTail(b []byte, o *Order) []byte {
	if len(o.Results) > 0 {
		b = append(b, `,"results":[`...)
		for i, r := range o.Results {
			b = comma(b, i)
			b = append(b, `{"at":`...)
			b = appendFloat(b, r.At)
			b = append(b, `,"bytes":`...)
			b = strconv.AppendInt(b, r.Bytes, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendRequest appends the JSON object of q.
func appendRequest(b []byte, q Request) []byte {
	b = append(b, `{"order":`...)
	b = strconv.AppendInt(b, q.Order, 10)
	if q.Result != 0 {
		b = append(b, `,"result":`...)
		b = strconv.AppendInt(b, int64(q.Result), 10)
	}
	b = append(b, `,"at":`...)
	b = appendFloat(b, q.At)
	return append(b, '}')
}

func comma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}

// appendFloat writes the shortest decimal that reads back as f.
func appendFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendString writes s as a JSON string: names are plain ASCII in
// practice; anything else goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
