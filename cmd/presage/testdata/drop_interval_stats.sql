DROP TABLE interval_stats;
