import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * A ZIP file written as a stream (yazl: deflate, ZIP64 past 4 GB). Entries whose content is
 * produced piece by piece are written while the archive is read, one after another in their
 * order, with back-pressure: memory stays flat whatever their size. Used by the XLSX writer
 * and the per-app database export.
 */
export interface ZipEntry {
  name: string;
  content: string | Buffer | AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
}

export interface ZipOptions {
  /** The entries' modification time; the default (1980-01-01) makes the same input give the same bytes. */
  mtime?: Date;
}

const REPRODUCIBLE = new Date(1980, 0, 1);

/** Writes to a pass-through, waiting for room or for the end of a reader that went away. */
async function write(s: PassThrough, chunk: string | Buffer) {
  if (s.destroyed) throw new Error('ZIP stream closed');
  if (s.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      s.off('drain', done);
      s.off('close', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
  });
}

/** Yields the bytes of the ZIP file as they are made. */
export async function* streamZip(entries: ZipEntry[], options: ZipOptions = {}): AsyncGenerator<Buffer> {
  const mtime = options.mtime ?? REPRODUCIBLE;
  const zip = new yazl.ZipFile();
  const streamed: Array<{
    s: PassThrough;
    content: AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
  }> = [];
  for (const e of entries) {
    if (typeof e.content === 'string' || Buffer.isBuffer(e.content)) {
      zip.addBuffer(Buffer.isBuffer(e.content) ? e.content : Buffer.from(e.content, 'utf8'), e.name, {
        mtime,
      });
    } else {
      const s = new PassThrough({ highWaterMark: 1 << 20 });
      zip.addReadStream(s, e.name, { mtime });
      streamed.push({ s, content: e.content });
    }
  }
  zip.end();
  const out = zip.outputStream as Readable;
  // yazl reads the entries in order: each is written while the archive is read.
  const pump = (async () => {
    for (const { s, content } of streamed) {
      for await (const chunk of content) await write(s, chunk);
      s.end();
    }
  })();
  let failure: unknown = null;
  pump.catch((err) => {
    failure ??= err;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  let complete = false;
  try {
    for await (const chunk of out) yield chunk as Buffer;
    complete = true;
  } finally {
    if (!complete) {
      // A reader that stopped early (a closed download) stops the writers and the ZIP too.
      zip.on('error', () => {});
      out.on('error', () => {});
      for (const { s } of streamed) s.destroy();
      out.destroy();
    }
    await pump.catch(() => {});
  }
  if (failure) throw failure;
}
