import net from 'node:net';
import type { Hl7Message } from '@medplum/core';
import { Hl7Connection, type Hl7ErrorEvent, type Hl7MessageEvent } from '@medplum/hl7';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { bilingual } from '../../http/errors.js';
import { ackOf, Hl7Refusal, headerOf, nakOf } from './message.js';

/**
 * HL7 v2 MLLP listeners, one TCP port per HL7 source. The framing and the parse are
 * @medplum/hl7's `Hl7Connection` (and @medplum/core's `Hl7Message`) on our own `net.Server`
 * (medplum's `Hl7Server.start` binds every interface and retries a taken port forever; we bind
 * HL7_HOST and report a taken port).
 *
 * Each message is stored in `hl7_messages` by an INSERT ... ON CONFLICT (source_id, control_id)
 * DO NOTHING (messages arriving together share one: group commit), and only once that
 * statement has committed is it acknowledged
 * (MSA|AA): an ACK means stored, so nothing acknowledged is lost, whatever happens after. A
 * message sent again with the same control id (MSH-10) is acknowledged and stored once. A frame
 * that cannot be parsed, or has no MSH-10, gets AR with the reason; a database failure gets AE
 * (the sender keeps the message and sends it again). The replies of one connection go out in
 * the order its messages came. Logs name the source and the control id, never the content.
 */

/** At most this many messages in one INSERT. */
const GROUP_MAX = 500;

interface Pending {
  appId: number;
  sourceId: number;
  controlId: string;
  type: string;
  raw: string;
  resolve: (fresh: boolean) => void;
  reject: (e: unknown) => void;
}

export interface ListenerSource {
  id: number;
  appId: number;
}

export interface Hl7Log {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

interface Running {
  server: net.Server;
  port: number;
  /** The port the source's config asked for (0 in tests: any free one). */
  wanted: number;
  sockets: Set<net.Socket>;
}

export class Hl7Listeners {
  private readonly running = new Map<number, Running>();

  constructor(
    private readonly db: Db,
    private readonly opts: {
      host: string;
      log: Hl7Log;
      /** Called after a new message was stored (not for a repeat): processing is started there. */
      onStored?: (source: ListenerSource) => void;
    },
  ) {}

  /** The port the source's listener is bound to, or undefined. */
  port(sourceId: number): number | undefined {
    return this.running.get(sourceId)?.port;
  }

  sources(): number[] {
    return [...this.running.keys()];
  }

  /**
   * Starts the source's listener on `port` (0: a free port) and returns the port it took. A
   * listener already running on the same wanted port is kept; on another port it is restarted.
   */
  async listen(source: ListenerSource, port: number): Promise<number> {
    const had = this.running.get(source.id);
    if (had && had.wanted === port) return had.port;
    if (had) await this.stop(source.id);
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      this.accept(source, socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: this.opts.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (e) =>
      this.opts.log.error({ sourceId: source.id, err: e.message }, 'hl7 listener error'),
    );
    const bound = (server.address() as net.AddressInfo).port;
    this.running.set(source.id, { server, port: bound, wanted: port, sockets });
    this.opts.log.info({ sourceId: source.id, port: bound }, 'hl7 listener started');
    return bound;
  }

