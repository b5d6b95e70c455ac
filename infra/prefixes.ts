// The bucket's key layout, shared by every construct that grants, triggers or lists by prefix.
// Inputs and outputs never share a prefix, so nothing the function writes can trigger it again.
export const prefixes = {
  /** Uploads here trigger the function through an S3 notification. */
  incoming: 'incoming/',
  /** Files here are solved by the scheduled batch run. */
  batch: 'batch/',
  /** Solved files, same relative key as their input. */
  solved: 'solved/',
  /** One report per solved file. */
  reports: 'reports/',
  /** Step Functions' own result files of each batch run (inside `reports/`). */
  runReports: 'reports/runs/',
} as const;
