/**
 * A cache by object identity that stores an entry only for an object that recurs: a module's constant fields or
 * join condition, used by every run of its statement. An object built for one statement (a select's inline
 * fields, a condition made per request) is never stored.
 *
 * Why: every WeakMap or WeakSet entry whose key is young is work for V8's young-generation collector, and it
 * keeps the entry's value alive until a full collection. One entry per statement made each collection of the
 * server's list requests take 2.4-6 ms and promote 0.5-2 MB, where the same statements without the entries
 * took 0.2 ms and promoted nothing (measured with `--v8-flags=--trace-gc-nvp`, issue 10: decision 034).
 * Lookups cost nothing of the kind: only insertions do.
 *
 * An object offered twice within the last `size` offers counts as recurring. The ring holds its objects
 * strongly until they are overwritten: at most `size` small objects, never a growing set.
 */
export class RecurringCache<K extends object, V> {
  private readonly stored = new WeakMap<K, V>();
  private readonly recent: (K | undefined)[];
  private next = 0;

  constructor(size = 64) {
    this.recent = new Array(size).fill(undefined);
  }

  get(key: K): V | undefined {
    return this.stored.get(key);
  }

  /** Whether `key` has an entry (it recurred and was stored). */
  has(key: K): boolean {
    return this.stored.has(key);
  }

  /** Stores `value` for `key` if `key` was offered recently before; otherwise remembers that it was offered. */
  offer(key: K, value: V): void {
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      if (recent[i] === key) {
        recent[i] = undefined;
        this.stored.set(key, value);
        return;
      }
    }
    recent[this.next] = key;
    this.next = (this.next + 1) % recent.length;
  }
}
