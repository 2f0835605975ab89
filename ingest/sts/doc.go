// Package sts owns the decoding of the measured statistics files (sts) that
// Lib-DVM writes with Is_DVM_STAT=1 and that the analyzer PPPA reads
// (docs/model.md §10.2-§10.3, FORMATS-observed.md (d)).
//
// Both layouts the run-time system writes are recognised by content, never
// by file name: the ".gz+" layout (ASCII buffer size and processor count,
// then one zlib stream per processor) and the plain layout (the processor
// buffers back to back), either of them possibly gzip-compressed as a whole.
// Every multi-byte value is read with the sizes and byte order the writer
// recorded in the buffer header.
package sts
