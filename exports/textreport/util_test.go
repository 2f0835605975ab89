package textreport_test

import "strconv"

func itoa(i int) string        { return strconv.Itoa(i) }
func strconvQ(s string) string { return strconv.Quote(s) }
