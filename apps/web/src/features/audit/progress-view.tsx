/**
 * The progress view (docs/product.md#progress-view): 'ANALYZING YOUR APP', the
 * elapsed timer ('1 min 25 s', refreshed every 100 ms), the estimated time by number of valid
 * links, and the 12 steps with an icon per status; the step in progress shows dots cycling
 * 1 to 3 every 500 ms. The heading takes the focus when the view opens; each change of a step's
 * status (not each progress tick, nor the timer) is announced once to screen readers.
 */
import {
  CheckCircle2Icon,
  CircleIcon,
  Clock3Icon,
  Loader2Icon,
  TimerIcon,
  XCircleIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { STEP_IDS, STEP_LABELS, type TStepStatus } from '@aso/contracts';
import { Card, CardContent } from '@/components/ui/card';
import { announce } from '@/components/ui/live-announcer';
import { useFocusOnMount } from '@/hooks/use-focus';
import { estimateDurationMs } from '@/lib/audit.helpers';
import { formatDuration, formatElapsed } from '@/lib/format.helpers';
import { stepChangeAnnouncement } from '@/lib/progress-steps';
import { cn } from '@/lib/utils';
import type { TStepsState } from './use-audit-progress';

/** Timer refresh (ms, docs/product.md#limits-and-constants). */
export const TIMER_REFRESH_MS = 100;
/** Dots cycle period (ms, docs/product.md#limits-and-constants). */
export const DOTS_PERIOD_MS = 500;

function useElapsed(): number {
  const [start] = useState(() => Date.now());
  const [now, setNow] = useState(start);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TIMER_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now - start;
}

function AnimatedDots() {
  const [count, setCount] = useState(1);
  useEffect(() => {
    const timer = setInterval(() => setCount((c) => (c % 3) + 1), DOTS_PERIOD_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="inline-block w-4 text-left" data-testid="progress-dots">
      {'.'.repeat(count)}
    </span>
  );
}

function StepIcon({ status }: { status: TStepStatus }) {
  switch (status) {
    case 'done':
      return <CheckCircle2Icon className="size-5 text-success" aria-label="done" />;
    case 'in_progress':
      return <Loader2Icon className="size-5 animate-spin text-primary" aria-label="in progress" />;
    case 'error':
      return <XCircleIcon className="size-5 text-destructive" aria-label="error" />;
    case 'pending':
      return <CircleIcon className="size-5 text-muted-foreground/40" aria-label="pending" />;
  }
}

/** Announces each change of the steps' statuses, once (see `stepChangeAnnouncement`). */
function useStepAnnouncements(steps: TStepsState): void {
  const previous = useRef<TStepsState | null>(null);
  useEffect(() => {
    const message = previous.current
      ? stepChangeAnnouncement(previous.current, steps)
      : 'Audit started.';
    previous.current = steps;
    if (message) announce(message);
  }, [steps]);
}

/** The view; `steps` come from `useAuditProgress`. */
export function ProgressView({ steps, validLinks }: { steps: TStepsState; validLinks: number }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  useStepAnnouncements(steps);
  const elapsed = useElapsed();
  const estimate = estimateDurationMs(validLinks);
  const done = STEP_IDS.filter((id) => steps[id].status === 'done').length;
  const pct = Math.round((done / STEP_IDS.length) * 100);

  return (
    <div
      className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6 lg:py-12"
      data-testid="progress-view"
    >
      <div className="space-y-3 text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-primary/10">
          <Loader2Icon className="size-6 animate-spin text-primary" aria-hidden />
        </span>
        <h1
          ref={heading}
          tabIndex={-1}
          className="focus-target text-2xl font-bold tracking-[0.2em] sm:text-3xl"
        >
          ANALYZING YOUR APP
        </h1>
        <div className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
          <span className="flex items-center gap-1.5">
            <TimerIcon className="size-4" />
            Elapsed{' '}
            <span
              className="text-base font-semibold text-foreground tabular-nums"
              data-testid="elapsed-timer"
            >
              {formatElapsed(elapsed)}
            </span>
          </span>
          <span className="flex items-center gap-1.5">
            <Clock3Icon className="size-4" />
            Estimated time: up to{' '}
            <span className="font-semibold text-foreground" data-testid="estimated-time">
              {formatDuration(estimate)}
            </span>
          </span>
        </div>
        <p className="text-xs text-muted-foreground" data-testid="estimate-note">
          {estimate > 0 && elapsed > estimate
            ? `Taking longer than the ${formatDuration(estimate)} estimate: the App Store or the AI model is slow to answer. The steps below show where it is.`
            : 'About a minute per app at most; often much faster when the store data is cached.'}
        </p>
      </div>

      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Audit progress"
        aria-valuetext={`${done} of ${STEP_IDS.length} steps done`}
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-500"
          style={{ width: `${pct}%` }}
        />
      </div>

      <Card className="py-2">
        <CardContent className="px-2 sm:px-3">
          <ol className="divide-y">
            {STEP_IDS.map((id) => {
              const step = steps[id];
              return (
                <li
                  key={id}
                  data-testid={`step-${id}`}
                  data-status={step.status}
                  className={cn(
                    'flex items-start gap-3 px-2 py-3 transition-colors',
                    step.status === 'in_progress' && 'rounded-md bg-primary/5',
                  )}
                >
                  <StepIcon status={step.status} />
                  <div className="min-w-0 flex-1">
                    <p
                      className={cn(
                        'text-sm font-medium',
                        step.status === 'pending' && 'text-muted-foreground',
                        step.status === 'error' && 'text-destructive',
                      )}
                    >
                      {STEP_LABELS[id]}
                      {step.status === 'in_progress' && <AnimatedDots />}
                    </p>
                    {step.message && (
                      <p className="mt-0.5 text-xs break-words text-muted-foreground">
                        {step.message}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        </CardContent>
      </Card>
    </div>
  );
}
