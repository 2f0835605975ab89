// Package calibration owns stage 2 of the orders-based technology (seed
// 004): the timings of marked blocks on a machine, c(α) = T(α)/f(α) where
// f is the block's declared cost estimate, and the constants c̄ the
// runtime's record mode prices each block with (seconds = c̄·f).
//
// Rows are read and written as CSV (docs/orders.md, "Calibration file");
// Analyze summarizes them per block and machine and flags the blocks
// whose constants cannot be trusted: DRIFT when c(α) trends with f(α)
// (the estimate f has the wrong shape), NOISY when repetitions of the
// same α disagree too much to give one constant. Advise says, one line
// per block, what a calibration did not pin down (a median not known
// within the precision, a loaded machine, page faults, CPUs that differ)
// and what to do; Agree compares the constants of several calibrations
// of one machine, block by block.
package calibration
