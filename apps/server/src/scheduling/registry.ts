import type { z } from 'zod';
import type { Tx } from '../db/client.js';
import type { Bilingual } from '../http/errors.js';

/**
 * A job kind that schedules may run. Areas register theirs (scheduling/kinds.ts holds the
 * built-in ones); the scheduler and the schedule routes only know this interface.
 */
export interface SchedulableKind {
  /** The job kind queued (the name the area's runner handles), e.g. `diseaseLibrary.push`. */
  kind: string;
  label: Bilingual;
  /** The params the job takes; a schedule's params are parsed by it before they are stored. */
  params: z.ZodType<Record<string, unknown>>;
  /**
   * Checks that the params name objects of this app (and that they can run now); throws
   * `invalidField('body.params.<name>', zh, en)` otherwise. Called on create and change, on
   * run-now, and again by the tick before each due run (objects may be gone since).
   */
  check(db: Tx, appId: number, params: Record<string, unknown>): Promise<void>;
  /** What the params point at, in words, for lists (e.g. the library's name). */
  describe?(db: Tx, appId: number, params: Record<string, unknown>): Promise<string | null>;
  /** Extra params the queued job carries (e.g. `{ scheduled: true }`), merged over the schedule's. */
  jobParams?(params: Record<string, unknown>): Record<string, unknown>;
}

/** The schedulable kinds of one app instance (decorated as `app.scheduleKinds`). */
export class SchedulableRegistry {
  private readonly kinds = new Map<string, SchedulableKind>();

  register(k: SchedulableKind) {
    if (this.kinds.has(k.kind)) throw new Error(`schedulable kind ${k.kind} is already registered`);
    this.kinds.set(k.kind, k);
    return this;
  }

  get(kind: string): SchedulableKind | undefined {
    return this.kinds.get(kind);
  }

  list(): SchedulableKind[] {
    return [...this.kinds.values()];
  }
}
