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
    /** The object store; set with `context.store` (the requests' view of it) to replace it. */
    store: unknown;
    context: { store: unknown };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: S3rverEvent) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export default S3rver;
}

// s3rver's file store, subclassed by long-key-store.ts (CommonJS; the parts it uses).
declare module 's3rver/lib/stores/filesystem.js' {
  export interface StoredObject {
    bucket: string;
    key: string;
    content: unknown;
    metadata: Record<string, unknown>;
  }
  export interface ListObjectsOptions {
    delimiter?: string;
    startAfter?: string;
    prefix?: string;
    maxKeys?: number;
  }
  export interface ListObjectsResult {
    objects: StoredObject[];
    commonPrefixes: string[];
    isTruncated: boolean;
  }
  class FilesystemStore {
    static encodeKeyPath(key: string): string;
    static decodeKeyPath(keyPath: string): string;
    constructor(rootDirectory: string);
    readonly rootDirectory: string;
    getBucketPath(bucket: string): string;
    getResourcePath(bucket: string, key?: string, resource?: string): string;
    getMetadata(bucket: string, key: string): Promise<Record<string, unknown>>;
    putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
    putMetadata(bucket: string, key: string, metadata: Record<string, unknown>, md5?: string): Promise<void>;
    getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<StoredObject | null>;
    initiateUpload(bucket: string, key: string, uploadId: string, metadata: unknown): Promise<void>;
    putPart(
      bucket: string,
      uploadId: string,
      partNumber: number,
      content: unknown,
    ): Promise<{ size: number; md5: string }>;
    copyObject(
      srcBucket: string,
      srcKey: string,
      destBucket: string,
      destKey: string,
      replacementMetadata: unknown,
    ): Promise<unknown>;
    deleteObject(bucket: string, key: string): Promise<void>;
    listObjects(bucket: string, options: ListObjectsOptions): Promise<ListObjectsResult>;
    deleteBucket(bucket: string): Promise<void>;
    /** A bucket's (key undefined) or an object's configuration document (`cors`, `website`, `tagging`), or null. */
    getSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<unknown>;
    putSubresource(bucket: string, key: string | undefined, resource: { type: string }): Promise<void>;
    deleteSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<void>;
  }
  export default FilesystemStore;
}

declare module 's3rver/lib/models/object.js' {
  import type { StoredObject } from 's3rver/lib/stores/filesystem.js';
  class S3Object implements StoredObject {
    constructor(bucket: string, key: string, content: unknown, metadata: Record<string, unknown>);
    bucket: string;
    key: string;
    content: unknown;
    metadata: Record<string, unknown>;
    /** The standard headers kept as metadata (x-amz-meta-* are kept too). */
    static ALLOWED_METADATA: string[];
  }
  export default S3Object;
}

declare module 's3rver/lib/models/error.js' {
  class S3Error extends Error {
    constructor(code: string, message: string, detail?: Record<string, unknown>);
  }
  export default S3Error;
}
