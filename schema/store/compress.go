package store

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The store's compressed blobs (a trace's pack chunks, a run's picture,
// an order trace's chunks and counts) are zstd frames, each a column
// value: blobDecoder reads them all. EncodeAll and DecodeAll are safe for
// concurrent use, so every writer and reader shares these. Each is made
// at its first use, not when the program starts: most commands use none.

// blobDecoder decompresses every compressed blob of the store.
var blobDecoder = sync.OnceValue(func() *zstd.Decoder { return must(zstd.NewReader(nil)) })

// blobEncoder compresses the blobs of up to about a megabyte (a trace's
// pack chunks, a run's picture): a small window and the encoder's
// low-memory mode keep its history buffer at a few hundred kilobytes,
// where orderChunkEncoder's allocates and clears megabytes on its first
// use, a tenth of a stored prediction's CPU in a fresh process. A pack
// chunk repeats the calls of the trace's loops a few hundred bytes apart:
// a 128 KB window finds them all.
var blobEncoder = sync.OnceValue(func() *zstd.Encoder {
	return must(zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithWindowSize(1<<17), zstd.WithLowerEncoderMem(true), zstd.WithEncoderConcurrency(1)))
})

// orderChunkEncoder compresses an order trace's chunks and counts: a few
// megabytes each, with the default window.
var orderChunkEncoder = sync.OnceValue(func() *zstd.Encoder {
	return must(zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest)))
})

func must[T any](v T, err error) T {
	if err != nil {
		panic(err) // options are constant: cannot fail
	}
	return v
}
