import type { LargeFileJob } from '../../functions/contract/large-files.js';
import type { LargeFileStarter } from '../../functions/pipeline/large-file-runs.js';

// The in-process steps are the split benchmark's too.
export { inProcessSteps } from '../../bench/large-file-steps.js';

/** A starter for processObject that records each job it is handed instead of starting it: the test runs it. */
export function recordingStarter(): { jobs: LargeFileJob[]; startLargeFile: LargeFileStarter } {
  const jobs: LargeFileJob[] = [];
  return {
    jobs,
    startLargeFile: {
      runs: async () => [],
      start: async (id, attempt, job) => {
        jobs.push(job);
        return { started: true, executionArn: `local:${id}-${attempt}` };
      },
    },
  };
}
