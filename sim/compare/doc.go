// Package compare owns the comparison of a predicted run with a measured
// run of the same program: it matches the intervals of the two report
// trees by identity (type, file, line, expression), puts the main
// characteristics of every matched interval side by side with their
// absolute and relative errors, lists what could not be matched, and sums
// the accuracy up as the mean absolute percentage error of the execution
// time. exports/comparereport writes a Comparison as text, JSON or HTML.
package compare