  async stop(sourceId: number): Promise<void> {
    const r = this.running.get(sourceId);
    if (!r) return;
    this.running.delete(sourceId);
    await new Promise<void>((resolve) => {
      r.server.close(() => resolve());
      for (const s of r.sockets) s.destroy();
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }

  /**
   * Group commit: the messages that arrive while an INSERT is committing are written together by
   * the next one (one commit for many senders); each learns its fate only after that commit.
   * Resolves true when the message is new, false when its control id was already stored.
   */
  private store(item: Omit<Pending, 'resolve' | 'reject'>): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...item, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private pending: Pending[] = [];
  private flushing = false;

  private async flush() {
    this.flushing = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, GROUP_MAX);
        try {
          const r = await this.db.execute(sql`
            insert into hl7_messages (app_id, source_id, control_id, type, raw)
            values ${sql.join(
              batch.map((b) => sql`(${b.appId}, ${b.sourceId}, ${b.controlId}, ${b.type}, ${b.raw})`),
              sql`, `,
            )}
            on conflict (source_id, control_id) do nothing
            returning source_id, control_id`);
          const fresh = new Set(
            ((r as unknown as { rows: Array<{ source_id: number; control_id: string }> }).rows ?? []).map(
              (x) => `${x.source_id} ${x.control_id}`,
            ),
          );
          for (const b of batch) b.resolve(fresh.delete(`${b.sourceId} ${b.controlId}`));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private accept(source: ListenerSource, socket: net.Socket) {
    socket.setNoDelay(true);
    const conn = new Hl7Connection(socket, 'utf-8');
    // Replies in the order the messages came, each after its store.
    let chain: Promise<void> = Promise.resolve();
    const reply = (make: () => Promise<Hl7Message>) => {
      chain = chain
        .then(async () => {
          const msg = await make();
          if (!socket.destroyed) conn.send(msg);
        })
        .catch((e) =>
          this.opts.log.error({ sourceId: source.id, err: (e as Error).message }, 'hl7 reply failed'),
        );
    };
    conn.addEventListener('message', (event: Hl7MessageEvent) => {
      const m = event.message;
      reply(() => this.receive(source, m));
    });
    conn.addEventListener('error', (event: Hl7ErrorEvent) => {
      const err = event.error as Error & { code?: string };
      // Socket errors carry a code; anything else is a frame the parser refused.
      if (err.code || socket.destroyed) return;
      // Hl7Connection 4.5.2 keeps the bad frame's bytes after a failed parse: drop them, or
      // every later message of this connection would be read together with them.
      const reset = (conn as unknown as { resetBuffer?: () => void }).resetBuffer;
      if (typeof reset === 'function') reset.call(conn);
      else socket.destroy();
      this.opts.log.warn({ sourceId: source.id }, 'hl7 frame refused: not an HL7 message');
      reply(async () =>
        nakOf(
          undefined,
          new Hl7Refusal(
            'AR',
            '100',
            bilingual(
              '收到的内容不是 HL7 v2 消息（应以 MSH 段开始）',
              'not an HL7 v2 message (it must start with an MSH segment)',
            ),
          ),
        ),
      );
    });
  }

  /** Stores one message and returns its reply. */
  async receive(source: ListenerSource, m: Hl7Message): Promise<Hl7Message> {
    const { controlId, type } = headerOf(m);
    const raw = m.toString();
    try {
      if (!controlId)
        throw new Hl7Refusal(
          'AR',
          '101',
          bilingual('缺少消息控制号（MSH-10）', 'the message control id (MSH-10) is missing'),
        );
      if (controlId.length > 199)
        throw new Hl7Refusal(
          'AR',
          '102',
          bilingual('消息控制号（MSH-10）过长', 'the message control id (MSH-10) is too long'),
        );
      if (!type)
        throw new Hl7Refusal(
          'AR',
          '101',
          bilingual('缺少消息类型（MSH-9）', 'the message type (MSH-9) is missing'),
        );
      if (raw.includes('\u0000'))
        throw new Hl7Refusal(
          'AR',
          '102',
          bilingual('消息含有 NUL 字符', 'the message contains a NUL character'),
        );
    } catch (e) {
      this.opts.log.warn({ sourceId: source.id, controlId: controlId.slice(0, 40) }, 'hl7 message refused');
      return nakOf(m, e as Hl7Refusal);
    }
    let stored: boolean;
    try {
      stored = await this.store({ appId: source.appId, sourceId: source.id, controlId, type, raw });
    } catch (e) {
      this.opts.log.error(
        { sourceId: source.id, controlId: controlId.slice(0, 40), err: (e as Error).message },
        'hl7 message not stored',
      );
      return nakOf(
        m,
        new Hl7Refusal(
          'AE',
          '207',
          bilingual('消息未能保存，请稍后重发', 'the message could not be stored; send it again later'),
        ),
      );
    }
    if (stored) this.opts.onStored?.(source);
    return ackOf(m);
  }
}
