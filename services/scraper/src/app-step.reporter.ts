import type { TAppRole, TStepId, TStepStatus } from '@aso/contracts';
import type { ProgressBus } from '@aso/queue';

/**
 * Reports one app's scrape steps on the audit's progress stream (docs/product.md#progress-events
 * and #scrape-steps) as `app_step` events `{ appId, role, step_id, status, message, at (ISO 8601),
 * emittedAt (epoch ms) }`; the gateway aggregates them over the audit's apps into the client's
 * steps (with `progress_pct`, `started_at`, `ended_at`). It remembers the step in progress, so a
 * failure can be reported on the step it happened in.
 */
export class AppStepReporter {
  private currentStep: TStepId | null = null;

  constructor(
    private readonly bus: ProgressBus,
    private readonly app: { auditId: string; appId: string; role: TAppRole },
  ) {}

  /** The step started last and not finished yet, or null. */
  get current(): TStepId | null {
    return this.currentStep;
  }

  /**
   * Appends one event. `cacheHit` goes on the `cache_check` event that is `done`. Throws when
   * Redis refuses (the job is then retried).
   */
  async emit(
    stepId: TStepId,
    status: TStepStatus,
    message: string,
    extra: { cacheHit?: boolean } = {},
  ): Promise<void> {
    const now = new Date();
    await this.bus.append(this.app.auditId, {
      type: 'app_step',
      appId: this.app.appId,
      role: this.app.role,
      step_id: stepId,
      status,
      message,
      at: now.toISOString(),
      emittedAt: now.getTime(),
      ...extra,
    });
    this.currentStep = status === 'in_progress' ? stepId : null;
  }

  /** Reports `stepId` as `in_progress`. */
  start(stepId: TStepId, message: string): Promise<void> {
    return this.emit(stepId, 'in_progress', message);
  }

  /** Reports `stepId` as `done`. */
  done(stepId: TStepId, message: string, extra: { cacheHit?: boolean } = {}): Promise<void> {
    return this.emit(stepId, 'done', message, extra);
  }
}
