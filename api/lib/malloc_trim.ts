/**
 * The C allocator's figures (glibc's `mallinfo2`, in /metrics) and a periodic `malloc_trim(0)`, which hands
 * whole free pages inside its heap back to the system (madvise), wherever they lie. SQLite and the runtime's
 * Rust side allocate with glibc's malloc; after a burst (a large download, a batch upload) the freed chunks
 * stay resident until trimmed. It runs every `MALLOC_TRIM_SECONDS` on the server's thread (at most 1.5 ms a
 * run in the soak); its time is in /metrics. The figures are how the soak's native growth was named a leak
 * (memory in use growing, free memory level) rather than fragmentation: decision 029.
 *
 * Only where glibc is the C library (Linux); elsewhere (musl, macOS, Windows) both do nothing.
 */

export interface TrimStats {
  /** trims run */
  runs: number;
  /** total ms spent trimming */
  totalMs: number;
  /** the longest trim, ms */
  longestMs: number;
}

type Trim = () => number;

/** The C allocator's own figures (glibc's mallinfo2, summed over its arenas), in bytes. */
export interface MallocInfo {
  /** taken from the system for the arenas (the brk heap and the threads' arenas) */
  arena: number;
  /** taken directly with mmap for large blocks */
  mmapped: number;
  /** in use by the program */
  inUse: number;
  /** free inside the arenas (kept by the allocator) */
  free: number;
}

const SIZE_T = "usize" as const;

function libc() {
  if (Deno.build.os !== "linux") return undefined;
  try {
    return Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: [SIZE_T], result: "i32" },
      mallinfo2: { parameters: [], result: { struct: new Array(10).fill(SIZE_T) } },
    });
  } catch {
    return undefined;
  }
}

let loaded: ReturnType<typeof libc> | null = null;
const glibc = () => loaded === null ? loaded = libc() : loaded;

/** glibc's malloc_trim, or undefined where there is none. */
export function loadMallocTrim(): Trim | undefined {
  const lib = glibc();
  return lib && (() => lib.symbols.malloc_trim(0n));
}

/** The allocator's figures, or undefined where glibc is not the C library. */
export function mallocInfo(): MallocInfo | undefined {
  const lib = glibc();
  if (!lib) return undefined;
  const raw = lib.symbols.mallinfo2() as Uint8Array<ArrayBuffer>;
  // struct mallinfo2: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost
  const f = new BigUint64Array(raw.buffer, raw.byteOffset, 10);
  return { arena: Number(f[0]), mmapped: Number(f[4]), inUse: Number(f[7]), free: Number(f[8]) };
}

/**
 * Trims every `seconds` (0: never); answers the stop function and the figures. The timer does not keep the
 * process alive.
 */
export function startMallocTrim(seconds: number, trim: Trim | undefined = loadMallocTrim()) {
  const stats: TrimStats = { runs: 0, totalMs: 0, longestMs: 0 };
  if (!seconds || !trim) return { stats, stop: () => {} };
  const timer = setInterval(() => {
    const t0 = performance.now();
    trim();
    const ms = performance.now() - t0;
    stats.runs++;
    stats.totalMs += ms;
    stats.longestMs = Math.max(stats.longestMs, ms);
  }, seconds * 1000);
  Deno.unrefTimer(timer);
  return { stats, stop: () => clearInterval(timer) };
}
