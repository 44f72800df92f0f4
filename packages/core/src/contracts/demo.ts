import { z } from 'zod';

/**
 * The demo hospital (`GET /api/v0.1/demo/status`, server: seed/hospital/): whether its synthetic
 * patients and the objects of every area are being made, so the workbench can say so.
 */
export const DEMO_STATES = ['off', 'preparing', 'ready', 'failed'] as const;
export type DemoState = (typeof DEMO_STATES)[number];

export const demoStatus = z.object({
  /** off: this app has no demo content (not the demo app, or DEMO_DATA / DEMO_PATIENTS off). */
  state: z.enum(DEMO_STATES),
  /** 0 to 100 while preparing; 100 when ready. */
  progress: z.number().int().min(0).max(100),
});
export type DemoStatus = z.infer<typeof demoStatus>;
