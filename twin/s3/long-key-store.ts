/**
 * s3rver's file store, made to hold every key S3 accepts (up to 1,024 bytes). s3rver stores an
 * object as files named after its key's segments plus a suffix (`<last segment>._S3rver_object`,
 * `._S3rver_metadata.json`): a segment over 233 bytes exceeds the 255-byte file name limit, and
 * s3rver then crashes (241+ bytes) or leaves an object without metadata that breaks every listing
 * (234-240). Here a segment longer than `SEGMENT_BYTES` is stored under its SHA-256 instead, and
 * such an object's full key is kept beside it (`._S3rver_key`) so listings return the real key.
 * A folder segment a file system reads as a path step (`..`, `.`, empty) is hashed the same way, so
 * no key escapes the data folder or lands on another key's files: the object is stored at the very
 * key IAM decided on. Other keys are stored exactly as s3rver stores them. It also refuses what S3
 * refuses and s3rver takes: a key past 1,024 bytes, user-defined metadata past 2 KB, a part
 * numbered past 10,000.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3Error from 's3rver/lib/models/error.js';
import S3Object from 's3rver/lib/models/object.js';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';
import type { ListObjectsOptions, ListObjectsResult, StoredObject } from 's3rver/lib/stores/filesystem.js';
import { S3_MAX_KEY_BYTES, S3_MAX_PARTS, S3_MAX_USER_METADATA_BYTES } from '../../functions/contract/aws-quotas.js';
import { keyLocks } from './key-locks.js';

/** Longest segment stored by name: 255 bytes less s3rver's longest suffix (`._S3rver_metadata.json`, 22), with room to spare. */
export const SEGMENT_BYTES = 200;
/** Starts a hashed segment's name; a real segment that starts so is hashed too, so no two keys share files. */
const HASHED = '~sha256-';
const OBJECT_SUFFIX = '._S3rver_object';
const KEY_SUFFIX = '._S3rver_key';
const UPLOADS_DIR = '._S3rver_uploads';
const METADATA_SUFFIX = '._S3rver_metadata.json';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A file whole or not at all: written aside, then renamed over the old one. */
async function writeWhole(file: string, content: string): Promise<void> {
  const aside = `${file}.${randomBytes(6).toString('hex')}.partial`;
  await writeFile(aside, content);
  await rename(aside, file);
}

/**
 * Folder names a file system reads as a path step, not a name: `..` would climb out of the bucket's
 * folder (and out of the data folder), `.` and an empty one (`a//b`) would fold a key into another
 * key's files. In S3 a key is an opaque string, so these are names too: a folder so named is stored
 * under its hash, like a long segment, with the full key kept beside the object. (The last segment
 * is safe as it is: it only starts a file name, `.._S3rver_object`.)
 */
const PATH_STEPS = new Set(['', '.', '..']);

function storedSegment(segment: string, folder: boolean): string {
  if (
    Buffer.byteLength(segment) <= SEGMENT_BYTES &&
    !segment.startsWith(HASHED) &&
    !(folder && PATH_STEPS.has(segment))
  )
    return segment;
  return HASHED + createHash('sha256').update(segment).digest('hex');
}

/** The key's segments as stored: its folders, then the stem of its files' names. */
function storedParts(key: string): string[] {
  const parts = FilesystemStore.encodeKeyPath(key).split('/');
  return parts.map((segment, i) => storedSegment(segment, i < parts.length - 1));
}

function isHashed(key: string): boolean {
  return storedParts(key).some((segment) => segment.startsWith(HASHED));
}

