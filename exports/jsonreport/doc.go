// Package jsonreport owns the JSON export of a stored run: its
// configuration and its interval tree in pre-order, every interval with its
// characteristics under the canonical names of sim/result, at full
// precision and in a fixed key order, so that exports of the same run are
// byte-identical and can be diffed.
package jsonreport
