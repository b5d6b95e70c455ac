import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server } from './twin/s3/s3-server.ts';
const n = Number(process.argv[2] ?? 3);
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const s = await startS3Server({ port: 0, directory: mkdtempSync(path.join(os.tmpdir(), 'speed-s3-')), bucket: 'test-bucket' });
  const t1 = performance.now();
  await s.close();
  console.log('start', (t1 - t0).toFixed(0), 'ms');
}
