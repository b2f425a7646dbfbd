import { cn } from '@/lib/utils';
import { sparkline, sparklineLabel } from './keywords.helpers';

const WIDTH = 88;
const HEIGHT = 24;

/**
 * A term's rank over its recent reads, oldest first, as a small inline SVG line (no chart
 * library: one per table row): the best rank seen at the top, reads outside the top 200 as
 * ticks on the bottom edge, the last read as a dot. Named for screen readers by its words.
 */
export function RankSparkline({
  points,
  className,
}: {
  points: readonly { rank: number | null }[];
  className?: string;
}) {
  if (points.length === 0) {
    return <span className="text-xs text-muted-foreground">no reads yet</span>;
  }
  const line = sparkline(points, WIDTH, HEIGHT);
  return (
    <svg
      role="img"
      aria-label={sparklineLabel(points)}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className={cn('overflow-visible text-primary', className)}
      data-testid="rank-sparkline"
      data-points={points.length}
    >
      {line.segments.map((pts, i) =>
        pts.includes(' ') ? (
          <polyline
            key={i}
            points={pts}
            fill="none"
            stroke="currentColor"
            strokeWidth={1.5}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        ) : (
          <circle
            key={i}
            cx={pts.split(',')[0]}
            cy={pts.split(',')[1]}
            r={1.5}
            fill="currentColor"
          />
        ),
      )}
      {line.unranked.map((x, i) => (
        <line
          key={`u${i}`}
          x1={x}
          x2={x}
          y1={HEIGHT - 3}
          y2={HEIGHT}
          className="stroke-muted-foreground"
          strokeWidth={1.5}
        />
      ))}
      {line.last && <circle cx={line.last.x} cy={line.last.y} r={2.5} fill="currentColor" />}
    </svg>
  );
}
