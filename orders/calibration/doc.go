// Package calibration owns stage 2 of the orders-based technology (seed
// 004): the timings of marked blocks on a machine, c(α) = T(α)/f(α) where
// f is the block's declared cost estimate, and the constants c̄ the
// runtime's record mode prices each block with (seconds = c̄·f).
//
// Rows are read and written as CSV (docs/orders.md, "Calibration file");
// Analyze summarizes them per block and machine and flags the blocks
// whose constants cannot be trusted: DRIFT when c(α) trends with f(α)
// (the estimate f has the wrong shape), NOISY when repetitions of the
// same α disagree too much to give one constant.
package calibration
