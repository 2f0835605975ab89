// Package search owns the searches for the best processor grid of a
// machine: the original Predictor's search (docs/model.md §1.7: the heuristic
// marks, modes 1, 2, 3 and 5) and Presage's own ranking of every grid by
// execution time, efficiency or cost, or the smallest grid meeting a
// deadline. Evaluations are predictions stored as a sweep (sim/sweep).
package search
