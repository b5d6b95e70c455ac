import type { AccessDenial } from '../iam/s3-authorization.js';

/** Messages from the s3rver child process to the parent that started it (over the IPC channel). */
export type S3rverMessage =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string }
  | {
      type: 'object-created';
      bucket: string;
      /** As stored: not URL-encoded. */
      key: string;
      size: number;
      eTag: string;
      /** s3rver says Post for both a browser form upload and a completed multipart upload; the latter is what clients do. */
      multipart: boolean;
      copy: boolean;
    }
  | ({ type: 'access-denied' } & AccessDenial);

/** Settings passed to the child in its environment. */
export const S3RVER_ENV = {
  port: 'LOCAL_S3RVER_PORT',
  address: 'LOCAL_S3RVER_ADDRESS',
  directory: 'LOCAL_S3RVER_DIRECTORY',
  bucket: 'LOCAL_S3RVER_BUCKET',
  /** The synthesized template whose policies decide every request. */
  policyTemplate: 'LOCAL_S3RVER_POLICY_TEMPLATE',
} as const;
