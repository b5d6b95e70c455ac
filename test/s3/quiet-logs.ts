// Imported first by the S3 tests: Powertools reads these when its Logger and Metrics are
// constructed, at import. The tests assert on objects and reports, not on log lines.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
export {};
