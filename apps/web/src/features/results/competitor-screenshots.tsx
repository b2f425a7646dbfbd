import type { TAudit } from '@aso/contracts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cleanScreenshotAnalysis } from '@/lib/audit.helpers';
import { AppIcon } from './app-icon';
import { RulesOnlyBadge } from './scoring-disclosure';
import { ScreenshotStrip } from './screenshot-strip';

/**
 * Competitor Screenshots (standalone result page, docs/product.md#result-page): a strip per
 * competitor with its analysis text, numbering and trailing 'To improve' / 'A/B Testing' parts
 * removed.
 */
export function CompetitorScreenshots({ audit }: { audit: TAudit }) {
  if (audit.competitorData.length === 0) return null;
  return (
    <Card data-testid="competitor-screenshots">
      <CardHeader>
        <CardTitle className="text-lg">Competitor Screenshots</CardTitle>
        <CardDescription>How the competitors you entered present their app.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-8">
        {audit.competitorData.map((c, i) => {
          const analysis = cleanScreenshotAnalysis(c.screenshotAnalysis);
          return (
            <section
              key={`${c.appId}-${i}`}
              className="space-y-3"
              data-testid="competitor-screenshot-set"
            >
              <div className="flex items-center gap-3">
                <AppIcon src={c.iconUrl} name={c.appName} className="size-9 rounded-[22%]" />
                <div className="min-w-0">
                  <h3 className="flex items-center gap-2 truncate font-medium">
                    {c.appName}
                    {audit.provider === 'openai' && c.screenshotAnalysisSource === 'rules' && (
                      <RulesOnlyBadge />
                    )}
                  </h3>
                  <p className="text-xs text-muted-foreground">
                    {c.screenshots.length} screenshots
                  </p>
                </div>
              </div>
              <ScreenshotStrip urls={c.screenshots} label={c.appName} />
              {analysis && (
                <p
                  className="text-sm leading-relaxed whitespace-pre-line text-foreground/90"
                  data-testid="competitor-screenshot-analysis"
                >
                  {analysis}
                </p>
              )}
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
