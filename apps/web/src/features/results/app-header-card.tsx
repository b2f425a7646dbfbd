import { ExternalLinkIcon, TagsIcon, TrophyIcon } from 'lucide-react';
import { Link } from 'react-router';
import { categoryLabel, type TAudit } from '@aso/contracts';
import { overallScoreText, scoreComposition } from '@aso/aso-rules';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useFocusOnMount } from '@/hooks/use-focus';
import { unreadReason } from '@/lib/audit.helpers';
import { ScoreRing } from './score';
import { StarRating } from './star-rating';
import { keywordsPath } from '@/features/keywords/keywords.paths';
import { WatchButton } from '@/features/watchlist/watch-button';
import { AppIcon } from './app-icon';

/**
 * The app header card: icon, name, subtitle, developer, category and rank, rating
 * (docs/product.md#results-view). Its heading (the app's name) takes the focus when the result
 * shows. `watchable` adds 'watch' (as the user's own app) and the way to the app's keywords
 * next to the store link.
 */
export function AppHeaderCard({
  audit,
  watchable = false,
}: {
  audit: TAudit;
  watchable?: boolean;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  // 'N/A' means no source could tell the rank: nothing to show, not a badge.
  const rank = audit.categoryRank?.trim() === 'N/A' ? null : audit.categoryRank?.trim();
  const composition = audit.structuredAnalysis ? scoreComposition(audit.structuredAnalysis) : null;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <Card className="flex-row items-start gap-5 p-5 sm:p-6" data-testid="app-header">
        <AppIcon
          src={audit.iconUrl}
          name={audit.appName}
          className="size-20 rounded-[22%] sm:size-24"
        />
        {/* The store's texts in the page's language, so CJK text gets the right glyphs. */}
        <div className="min-w-0 flex-1 space-y-2" lang={audit.storeData?.pageLanguage ?? undefined}>
          <div>
            <h1
              ref={heading}
              tabIndex={-1}
              className="focus-target text-xl font-semibold tracking-tight break-words sm:text-2xl"
              data-testid="app-name"
            >
              {audit.appName}
            </h1>
            {audit.subtitle && (
              <p className="text-muted-foreground" data-testid="app-subtitle">
                {audit.subtitle}
              </p>
            )}
          </div>
          {audit.developer && (
            <p className="text-sm font-medium text-primary" data-testid="app-developer">
              {audit.developer}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            {audit.category && (
              <Badge variant="secondary" data-testid="app-category">
                {categoryLabel(audit.category, audit.genreId)}
              </Badge>
            )}
            {audit.ageRating && (
              <Badge variant="outline" data-testid="app-age-rating" title="Age rating">
                {audit.ageRating}
              </Badge>
            )}
            {audit.languages && audit.languages.length > 0 && (
              <Badge
                variant="outline"
                data-testid="app-languages"
                title={audit.languages.join(', ')}
              >
                {audit.languages.length === 1
                  ? audit.languages[0]
                  : `${audit.languages.length} languages`}
              </Badge>
            )}
            {rank && (
              <Badge variant="outline" className="gap-1" data-testid="app-rank">
                <TrophyIcon className="text-warning" />
                {rank}
              </Badge>
            )}
          </div>
          {unreadReason(audit, 'rating') ? (
            <p className="text-sm text-muted-foreground" data-testid="rating-unread">
              Rating not read from the store ({unreadReason(audit, 'rating')})
            </p>
          ) : (
            <StarRating rating={audit.rating} reviewCount={audit.reviewCount ?? '0'} />
          )}
          <div className="flex flex-wrap items-center gap-3">
            <a
              href={audit.appStoreUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground"
            >
              View on the App Store <ExternalLinkIcon className="size-3" />
            </a>
            {watchable && (
              <WatchButton appStoreUrl={audit.appStoreUrl} role="mine" appName={audit.appName} />
            )}
            {watchable && (
              <Button asChild variant="outline" size="sm">
                <Link
                  to={keywordsPath(audit.appId, audit.storefront || 'us')}
                  aria-label={`Keywords of ${audit.appName ?? 'this app'}`}
                  data-testid="result-keywords-link"
                >
                  <TagsIcon /> keywords
                </Link>
              </Button>
            )}
          </div>
        </div>
      </Card>
      <Card className="items-center justify-center gap-2 p-5" data-testid="overall-score-card">
        <p className="text-sm font-medium text-muted-foreground">Overall ASO score</p>
        {audit.overallScore === null ? (
          <p className="text-sm text-muted-foreground">not scored</p>
        ) : (
          <ScoreRing score={audit.overallScore} />
        )}
        {composition && (
          <p
            className="text-center text-xs text-muted-foreground"
            data-testid="overall-score-composition"
          >
            {overallScoreText(audit.overallScore, composition)}
            {composition.notJudged.length > 0 && (
              <>
                <br />
                Not judged: {composition.notJudged.join(', ')}
              </>
            )}
          </p>
        )}
      </Card>
    </div>
  );
}
