// Imported first by the tests that load the handler: Powertools reads these when its Logger and
// Metrics are constructed, at import. Tests assert on responses, not on log output.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
export {};
