/**
 * The twin's S3 service as `npm start` runs it (startS3Service: the local S3, its events delivered
 * to the bundled function, the large-file state machine), in a process of its own on the data
 * folder S3_DATA_DIR, so a test can SIGKILL it mid-run and start another on the same folder. Says
 * `TWIN-READY <endpoint>` on stdout once it serves.
 */
import { startS3Service } from '../../twin/s3/s3-service.js';

await startS3Service({
  fail: (error) => {
    process.stderr.write(`twin: ${error.message}\n`);
    process.exit(1);
  },
});
process.stdout.write(`TWIN-READY ${process.env.AWS_ENDPOINT_URL_S3}\n`);