/** S3 lists keys in the order of their UTF-8 bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

function checkKeyLength(key: string): void {
  if (Buffer.byteLength(key) > S3_MAX_KEY_BYTES) {
    throw new S3Error('KeyTooLongError', 'Your key is too long', {
      MaxSizeAllowed: S3_MAX_KEY_BYTES,
      Size: Buffer.byteLength(key),
    });
  }
}

const USER_METADATA_PREFIX = 'x-amz-meta-';

/** S3 refuses user-defined metadata past 2 KB (names and values, UTF-8) with 400 MetadataTooLarge; s3rver takes any. */
function checkMetadataSize(metadata: unknown): void {
  if (!metadata || typeof metadata !== 'object') return;
  let size = 0;
  for (const [name, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (!name.toLowerCase().startsWith(USER_METADATA_PREFIX)) continue;
    size += Buffer.byteLength(name.slice(USER_METADATA_PREFIX.length)) + Buffer.byteLength(String(value));
  }
  if (size > S3_MAX_USER_METADATA_BYTES) {
    throw new S3Error('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.', {
      Size: size,
      MaxSizeAllowed: S3_MAX_USER_METADATA_BYTES,
    });
  }
}

export class LongKeyStore extends FilesystemStore {
  /**
   * Each bucket's own configuration documents (CORS, website), by bucket and type. s3rver reads
   * both from disk on every request (two failed opens, as the twin's bucket has neither): about a
   * tenth of the server's time. They change only through this store (the server's process is the
   * only writer of its folder), which forgets a document when it writes or deletes it.
   */
  private readonly bucketConfigs = new Map<string, Promise<unknown>>();

  override getSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<unknown> {
    if (key) return super.getSubresource(bucket, key, resourceType);
    const id = `${bucket}/${resourceType}`;
    let config = this.bucketConfigs.get(id);
    if (!config) {
      config = super.getSubresource(bucket, undefined, resourceType);
      this.bucketConfigs.set(id, config);
      config.catch(() => this.bucketConfigs.delete(id));
    }
    return config;
  }

  override async putSubresource(bucket: string, key: string | undefined, resource: { type: string }): Promise<void> {
    await this.changingConfig(bucket, key, resource.type, () => super.putSubresource(bucket, key, resource));
  }

  override async deleteSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<void> {
    await this.changingConfig(bucket, key, resourceType, () => super.deleteSubresource(bucket, key, resourceType));
  }

  override async deleteBucket(bucket: string): Promise<void> {
    const forget = () => {
      for (const id of this.bucketConfigs.keys()) if (id.startsWith(`${bucket}/`)) this.bucketConfigs.delete(id);
    };
    forget();
    await super.deleteBucket(bucket);
    forget();
  }

  /** A bucket's document is forgotten before the change and again after it, so no read in between is kept. */
  private async changingConfig(
    bucket: string,
    key: string | undefined,
    resourceType: string,
    change: () => Promise<void>,
  ): Promise<void> {
    if (key) return change();
    const id = `${bucket}/${resourceType}`;
    this.bucketConfigs.delete(id);
    try {
      await change();
    } finally {
      this.bucketConfigs.delete(id);
    }
  }

  override getResourcePath(bucket: string, key = '', resource?: string): string {
    const parts = storedParts(key);
    const last = parts.pop() ?? '';
    return path.join(this.rootDirectory, bucket, ...parts, `${last}._S3rver_${resource}`);
  }

  /**
   * Written aside first, then swapped in with its metadata under the key's lock: s3rver writes in
   * place, so a reader mid-GET would read the new bytes under the old length, where S3 serves each
   * reader the whole version it started with.
   */
  override async putObject(object: StoredObject): Promise<{ size: number; md5: string }> {
    checkKeyLength(object.key);
    checkMetadataSize(object.metadata);
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    const partial = `${objectPath}.${randomBytes(6).toString('hex')}.partial`;
    const md5Context = createHash('md5');
    let size = 0;
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : (object.content as Readable);
    try {
      await pipeline(
        content,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            md5Context.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        }),
        createWriteStream(partial),
      );
      const md5 = md5Context.digest('hex');
      await keyLocks.run(object.bucket, object.key, async () => {
        await rename(partial, objectPath);
        await this.putMetadata(object.bucket, object.key, object.metadata, md5);
      });
      await this.keepKey(object.bucket, object.key);
      return { size, md5 };
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
  }

  /**
   * s3rver writes the metadata in place: a process killed mid-write leaves a truncated
   * `._S3rver_metadata.json`, and every listing that reaches it answers 500. Written aside and
   * renamed over, a record is whole or absent, whenever the process dies.
   */
  override async putMetadata(
    bucket: string,
    key: string,
    metadata: Record<string, unknown>,
    md5?: string,
  ): Promise<void> {
    // What s3rver keeps: the standard headers it allows and the user's x-amz-meta-*.
    const kept = Object.fromEntries(
      Object.entries(metadata ?? {}).filter(
        ([name]) => S3Object.ALLOWED_METADATA.includes(name) || name.startsWith('x-amz-meta-'),
      ),
    );
    if (md5) await writeWhole(this.getResourcePath(bucket, key, 'object.md5'), md5);
    await writeWhole(this.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(kept, null, 2));
  }

  /**
   * Removes every object of `bucket` whose metadata does not parse (written in place by an older
   * twin killed mid-write): its write never completed, so S3 would not hold it. Returns their keys.
   */
  async removeHalfWritten(bucket: string): Promise<string[]> {
    const removed: string[] = [];
    const visit = async (folder: string): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) await visit(file);
        else if (entry.name.endsWith(METADATA_SUFFIX)) {
          const text = await readFile(file, 'utf8').catch(() => undefined);
          if (text === undefined || parses(text)) continue;
          const stem = file.slice(0, -METADATA_SUFFIX.length);
          await Promise.all(
            [OBJECT_SUFFIX, `${OBJECT_SUFFIX}.md5`, METADATA_SUFFIX, KEY_SUFFIX].map((suffix) =>
              unlink(`${stem}${suffix}`).catch(() => undefined),
            ),
          );
          removed.push(path.relative(this.getBucketPath(bucket), stem));
        }
      }
    };
    await visit(this.getBucketPath(bucket));
    return removed;
  }

  /** Metadata read and the file opened under the key's lock: once open, the reader holds that version whatever comes after. */
  override getObject(bucket: string, key: string, options?: { start?: number; end?: number }) {
    return keyLocks.run(bucket, key, () => super.getObject(bucket, key, options));
  }

  override async initiateUpload(bucket: string, key: string, uploadId: string, metadata: unknown): Promise<void> {
    checkKeyLength(key);
    checkMetadataSize(metadata);
    await super.initiateUpload(bucket, key, uploadId, metadata);
  }

  /** S3 numbers parts 1 to 10,000 (UploadPart and UploadPartCopy alike); s3rver takes any number. */
  override async putPart(...args: Parameters<FilesystemStore['putPart']>): ReturnType<FilesystemStore['putPart']> {
    const partNumber = Number(args[2]);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > S3_MAX_PARTS) {
      throw new S3Error('InvalidArgument', `Part number must be an integer between 1 and ${S3_MAX_PARTS}, inclusive`, {
        ArgumentName: 'partNumber',
        ArgumentValue: String(args[2]),
      });
    }
    return super.putPart(...args);
  }

  override async copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    replacementMetadata: unknown,
  ): Promise<unknown> {
    checkKeyLength(destKey);
    checkMetadataSize(replacementMetadata);
    const copied = await super.copyObject(srcBucket, srcKey, destBucket, destKey, replacementMetadata);
    await this.keepKey(destBucket, destKey);
    return copied;
  }

  override async deleteObject(bucket: string, key: string): Promise<void> {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json', 'key'].map((resource) =>
        unlink(this.getResourcePath(bucket, key, resource)).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        }),
      ),
    );
    // Folders left empty go, as in s3rver, by their stored (possibly hashed) names.
    const bucketPath = this.getBucketPath(bucket);
    const folders = storedParts(key).slice(0, -1);
    while (folders.length) {
      const folder = path.join(bucketPath, ...folders);
      const left = await readdir(folder).catch(() => undefined);
      if (left === undefined || left.length > 0) break;
      await rmdir(folder).catch(() => undefined);
      folders.pop();
    }
  }

  override async listObjects(bucket: string, options: ListObjectsOptions): Promise<ListObjectsResult> {
    const { delimiter = '', startAfter = '', prefix = '', maxKeys = Number.POSITIVE_INFINITY } = options;
    const keys = (await this.allKeys(bucket, prefix))
      .filter((key) => key.startsWith(prefix) && byBytes(key, startAfter) > 0)
      .sort(byBytes);
    const commonPrefixes = new Set<string>();
    const listed: string[] = [];
    let isTruncated = false;
    for (const key of keys) {
      const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
      if (cut !== -1) {
        commonPrefixes.add(key.slice(0, cut + delimiter.length));
        continue;
      }
      if (listed.length >= maxKeys) {
        isTruncated = true;
        break;
      }
      listed.push(key);
    }
    const metadata = await Promise.all(
      listed.map((key) =>
        this.getMetadata(bucket, key).catch((error: unknown) => {
          // Gone since it was listed, or left half-written by a killed process: not an object S3 would list.
          if (isMissing(error) || error instanceof SyntaxError) return undefined;
          throw error;
        }),
      ),
    );
    return {
      objects: listed.flatMap((key, i) => (metadata[i] ? [new S3Object(bucket, key, null, metadata[i])] : [])),
      commonPrefixes: [...commonPrefixes].sort(byBytes),
      isTruncated,
    };
  }

  /** An object stored under hashed names gets its full key written beside it, for listings. */
  private async keepKey(bucket: string, key: string): Promise<void> {
    if (!isHashed(key)) return;
    const keyPath = this.getResourcePath(bucket, key, 'key');
    await mkdir(path.dirname(keyPath), { recursive: true });
    await writeFile(keyPath, key);
  }

  /** Every key under the folders that can hold `prefix`, read back from the file names (or the kept key of a hashed one). */
  private async allKeys(bucket: string, prefix: string): Promise<string[]> {
    const bucketPath = this.getBucketPath(bucket);
    const keys: string[] = [];
    const visit = async (folder: string, parts: string[]): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries) {
        if (entry.isDirectory()) {
          if (parts.length === 0 && entry.name === UPLOADS_DIR) continue;
          const folderKey = `${[...parts, entry.name].join('/')}/`;
          // A folder named by its key segments can be skipped when no key under it has the prefix.
          const plain = !entry.name.startsWith(HASHED) && !parts.some((p) => p.startsWith(HASHED));
          if (plain && !folderKey.startsWith(prefix) && !prefix.startsWith(folderKey)) continue;
          await visit(path.join(folder, entry.name), [...parts, entry.name]);
        } else if (entry.name.endsWith(OBJECT_SUFFIX)) {
          const stored = [...parts, entry.name.slice(0, -OBJECT_SUFFIX.length)];
          if (stored.some((p) => p.startsWith(HASHED))) {
            const stem = path.join(folder, `${stored.at(-1)}${KEY_SUFFIX}`);
            const key = await readFile(stem, 'utf8').catch(() => undefined);
            if (key !== undefined) keys.push(key);
          } else {
            keys.push(FilesystemStore.decodeKeyPath(stored.join('/')));
          }
        }
      }
    };
    await visit(bucketPath, []);
    return keys;
  }
}
