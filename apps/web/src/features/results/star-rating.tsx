import { StarIcon } from 'lucide-react';
import { abbreviateCount } from '@aso/contracts';
import { formatRating, starFills } from '@/lib/format.helpers';
import { cn } from '@/lib/utils';

/** Five stars filled to the rating (fractional last star), the rating and the review count. */
export function StarRating({
  rating,
  reviewCount,
  size = 'md',
  className,
}: {
  rating: string | null;
  reviewCount?: string | null;
  size?: 'sm' | 'md';
  className?: string;
}) {
  const star = size === 'sm' ? 'size-3.5' : 'size-4';
  return (
    <div className={cn('flex items-center gap-1.5', className)}>
      <div className="flex" aria-label={`Rated ${formatRating(rating)} out of 5`} role="img">
        {starFills(rating).map((fill, i) => (
          <span key={i} className={cn('relative', star)}>
            <StarIcon
              className={cn('absolute inset-0 text-muted-foreground/30', star)}
              fill="currentColor"
              strokeWidth={0}
            />
            <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
              <StarIcon
                className={cn('text-amber-400', star)}
                fill="currentColor"
                strokeWidth={0}
              />
            </span>
          </span>
        ))}
      </div>
      <span
        className={cn('font-semibold tabular-nums', size === 'sm' ? 'text-xs' : 'text-sm')}
        data-testid="rating-value"
      >
        {formatRating(rating)}
      </span>
      {reviewCount !== undefined && (
        <span
          className={cn('text-muted-foreground', size === 'sm' ? 'text-xs' : 'text-sm')}
          data-testid="review-count"
        >
          ({abbreviateCount(reviewCount)} ratings)
        </span>
      )}
    </div>
  );
}
