// Run before every test file (vitest `setupFiles`). The tests run the sources, which have no
// bundled batch-worker.mjs: solver threads load the TypeScript entry through tsx, injected here
// so that plumbing stays out of the bundles.
import { sourceWorkerFactory } from '../../functions/local/source-worker.js';
import { useWorkerFactory } from '../../functions/parallel/index.js';

useWorkerFactory(sourceWorkerFactory());
