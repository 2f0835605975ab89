-- Presage store, version 19: the per-processor picture keeps how each
-- processor shared each time bucket between the states, so the run report
-- shows the lost time inside a bucket (a wait shorter than a bucket) and
-- not only each bucket's dominant state.
--
-- run_timelines.mix: rows x cols cells, row by row, each mix_states bytes:
-- the share of states 1..mix_states (sim/events.Mix) in 255ths of the
-- bucket, compressed with zstd. NULL for pictures stored before this
-- version: the report then draws the dominant states.
ALTER TABLE run_timelines ADD COLUMN mix BLOB;
ALTER TABLE run_timelines ADD COLUMN mix_states INTEGER;
