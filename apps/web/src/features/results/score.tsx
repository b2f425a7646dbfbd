import { cn } from '@/lib/utils';

/** Colour class of a 0-100 score: green from 80, amber from 50, red below. */
export function scoreTone(score: number): 'good' | 'fair' | 'poor' {
  if (score >= 80) return 'good';
  if (score >= 50) return 'fair';
  return 'poor';
}

const TONE_TEXT = {
  good: 'text-success',
  fair: 'text-warning-foreground',
  poor: 'text-destructive',
} as const;
const TONE_BG = { good: 'bg-success', fair: 'bg-warning', poor: 'bg-destructive' } as const;
const TONE_STROKE = {
  good: 'stroke-success',
  fair: 'stroke-warning',
  poor: 'stroke-destructive',
} as const;

/** A score pill: '82/100' tinted by tone, or 'not judged' for a section without a score. */
export function ScorePill({ score, className }: { score: number | null; className?: string }) {
  if (score === null)
    return (
      <span
        className={cn(
          'inline-flex items-center rounded-full border border-dashed px-2.5 py-0.5 text-xs text-muted-foreground',
          className,
        )}
        data-testid="section-score"
        data-judged="false"
      >
        not judged
      </span>
    );
  const tone = scoreTone(score);
  return (
    <span
      className={cn(
        'inline-flex items-baseline gap-0.5 rounded-full border px-2.5 py-0.5 text-sm font-semibold tabular-nums',
        TONE_TEXT[tone],
        className,
      )}
      data-testid="section-score"
    >
      {score}
      <span className="text-xs font-normal text-muted-foreground">/100</span>
    </span>
  );
}

/** A thin bar filled to the score. */
export function ScoreBar({ score }: { score: number }) {
  return (
    <div className="h-1.5 overflow-hidden rounded-full bg-muted">
      <div
        className={cn('h-full rounded-full', TONE_BG[scoreTone(score)])}
        style={{ width: `${Math.max(0, Math.min(100, score))}%` }}
      />
    </div>
  );
}

/** A ring showing the overall score. */
export function ScoreRing({ score, size = 132 }: { score: number; size?: number }) {
  const stroke = 10;
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const tone = scoreTone(score);
  return (
    <div className="relative" style={{ width: size, height: size }}>
      <svg width={size} height={size} className="-rotate-90">
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth={stroke}
          className="stroke-muted"
        />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={c}
          strokeDashoffset={c * (1 - Math.max(0, Math.min(100, score)) / 100)}
          className={cn('transition-[stroke-dashoffset] duration-700', TONE_STROKE[tone])}
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center">
        <span
          className={cn('text-4xl font-bold tabular-nums', TONE_TEXT[tone])}
          data-testid="overall-score"
        >
          {score}
        </span>
        <span className="text-xs text-muted-foreground">out of 100</span>
      </div>
    </div>
  );
}
