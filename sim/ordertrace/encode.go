package ordertrace

import (
	"encoding/json"
	"io"
	"iter"
	"math"
	"strconv"
)

// AppendOrder appends o's line, without the newline, with the keys, key
// order and omissions encoding/json would produce, several times faster.
// It does not validate o (a Writer does).
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

// WriteOrder writes o's line and its newline to w, taking the requests
// from requests instead of o.Requests: a generator writes a master that
// requests millions of results without holding them. The line goes out in
// pieces of about 64 KB. It does not validate o.
func WriteOrder(w io.Writer, o *Order, requests iter.Seq[Request]) error {
	b := appendHead(make([]byte, 0, 2*flushSize), o)
	var err error
	n := 0
	for q := range requests {
		b = appendRequestItem(b, n, q)
		n++
		if len(b) >= flushSize {
			if _, err = w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if n > 0 {
		b = append(b, ']')
	}
	b = append(appendTail(b, o), '\n')
	_, err = w.Write(b)
	return err
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
	if len(o.Segments) == 0 {
		return b
	}
	b = append(b, `,"segments":[`...)
	for i, g := range o.Segments {
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
