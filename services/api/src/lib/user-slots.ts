/**
 * Slots per caller in one api process: at most `perKey` requests of one key (a user, an admin
 * code) are worked on at once, the next ones wait their turn in arrival order, and past
 * `maxWaiting` waiting ones a request is refused at once. One user reading many large pages in
 * parallel then holds at most `perKey` of the process's event loop and database connections,
 * so other users' requests are not queued behind all of them (this product's rule: one
 * account must not crowd others out).
 */
export class UserSlots {
  private readonly keys = new Map<string, { running: number; waiting: Array<() => void> }>();

  /**
   * @param perKey - requests of one key worked on at once (>= 1).
   * @param maxWaiting - requests of one key that may wait for a slot (>= 0).
   */
  constructor(
    readonly perKey: number,
    readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(perKey) || perKey < 1) throw new RangeError('perKey must be >= 1');
  }

  /**
   * Takes a free slot of `key` at once: the function that gives it back (idempotent), or null
   * when `perKey` are taken (then {@link take} waits for one). The path of almost every
   * request, so it allocates nothing a waiting request needs (no abort signal, no promise).
   */
  tryTake(key: string): (() => void) | null {
    let entry = this.keys.get(key);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.keys.set(key, entry);
    }
    if (entry.running >= this.perKey) return null;
    entry.running++;
    return this.#releaser(key, entry);
  }

  /**
   * Takes a slot of `key`, waiting for one while `perKey` are taken. Resolves with the
   * function that gives it back (idempotent), or with null when `maxWaiting` requests of the
   * key wait already or `gone` aborted while waiting (the caller answers, the slot is not
   * held).
   */
  async take(key: string, gone: AbortSignal): Promise<(() => void) | null> {
    const free = this.tryTake(key);
    if (free) return free;
    const held = this.keys.get(key)!;
    if (held.waiting.length >= this.maxWaiting || gone.aborted) return null;
    const granted = await new Promise<boolean>((resolve) => {
      const grant = () => {
        gone.removeEventListener('abort', drop);
        resolve(true);
      };
      const drop = () => {
        const i = held.waiting.indexOf(grant);
        if (i !== -1) held.waiting.splice(i, 1);
        resolve(false);
      };
      held.waiting.push(grant);
      gone.addEventListener('abort', drop, { once: true });
    });
    return granted ? this.#releaser(key, held) : null;
  }

  /** The give-back of one held slot: to the next waiting request, else the count drops. */
  #releaser(key: string, held: { running: number; waiting: Array<() => void> }): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = held.waiting.shift();
      // The slot passes to the next waiting request; the last one out empties the entry.
      if (next) next();
      else if (--held.running === 0) this.keys.delete(key);
    };
  }

  /** Requests of `key` being worked on now (0 for an unknown key). */
  running(key: string): number {
    return this.keys.get(key)?.running ?? 0;
  }
}
