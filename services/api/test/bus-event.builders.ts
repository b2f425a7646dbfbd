import type { TBusEvent } from '@aso/contracts';

/** ISO time `s` seconds after 2026-01-01T00:00:00Z (a fixed clock for recorded steps). */
export const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

/**
 * A CONSTRUCTED per-app step event of the progress bus at second `s` (`emittedAt` = `s`,
 * message '<step_id> <status>', role 'main'); `fields` override or add any field.
 */
export const appStep = (
  appId: string,
  step_id: string,
  status: string,
  s: number,
  fields: object = {},
): TBusEvent =>
  ({
    type: 'app_step',
    appId,
    role: 'main',
    step_id,
    status,
    message: `${step_id} ${status}`,
    at: at(s),
    emittedAt: s,
    ...fields,
  }) as TBusEvent;

/**
 * A CONSTRUCTED audit-level step event at second `s`: 0 % in progress, 100 % done (started and
 * ended at `s`), message '<step_id> <status>'.
 */
export const step = (step_id: string, status: string, s: number): TBusEvent =>
  ({
    type: 'step',
    step: {
      step_id,
      status,
      message: `${step_id} ${status}`,
      progress_pct: status === 'done' ? 100 : 0,
      started_at: at(s),
      ended_at: status === 'done' ? at(s) : null,
    },
    emittedAt: s,
  }) as TBusEvent;
