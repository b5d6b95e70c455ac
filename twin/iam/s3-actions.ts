/**
 * Which IAM actions an S3 REST request needs, on which resource, with which request context keys:
 * the table of S3's "actions, resources and condition keys" page for the requests clients send
 * (path-style, as the twin serves them). HeadObject needs s3:GetObject; the multipart calls need
 * s3:PutObject, s3:AbortMultipartUpload or s3:ListMultipartUploadParts; ListObjectsV2 needs
 * s3:ListBucket on the bucket, with `s3:prefix` when the request has one; a copy also needs
 * s3:GetObject on its source.
 */

export interface S3HttpRequest {
  method: string;
  /** The URL path, still percent-encoded: `/bucket/key`. */
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
}

export interface S3Permission {
  action: string;
  resource: string;
  context: Record<string, string>;
}

export interface S3Operation {
  /** The S3 API operation, for messages (`HeadObject`, `ListObjectsV2`, ...). */
  operation: string;
  bucket?: string;
  key?: string;
  /** Every permission the request needs: all must be allowed. */
  permissions: S3Permission[];
}

const has = (query: S3HttpRequest['query'], name: string): boolean => query[name] !== undefined;
const header = (headers: S3HttpRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Bucket-level subresources and the GET/PUT/DELETE actions each maps to. */
const bucketSubresources: Record<string, { GET?: string; PUT?: string; DELETE?: string }> = {
  location: { GET: 'GetBucketLocation' },
  policy: { GET: 'GetBucketPolicy', PUT: 'PutBucketPolicy', DELETE: 'DeleteBucketPolicy' },
  cors: { GET: 'GetBucketCORS', PUT: 'PutBucketCORS', DELETE: 'PutBucketCORS' },
  website: { GET: 'GetBucketWebsite', PUT: 'PutBucketWebsite', DELETE: 'DeleteBucketWebsite' },
  acl: { GET: 'GetBucketAcl', PUT: 'PutBucketAcl' },
  notification: { GET: 'GetBucketNotification', PUT: 'PutBucketNotification' },
  tagging: { GET: 'GetBucketTagging', PUT: 'PutBucketTagging', DELETE: 'PutBucketTagging' },
  versioning: { GET: 'GetBucketVersioning', PUT: 'PutBucketVersioning' },
  lifecycle: {
    GET: 'GetLifecycleConfiguration',
    PUT: 'PutLifecycleConfiguration',
    DELETE: 'PutLifecycleConfiguration',
  },
  encryption: { GET: 'GetEncryptionConfiguration', PUT: 'PutEncryptionConfiguration' },
  versions: { GET: 'ListBucketVersions' },
  uploads: { GET: 'ListBucketMultipartUploads' },
};

/** Headers S3 exposes as condition keys on writes. */
const writeHeaderKeys = [
  'x-amz-acl',
  'x-amz-server-side-encryption',
  'x-amz-storage-class',
  'x-amz-copy-source',
  'x-amz-metadata-directive',
];

/**
 * The operation of one request, or undefined for one that names no bucket operation the twin
 * serves (the caller then answers it as S3 would not). `deletedKeys` are the keys a DeleteObjects
 * body names (the caller reads them from the body).
 */
export function s3OperationOf(request: S3HttpRequest, deletedKeys: readonly string[] = []): S3Operation {
  const [, rawBucket = '', ...rawKey] = request.path.split('/');
  const bucket = decodeURIComponent(rawBucket);
  const key = rawKey.length ? rawKey.map(decodeURIComponent).join('/') : '';
  const method = request.method.toUpperCase();
  const { query, headers } = request;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const objectArn = `${bucketArn}/${key}`;
  const need = (action: string, resource: string, context: Record<string, string> = {}): S3Permission => ({
    action: `s3:${action}`,
    resource,
    context,
  });

  if (!bucket) return { operation: 'ListBuckets', permissions: [need('ListAllMyBuckets', '*')] };

  if (!key) {
    const sub = Object.keys(bucketSubresources).find((name) => has(query, name));
    if (sub) {
      const action = bucketSubresources[sub]![method as 'GET' | 'PUT' | 'DELETE'];
      if (action) return { operation: action, bucket, permissions: [need(action, bucketArn)] };
    }
    if (method === 'POST' && has(query, 'delete'))
      return {
        operation: 'DeleteObjects',
        bucket,
        permissions: deletedKeys.map((deleted) => need('DeleteObject', `${bucketArn}/${deleted}`)),
      };
    if (method === 'GET' || method === 'HEAD') {
      // ListObjects(V2) and HeadBucket: s3:ListBucket, with the listing's parameters as condition keys.
      const context: Record<string, string> = {};
      for (const name of ['prefix', 'delimiter', 'max-keys']) {
        const value = first(query[name]);
        if (value !== undefined) context[`s3:${name}`] = value;
      }
      const operation =
        method === 'HEAD' ? 'HeadBucket' : first(query['list-type']) === '2' ? 'ListObjectsV2' : 'ListObjects';
      return { operation, bucket, permissions: [need('ListBucket', bucketArn, context)] };
    }
    if (method === 'PUT') return { operation: 'CreateBucket', bucket, permissions: [need('CreateBucket', bucketArn)] };
    if (method === 'DELETE')
      return { operation: 'DeleteBucket', bucket, permissions: [need('DeleteBucket', bucketArn)] };
    // A browser form upload names its key in the body: decided as a write anywhere in the bucket.
    return { operation: 'PostObject', bucket, permissions: [need('PutObject', `${bucketArn}/*`)] };
  }

  const writeContext: Record<string, string> = {};
  for (const name of writeHeaderKeys) {
    const value = header(headers, name);
    if (value !== undefined) writeContext[`s3:${name}`] = value;
  }
  const copySource = header(headers, 'x-amz-copy-source');
  const copyFrom = (): S3Permission[] => {
    if (!copySource) return [];
    const source = decodeURIComponent(copySource.split('?')[0]!.replace(/^\//, ''));
    return [need('GetObject', `arn:aws:s3:::${source}`)];
  };
  const object = (operation: string, ...permissions: S3Permission[]): S3Operation => ({
    operation,
    bucket,
    key,
    permissions,
  });
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (has(query, 'uploadId')) return object('ListParts', need('ListMultipartUploadParts', objectArn));
      if (has(query, 'acl')) return object('GetObjectAcl', need('GetObjectAcl', objectArn));
      if (has(query, 'tagging')) return object('GetObjectTagging', need('GetObjectTagging', objectArn));
      return object(
        method === 'HEAD' ? 'HeadObject' : 'GetObject',
        need(has(query, 'versionId') ? 'GetObjectVersion' : 'GetObject', objectArn),
      );
    case 'PUT':
      if (has(query, 'acl')) return object('PutObjectAcl', need('PutObjectAcl', objectArn));
      if (has(query, 'tagging')) return object('PutObjectTagging', need('PutObjectTagging', objectArn));
      if (has(query, 'uploadId'))
        return object(copySource ? 'UploadPartCopy' : 'UploadPart', need('PutObject', objectArn), ...copyFrom());
      return object(copySource ? 'CopyObject' : 'PutObject', need('PutObject', objectArn, writeContext), ...copyFrom());
    case 'POST':
      if (has(query, 'uploads')) return object('CreateMultipartUpload', need('PutObject', objectArn, writeContext));
      if (has(query, 'uploadId')) return object('CompleteMultipartUpload', need('PutObject', objectArn));
      if (has(query, 'restore')) return object('RestoreObject', need('RestoreObject', objectArn));
      return object('PostObject', need('PutObject', objectArn));
    case 'DELETE':
      if (has(query, 'uploadId')) return object('AbortMultipartUpload', need('AbortMultipartUpload', objectArn));
      if (has(query, 'tagging')) return object('DeleteObjectTagging', need('DeleteObjectTagging', objectArn));
      return object(
        'DeleteObject',
        need(has(query, 'versionId') ? 'DeleteObjectVersion' : 'DeleteObject', objectArn, deleteContext(headers)),
      );
    default:
      return object(method, need('GetObject', objectArn));
  }
}

/** A conditional delete's `If-Match` as the `s3:if-match` condition key (a bucket policy can require it). */
function deleteContext(headers: S3HttpRequest['headers']): Record<string, string> {
  const ifMatch = header(headers, 'if-match');
  return ifMatch === undefined ? {} : { 's3:if-match': ifMatch };
}

/** The access key a request is signed with (SigV4 header or presigned query, or SigV2), if any. */
export function accessKeyOf(request: S3HttpRequest): string | undefined {
  const authorization = header(request.headers, 'authorization');
  if (authorization) {
    const v4 = /Credential=([^/,\s]+)\//.exec(authorization);
    if (v4) return v4[1];
    const v2 = /^AWS ([^:]+):/.exec(authorization);
    if (v2) return v2[1];
  }
  const credential = first(request.query['X-Amz-Credential']);
  if (credential) return credential.split('/')[0];
  return first(request.query.AWSAccessKeyId);
}
