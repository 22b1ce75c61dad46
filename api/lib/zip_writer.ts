import { crc32 } from "node:zlib";

interface Entry {
  name: Uint8Array;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

const enc = new TextEncoder();

/** DOS time and date of a moment (zip's own format, local fields read as UTC). */
function dosTime(d: Date): [time: number, date: number] {
  return [
    (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  ];
}

/**
 * A zip written as it goes: each entry deflated by the runtime's native CompressionStream, its CRC by
 * zlib's native crc32, sizes in a data descriptor after the data, so nothing is held but the chunk in
 * hand. `out` is awaited for every chunk: a slow reader slows the writer (backpressure), memory stays
 * flat. No zip64: an entry or archive over 4 GB is refused.
 */
export class ZipWriter {
  private entries: Entry[] = [];
  private offset = 0;
  private time: number;
  private date: number;

  constructor(private out: (chunk: Uint8Array) => Promise<void>, when = new Date()) {
    [this.time, this.date] = dosTime(when);
  }

  private async emit(chunk: Uint8Array) {
    this.offset += chunk.length;
    if (this.offset > 0xffffffff) throw new Error("zip archive over 4 GB");
    await this.out(chunk);
  }

  /** One deflated entry from its chunks. */
  async file(path: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
    const name = enc.encode(path);
    const entry: Entry = { name, crc: 0, compressed: 0, size: 0, offset: this.offset };
    const head = new DataView(new ArrayBuffer(30));
    head.setUint32(0, 0x04034b50, true);
    head.setUint16(4, 20, true);
    head.setUint16(6, 0x0808, true); // sizes in the data descriptor; UTF-8 names
    head.setUint16(8, 8, true); // deflate
    head.setUint16(10, this.time, true);
    head.setUint16(12, this.date, true);
    head.setUint16(26, name.length, true);
    await this.emit(new Uint8Array(head.buffer));
    await this.emit(name);

    const deflate = new CompressionStream("deflate-raw");
    const input = deflate.writable.getWriter();
    const pump = (async () => {
      for await (const out of deflate.readable) {
        entry.compressed += out.length;
        await this.emit(out);
      }
    })();
    try {
      for await (const chunk of chunks) {
        entry.crc = crc32(chunk, entry.crc);
        entry.size += chunk.length;
        await input.ready;
        await input.write(chunk as Uint8Array<ArrayBuffer>);
      }
      await input.close();
    } catch (e) {
      await input.abort(e).catch(() => {});
      throw e;
    } finally {
      await pump.catch(() => {});
    }
    await pump;
    if (entry.size > 0xffffffff) throw new Error("zip entry over 4 GB");

    const desc = new DataView(new ArrayBuffer(16));
    desc.setUint32(0, 0x08074b50, true);
    desc.setUint32(4, entry.crc >>> 0, true);
    desc.setUint32(8, entry.compressed, true);
    desc.setUint32(12, entry.size, true);
    await this.emit(new Uint8Array(desc.buffer));
    this.entries.push(entry);
  }

  /** The central directory and its end record. */
  async finish() {
    const start = this.offset;
    for (const e of this.entries) {
      const d = new DataView(new ArrayBuffer(46));
      d.setUint32(0, 0x02014b50, true);
      d.setUint16(4, 20, true);
      d.setUint16(6, 20, true);
      d.setUint16(8, 0x0808, true);
      d.setUint16(10, 8, true);
      d.setUint16(12, this.time, true);
      d.setUint16(14, this.date, true);
      d.setUint32(16, e.crc >>> 0, true);
      d.setUint32(20, e.compressed, true);
      d.setUint32(24, e.size, true);
      d.setUint16(28, e.name.length, true);
      d.setUint32(42, e.offset, true);
      await this.emit(new Uint8Array(d.buffer));
      await this.emit(e.name);
    }
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, this.entries.length, true);
    end.setUint16(10, this.entries.length, true);
    end.setUint32(12, this.offset - start, true);
    end.setUint32(16, start, true);
    await this.emit(new Uint8Array(end.buffer));
  }
}
