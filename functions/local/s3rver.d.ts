// The s3rver package ships no types; this is the part the local server uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  import type { EventEmitter } from 'node:events';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  /** s3rver's own event shape: keys not URL-encoded, multipart completion reported as ObjectCreated:Post. */
  interface S3rverEvent {
    Records: {
      eventName: string;
      s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string; sequencer: string } };
    }[];
  }

  class S3rver extends EventEmitter {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: S3rverEvent) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export default S3rver;
}
