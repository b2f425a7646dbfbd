import { FilmIcon, ImageIcon, TextIcon } from 'lucide-react';
import { useState } from 'react';
import type { TAudit } from '@aso/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { isPrinting } from '@/hooks/use-printing';
import { unreadReason } from '@/lib/audit.helpers';
import { previewText } from '@/lib/format.helpers';
import { PreviewVideo } from './preview-video';
import { ScreenshotStrip } from './screenshot-strip';

function Description({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(isPrinting);
  const preview = previewText(text);
  return (
    <div className="space-y-2">
      <p
        className="text-sm leading-relaxed whitespace-pre-line text-foreground/90"
        data-testid="app-description"
      >
        {expanded ? text : preview.text}
      </p>
      {preview.truncated && !isPrinting() && (
        <Button
          variant="link"
          size="sm"
          className="h-auto px-0"
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? 'Read less' : 'Read more'}
        </Button>
      )}
    </div>
  );
}

/** Says that a part of the listing could not be read from the store, and why. */
function Unread({ what, reason }: { what: string; reason: string }) {
  return (
    <p className="text-sm text-muted-foreground" data-testid="asset-unread">
      {what} could not be read from the store ({reason}).
    </p>
  );
}

/**
 * Visual Assets: preview video, iPhone screenshots, description (docs/product.md#results-view). A
 * part the store read could not supply says so instead of claiming the app has none.
 */
export function VisualAssets({ audit }: { audit: TAudit }) {
  const unread = {
    previews: unreadReason(audit, 'previews'),
    screenshots: unreadReason(audit, 'screenshots'),
    description: unreadReason(audit, 'description'),
  };
  return (
    <Card data-testid="visual-assets">
      <CardHeader>
        <CardTitle className="text-lg">Visual Assets</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-[auto_minmax(0,1fr)]">
          <section className="space-y-2">
            <h3 className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
              <FilmIcon className="size-4" /> Preview video
            </h3>
            {audit.previewVideoUrl ? (
              <PreviewVideo src={audit.previewVideoUrl} poster={audit.previewPosterUrl} />
            ) : unread.previews ? (
              <Unread what="The preview video" reason={unread.previews} />
            ) : (
              <p className="flex h-24 items-center justify-center rounded-xl border border-dashed px-6 text-sm text-muted-foreground lg:h-72 lg:w-44">
                No preview video
              </p>
            )}
          </section>
          <section className="min-w-0 space-y-2">
            <h3 className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
              <ImageIcon className="size-4" /> iPhone screenshots ({audit.screenshots.length})
            </h3>
            {unread.screenshots && audit.screenshots.length === 0 ? (
              <Unread what="Screenshots" reason={unread.screenshots} />
            ) : (
              <ScreenshotStrip
                urls={audit.screenshots}
                label={audit.appName ?? 'App'}
                testId="app-screenshots"
              />
            )}
          </section>
        </div>
        <section className="space-y-2">
          <h3 className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
            <TextIcon className="size-4" /> Description
          </h3>
          {audit.description ? (
            <Description text={audit.description} />
          ) : unread.description ? (
            <Unread what="The description" reason={unread.description} />
          ) : (
            <p className="text-sm text-muted-foreground">No description.</p>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
