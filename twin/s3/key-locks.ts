/**
 * One lock per object key in the local S3, so it answers as S3 does where s3rver alone would not:
 * an overwrite lands whole (its content and metadata swap in one step a reader cannot see half
 * of), a reader gets the whole version it started with, and a conditional write checks and writes
 * as one. Re-entrant within one request (AsyncLocalStorage), so a request holding the lock may
 * call store methods that take it too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly held = new AsyncLocalStorage<Set<string>>();

  /** Runs `work` holding the lock of `bucket`/`key` (at once if this request already holds it). */
  async run<T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> {
    const name = `${bucket}/${key}`;
    const mine = this.held.getStore();
    if (mine?.has(name)) return work();
    const before = this.tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => done);
    this.tails.set(name, tail);
    await before;
    try {
      return await this.held.run(new Set([...(mine ?? []), name]), work);
    } finally {
      release();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }
}

/** The locks of the one store the s3rver process serves. */
export const keyLocks = new KeyLocks();
